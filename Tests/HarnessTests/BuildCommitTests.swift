import Foundation
import RasterHarness
import XCTest

/// The commit a binary records is the one its build came from (written by
/// Plugins/BuildCommit when it was built), not the commit of the folder it
/// runs in: run from elsewhere it still names this checkout's HEAD.
final class BuildCommitTests: XCTestCase {
    func git(_ args: [String], in root: URL) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git", "-C", root.path] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    func testTheRecordedCommitIsTheCheckoutsWhereverTheBinaryRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let elsewhere = FileManager.default.temporaryDirectory
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(elsewhere.path))
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        let recorded = HostInfo.current().gitCommit
        XCTAssertEqual(recorded, HostInfo.buildCommit)
        guard let head = git(["rev-parse", "--short=12", "HEAD"], in: root) else {
            // Built outside a checkout: nothing to name but what the build was told.
            XCTAssertEqual(recorded, ProcessInfo.processInfo.environment["RASTERBENCH_GIT_COMMIT"] ?? "unknown")
            return
        }
        let dirty = !(git(["status", "--porcelain", "--untracked-files=no"], in: root) ?? "").isEmpty
        XCTAssertEqual(recorded, head + (dirty ? "-dirty" : ""),
                       "the build recorded \(recorded); the checkout is at \(head)\(dirty ? " with changes" : "") (rebuild after editing)")
        XCTAssertNil(recorded.first { !($0.isLetter || $0.isNumber || $0 == "-") }, "file-name and CSV safe")
    }
}
