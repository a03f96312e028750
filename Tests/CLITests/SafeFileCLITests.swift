import Foundation
import XCTest

/// The real executable's file handling (docs/contract.md §10): output
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

    // MARK: every writer

    private func kind(_ name: String) -> mode_t {
        var st = stat()
        guard lstat(dir.appendingPathComponent(name).path, &st) == 0 else { return 0 }
        return st.st_mode & S_IFMT
    }

    static let tiny = ["--quick", "--runs", "1", "--size", "8x8", "--no-dram", "--kernels", "composite", "--backends", "naive", "--threads", "1"]

    /// Each command with an output option, pointed at a character device
    /// with the right extension (a node made here, the same device as
    /// /dev/null) and at a symbolic link to a file: the device is written in
    /// place and stays a device node; the link is refused before any work,
    /// and it and its target stay as they were. (`governor --record` takes
    /// half a minute in a debug build, so only its refusal runs here.)
    func testEveryWriterLeavesADeviceNodeAndASymbolicLinkAsTheyWere() throws {
        _ = try file(##"{"width":8,"height":8,"background":"#336699FF"}"##, "job.json")
        XCTAssertEqual(try run(["run"] + Self.tiny + ["--out", "good.csv"]).status, 0)
        let scene = ["render", "--scene", "liquid", "--size", "8x8"]
        let writers: [(args: [String], ext: String)] = [
            (["run"] + Self.tiny + ["--out"], "csv"),
            (["run"] + Self.tiny + ["--out", "r.csv", "--json"], "json"),
            (["render", "job.json", "-o"], "png"),
            (scene + ["--sheet", "-o"], "png"),
            (scene + ["--frames", "0..1", "-o"], "webp"),
            (["choose", "--from", "good.csv", "--save"], "json"),
            (["report", "good.csv", "-o"], "html"),
        ]
        let refusedOnly: [(args: [String], ext: String)] = [
            (["choose", "--kernels", "composite", "--backends", "naive", "--threads", "1", "--quick", "--out"], "csv"),
            (["governor", "--scene", "liquid", "--frames", "10", "--record"], "csv"),
        ]
        var null = stat()
        XCTAssertEqual(stat("/dev/null", &null), 0)
        let devices = Set(["csv", "json", "png", "webp", "html"]).filter {
            mknod(dir.appendingPathComponent("dev.\($0)").path, S_IFCHR | 0o666, null.st_rdev) == 0
        }
        for (args, ext) in writers + refusedOnly {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("link.\(ext)"))
            try Data("precious".utf8).write(to: dir.appendingPathComponent("victim.\(ext)"))
            XCTAssertEqual(symlink("victim.\(ext)", dir.appendingPathComponent("link.\(ext)").path), 0)
            let r = try run(args + ["link.\(ext)"])
            XCTAssertTrue((1...127).contains(r.status), "\(args): \(r.status)")
            XCTAssertTrue(r.stderr.contains("symbolic link"), "\(args): \(r.stderr)")
            XCTAssertEqual(kind("link.\(ext)"), S_IFLNK, "\(args)")
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("victim.\(ext)")), Data("precious".utf8), "\(args)")
        }
        guard !devices.isEmpty else { throw XCTSkip("cannot make device nodes here (not root): only the links were checked") }
        for (args, ext) in writers where devices.contains(ext) {
            let r = try run(args + ["dev.\(ext)"])
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertEqual(kind("dev.\(ext)"), S_IFCHR, "\(args): still the device node")
        }
        XCTAssertEqual(try temporaries(), [])
    }

    /// An output that is one of the command's inputs (a job's image files
    /// included), by another spelling, a hard link or a symbolic link, is
    /// refused before anything is written, and the input is left as it was.
    func testAnOutputThatIsAnInputIsRefused() throws {
        let job = ##"{"width":8,"height":8,"background":"#336699FF"}"##
        _ = try file(job, "job.json")
        XCTAssertEqual(try run(["run"] + Self.tiny + ["--out", "r.csv", "--json", "r.json"]).status, 0)
        let report = try Data(contentsOf: dir.appendingPathComponent("r.csv"))
        let trace = "frame,level,label,psnr_db,ms\n" + (0..<12).map { "\($0),0,a,30,2\n" }.joined()
        _ = try file(trace, "t.csv")
        XCTAssertEqual(link(dir.appendingPathComponent("r.csv").path, dir.appendingPathComponent("r.html").path), 0)
        XCTAssertEqual(link(dir.appendingPathComponent("job.json").path, dir.appendingPathComponent("job.png").path), 0)
        // A job whose image op reads the file its output would replace.
        XCTAssertEqual(try run(["render", "job.json", "-o", "img.png"]).status, 0)
        let picture = try Data(contentsOf: dir.appendingPathComponent("img.png"))
        _ = try file(##"{"width":8,"height":8,"ops":[{"op":"image","file":"img.png"}]}"##, "uses-img.json")
        XCTAssertEqual(symlink("r.json", dir.appendingPathComponent("alias.json").path), 0)
        XCTAssertEqual(link(dir.appendingPathComponent("r.json").path, dir.appendingPathComponent("hard.json").path), 0)
        let cases: [[String]] = [
            ["choose", "--from", "alias.json", "--save", "./r.json"],
            ["choose", "--from", "r.json", "--save", "hard.json"],
            ["report", "r.csv", "-o", "r.html"],
            ["render", "job.json", "-o", "job.png"],
            ["render", "uses-img.json", "-o", "./img.png"],
            ["governor", "--trace", "t.csv", "--record", "./t.csv"],
        ]
        for args in cases {
            let r = try run(args)
            XCTAssertTrue((1...127).contains(r.status), "\(args): \(r.status)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("the same file"), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("r.csv")), report)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("job.json")), Data(job.utf8))
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("img.png")), picture)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("t.csv"), encoding: .utf8), trace)
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("r.json"), encoding: .utf8).contains("\"rows\""))
    }

    /// `render --frames -o x.webp/` is a folder by its spelling: numbered
    /// PNGs go in it, and no WebP file named x.webp is written.
    func testATrailingSlashMeansAFolderForFrameSequences() throws {
        let r = try run(["render", "--scene", "liquid", "--size", "8x8", "--frames", "0..1", "-o", "x.webp/"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(kind("x.webp"), S_IFDIR)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("x.webp").path).sorted(),
                       ["frame-00000.png", "frame-00001.png"])
    }

    /// SIGTERM while a frame sequence is being rendered into a folder that
    /// holds frames of an earlier run: the staged frames and their hidden
    /// folder are removed, and the earlier frames are left as they were.
    func testSIGTERMMidSequenceLeavesTheEarlierFrames() throws {
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
        for i in 0..<3 { try Data("old \(i)".utf8).write(to: frames.appendingPathComponent("frame-0000\(i).png")) }
        let p = Process()
        p.executableURL = executable
        p.arguments = ["render", "--scene", "liquid", "--size", "64x64", "--frames", "0..400", "-o", "frames/"]
        p.currentDirectoryURL = dir
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let staged = { (try? FileManager.default.contentsOfDirectory(atPath: frames.path))?.contains { $0.hasPrefix(".frames-") } == true }
        while p.isRunning && !staged() { usleep(1000) }
        XCTAssertTrue(p.isRunning, "the sequence ended before its staging folder was seen")
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted(),
                       ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
        for i in 0..<3 {
            XCTAssertEqual(try Data(contentsOf: frames.appendingPathComponent("frame-0000\(i).png")), Data("old \(i)".utf8))
        }
    }
}

