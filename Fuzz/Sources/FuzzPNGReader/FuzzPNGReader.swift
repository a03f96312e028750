import Foundation
import RasterKit

/// The PNG reader is file-based (libpng reads the file itself), so each
/// input is written to one file in a private directory and read back. Any
/// bytes must decode or throw, never trap, and never allocate what the
/// header claims before checking it (ASan's allocation limit,
/// -rss_limit_mb / -malloc_limit_mb, turns a huge allocation into a crash).
let file: URL = {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("rasterbench-fuzz-png-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("input.png")
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(file.path)")
    }
    _ = try? ImageFile.readPNG(file)
    return 0
}
