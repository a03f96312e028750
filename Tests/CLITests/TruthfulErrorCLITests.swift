import Foundation
import XCTest

/// Errors that tell the truth, in one line: empty selections are
/// errors, negative numbers are reported as out of range, report times must
/// be finite positive decimals, echoed text is escaped.
final class TruthfulErrorCLITests: CLITestCase {
    private func expectError(_ args: [String], _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try run(args)
        XCTAssertTrue((1...127).contains(r.status), "\(args): status \(r.status)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2,
                       "one line: \(r.stderr)", file: file, line: line)
    }

    func testEmptyOrMeaninglessSelectionsAreErrors() throws {
        try expectError(["verify", "--threads", ""], "no thread count")
        try expectError(["verify", "--threads", ","], "no thread count")
        try expectError(["verify", "--kernels", ""], "--kernels")
        try expectError(["verify", "--kernels", " , "], "--kernels")
        try expectError(["run", "--threads", ""], "no thread count")
        try expectError(["run", "--backends", ""], "--backends")
        try expectError(["run", "--kernels", ","], "--kernels")
    }

    func testNegativeNumbersAreOutOfRangeNotMissing() throws {
        try expectError(["verify", "--threads", "-1"], "'-1' (accepted: 1...")
        try expectError(["run", "--threads", "-1"], "'-1' (accepted: 1...")
        try expectError(["render", "--scene", "aurora", "--frame", "-1", "-o", "x.png"], "--frame: '-1' (accepted: a whole number in 0...")
        // Options argument-parser read before: a negative value was "missing",
        // or "The value '-1' is invalid" with no range.
        try expectError(["choose", "--fps", "-1"], "invalid --fps: '-1' (accepted: a refresh rate in 1...480 Hz")
        try expectError(["choose", "--share", "-1"], "invalid --share: '-1' (accepted:")
        try expectError(["render", "--scene", "aurora", "--max-memory", "-5%", "-o", "x.png"], "invalid --max-memory: '-5%' (accepted:")
        try expectError(["render", "--scene", "aurora", "--seed", "-1", "-o", "x.png"], "invalid --seed: '-1' (accepted: a whole number in 0...")
        try expectError(["render", "--scene", "aurora", "--max-seconds", "-1", "-o", "x.png"], "invalid --max-seconds: '-1' (accepted:")
    }

    /// `--max-seconds` is kept end to end: a job whose work cannot fit is
    /// stopped with a one-line error naming the limit, and writes nothing
    /// (here 50 exact sigma-4096 blurs of 2000x2000, which ran 114 s
    /// without a limit, stopped before the first: its floor alone is
    /// beyond 0.05 s, and bench's set-up may use up the limit first).
    func testAJobThatCannotFitItsTimeLimitStopsWithOneLineAndNoOutput() throws {
        let blurs = Array(repeating: ##"{"op":"blur","sigma":4096}"##, count: 50).joined(separator: ",")
        let job = dir.appendingPathComponent("slow.json")
        try Data(##"{"width":2000,"height":2000,"ops":["## .utf8 + Data(blurs.utf8) + Data("]}".utf8)).write(to: job)
        let out = dir.appendingPathComponent("slow.png")
        for args in [["render", job.path, "--max-seconds", "0.05", "-o", out.path],
                     ["bench", job.path, "--max-seconds", "0.05", "--quick"]] {
            // Under timeout(1), so that a limit not kept fails (status 124)
            // instead of running for minutes.
            let p = Process(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            p.arguments = ["-s", "KILL", "120", executable.path] + args
            p.currentDirectoryURL = dir
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertTrue((1...123).contains(p.terminationStatus), "\(args): status \(p.terminationStatus)")
            // A debug build's bench warns first, on a line of its own.
            let lines = stderr.split(separator: "\n").filter { !$0.hasPrefix("WARNING: this is a DEBUG") }
            XCTAssertEqual(lines.count, 1, "\(args): \(stderr)")
            XCTAssertTrue(lines.first?.hasPrefix("error: invalid --max-seconds") == true, "\(args): \(stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(args)")
        }
    }

    /// The libraries name a refused value by its parameter; every such
    /// error reaches the user naming the option they typed.
    func testLibraryParametersAreNamedAsTheirOptions() throws {
        try expectError(["run", "--kernels", "nope"], "invalid --kernels: 'nope' (accepted:")
        try expectError(["choose", "--scenes", "nope"], "invalid --scenes: 'nope' (accepted:")
        try expectError(["run", "--kernels", "composite", "--variants", "exakt"], "invalid --variants: 'exakt' (accepted:")
        try expectError(["run", "--kernels", "composite", "--filter", "no such label"], "invalid --filter: 'no such label' (accepted:")
        try expectError(["render", "--scene", "aurora", "--style", "contest", "-o", "x.png"], "invalid --style for scene aurora: 'contest'")
        try expectError(["report", try report("2.25"), "-o", "x.txt"], "invalid --output (-o): 'x.txt'")
    }

    /// `ab` parses `run`'s options itself (one shared declaration), so a bad
    /// value is refused before any child process runs.
    func testABRefusesRunsOptionsBeforeAnyChild() throws {
        let base = dir.appendingPathComponent("no-such-base").path
        for (args, expected) in [(["--fps", "-1"], "invalid --fps: '-1'"), (["--runs", "0"], "invalid --runs: '0'"),
                                 (["--share", "25"], "invalid --share: '25'")] {
            let r = try run(["ab", base] + args)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
    }

    func testEchoedTextIsEscaped() throws {
        try expectError(["verify", "--kernels", "a\nb"], "'a\\nb'")
        try expectError(["run", "--threads", "1\n2"], "'1\\n2'")
        try expectError(["render", "--scene", "aurora", "-o", "a\u{1}\nb.txt"], "a\\u{1}\\nb.txt")
    }

    /// A report whose second data row has `median_ms` = `value`.
    private func report(_ value: String) throws -> String {
        let header = "suite_version,kernel,variant,backend,threads,width,height,status,median_ms"
        let text = header + "\r\n" + "1,k,v,naive,1,8,8,ok,1.5\r\n" + "1,k,w,naive,1,8,8,ok,\(value)\r\n"
        let url = dir.appendingPathComponent("r\(UUID().uuidString.prefix(8)).csv")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testCompareRejectsTimesThatAreNotFinitePositiveDecimals() throws {
        let good = try report("2.25")
        let r = try run(["compare", good, good])
        XCTAssertEqual(r.status, 0, "the fixture itself is a valid report: \(r.stderr)")
        for value in ["-1", "0", "nan", "NaN", "inf", "-inf", "0x10", "1e999", " 1", "1.5.2", ""] where !value.isEmpty {
            let path = try report(value)
            try expectError(["compare", path, good], ":3: median_ms")
        }
    }
}
