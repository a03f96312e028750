import Foundation
import XCTest

/// The real executable's file handling (SPEC section 10; issue 13): output
/// paths checked before any work, temporary files removed when the process
/// is interrupted, inputs that are not regular files refused without hanging.
final class SafeFileCLITests: CLITestCase {
    private func file(_ text: String, _ name: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func temporaries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
    }

    /// A file-size limit of 1 KiB kills the writer with SIGXFSZ in the middle
    /// of writing its temporary file (deterministically: the limit is hit by
    /// the write itself). The handler must unlink it and re-raise.
    func testSIGXFSZMidWriteLeavesNoTemporaryFile() throws {
        _ = try file(##"{"width":256,"height":256,"background":"#336699FF"}"##, "job.json")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "ulimit -f 2 && exec \"$0\" render job.json -o big.rgba", executable.path]
        p.currentDirectoryURL = dir
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(p.terminationStatus, SIGXFSZ, "killed by the re-raised signal")
        XCTAssertEqual(try temporaries(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("big.rgba").path))
    }

    /// SIGTERM while the temporary file exists: the child is stopped as soon
    /// as its temporary file appears (so the signal lands mid-write, or
    /// between the write and the rename), then terminated.
    func testSIGTERMMidWriteLeavesNoTemporaryFile() throws {
        _ = try file(##"{"width":4096,"height":4096,"background":"#336699FF"}"##, "job.json")
        var caught = 0
        for _ in 0..<6 where caught == 0 {
            let p = Process()
            p.executableURL = executable
            p.arguments = ["render", "job.json", "-o", "big.rgba"]
            p.currentDirectoryURL = dir
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            var stopped = false
            while p.isRunning {
                if try !temporaries().isEmpty {
                    kill(p.processIdentifier, SIGSTOP)
                    stopped = true
                    break
                }
                usleep(100)
            }
            guard stopped else { p.waitUntilExit(); try? FileManager.default.removeItem(at: dir.appendingPathComponent("big.rgba")); continue }
            let midWrite = try !temporaries().isEmpty && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("big.rgba").path)
            kill(p.processIdentifier, SIGTERM)
            kill(p.processIdentifier, SIGCONT)
            p.waitUntilExit()
            guard midWrite else { try? FileManager.default.removeItem(at: dir.appendingPathComponent("big.rgba")); continue }
            caught += 1
            XCTAssertEqual(p.terminationReason, .uncaughtSignal)
            XCTAssertEqual(p.terminationStatus, SIGTERM)
            XCTAssertEqual(try temporaries(), [], "the temporary file was removed on SIGTERM")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("big.rgba").path))
        }
        XCTAssertEqual(caught, 1, "never caught the 64 MB write in progress in 6 tries")
    }

    func testOutputsAreCheckedBeforeAnyWork() throws {
        let job = try file(##"{"width":8,"height":8,"background":"#336699FF"}"##, "job.json")
        let huge = try file(##"{"width":32768,"height":32768,"background":"#336699FF"}"##, "huge.json")
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("fifo.png").path, 0o600), 0)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("dir.png"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("dir.csv"), withIntermediateDirectories: false)
        let cases: [([String], String)] = [
            (["render", job.path, "-o", ""], "empty path"),
            (["render", job.path, "-o", "new.png/"], "(a folder)"),
            (["render", job.path, "-o", "fifo.png"], "a FIFO"),
            (["render", job.path, "-o", "dir.png"], "a directory"),
            (["render", job.path, "-o", "/dev/null"], "'null'"),
            (["run", "--out", ""], "empty path"),
            (["run", "--out", "Results/"], "(a folder)"),
            // --out must be a .csv and --json a .json, so they cannot name one file.
            (["run", "--out", "r.csv", "--json", "./r.csv"], "ending in .json"),
            (["run", "--out", "dir.png"], "ending in .csv"),
            (["run", "--out", "dir.csv"], "a directory"),
            // Refused by PNG's size limit or, on a host with under 24 GiB
            // of memory, by the default --max-memory: either before rendering.
            (["render", huge.path, "-o", "huge.png"], "huge.png|--max-memory"),
        ]
        for (args, expected) in cases {
            let start = Date()
            let r = try run(args)
            XCTAssertTrue((1...127).contains(r.status), "\(args): status \(r.status)")
            XCTAssertTrue(expected.split(separator: "|").contains { r.stderr.contains($0) }, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one line: \(r.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 20, "refused before the work: \(args)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["dir.csv", "dir.png", "fifo.png", "huge.json", "job.json"])
    }

    func testAnImageOpNamingAFIFOIsRefusedNotRead() throws {
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("in.png").path, 0o600), 0)
        let job = try file(##"{"width":8,"height":8,"ops":[{"op":"image","file":"in.png"}]}"##, "job.json")
        let r = try run(["render", job.path, "-o", "out.png"])
        XCTAssertTrue((1...127).contains(r.status))
        XCTAssertTrue(r.stderr.contains("ops[0].file") && r.stderr.contains("a FIFO"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }
}
