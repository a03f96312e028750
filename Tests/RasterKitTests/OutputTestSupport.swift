import Foundation
import XCTest

/// A directory in which no file can be created. A 0555 directory stops
/// everyone but root; root ignores permissions, so when the probe gets
/// through (tests run as root in containers) Linux's /proc stands in: no
/// one can create a file there.
func unwritableDirectory(in base: URL) throws -> URL {
    let dir = base.appendingPathComponent("read-only")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
    let probe = dir.appendingPathComponent("probe")
    if !FileManager.default.createFile(atPath: probe.path, contents: Data()) { return dir }
    try? FileManager.default.removeItem(at: probe)
    #if os(Linux)
    let proc = URL(fileURLWithPath: "/proc")
    XCTAssertFalse(FileManager.default.createFile(atPath: proc.appendingPathComponent("probe").path, contents: Data()))
    return proc
    #else
    throw XCTSkip("running as root and no directory is read-only for root here")
    #endif
}

/// Makes a tree removable again after `unwritableDirectory`.
func removeTestDirectory(_ dir: URL) {
    let ro = dir.appendingPathComponent("read-only")
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ro.path)
    try? FileManager.default.removeItem(at: dir)
}

func makeTestDirectory() throws -> URL {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rasterkit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}
