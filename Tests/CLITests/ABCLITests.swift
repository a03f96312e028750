import Foundation
import XCTest

/// `rasterbench ab` against small shell scripts standing in for a base
/// build: a child that writes no report, one that never ends, and ab
/// itself interrupted while a child runs.
final class ABCLITests: CLITestCase {
    func script(_ name: String, _ body: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
        return path
    }

    /// A base that exits 0 without a report: the error says so, with its
    /// exit status and the end of its output, not "round1-A.csv: cannot read".
    func testAChildThatWritesNoReportIsNamed() throws {
        let quiet = try script("quiet.sh", "echo starting\necho 'nothing to do' >&2\nexit 0")
        let r = try run(["ab", quiet, "--rounds", "1", "--out", "abdir"])
        XCTAssertTrue((1...127).contains(r.status), "\(r.status)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errors.count, 1, r.stderr)
        let line = String(errors.first ?? "")
        XCTAssertTrue(line.contains("base executable (A)") && line.contains("wrote no report (exit status 0)")
                      && line.contains("starting | nothing to do"), line)
        XCTAssertFalse(line.contains("cannot read"), line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("abdir/base.csv").path))
        let silent = try run(["ab", "/bin/true", "--rounds", "1"])
        XCTAssertEqual(silent.status, 1)
        XCTAssertTrue(silent.stderr.contains("/bin/true: wrote no report (exit status 0); it printed nothing"), silent.stderr)
    }

    /// A base that never ends is stopped after --child-timeout, with the
    /// whole group it started (the script's `sleep` child too).
    func testAHangingChildIsStoppedAtTheTimeout() throws {
        let pidFile = dir.appendingPathComponent("grandchild.pid").path
        let hang = try script("hang.sh", "sleep 1000 &\necho $! > '\(pidFile)'\nwait")
        let r = try run(["ab", hang, "--rounds", "1", "--child-timeout", "1"])
        XCTAssertTrue((1...127).contains(r.status), "\(r.status)")
        XCTAssertTrue(r.stderr.contains("did not finish within --child-timeout 1 s"), r.stderr)
        let pid = try XCTUnwrap(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(gone(pid), "the script's sleep was killed with its group")
        let bad = try run(["ab", hang, "--child-timeout", "0"])
        XCTAssertTrue(bad.stderr.contains("--child-timeout"), bad.stderr)
    }

    /// SIGINT (Ctrl-C), SIGTERM or SIGHUP to ab while a child runs: the
    /// child is stopped and reaped, ab's temporary folder removed, and ab
    /// ends by that signal.
    func testEachStopSignalReachesTheChildAndRemovesTheTemporaryFolder() throws {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // ab leaves a signal it inherits as ignored alone (nohup), and a
            // shell runs background jobs with SIGINT ignored: give ab the
            // default, as a terminal's foreground job has.
            var old = sigaction(), dfl = sigaction()
            dfl.__sigaction_handler.sa_handler = SIG_DFL
            sigaction(signal, nil, &old)
            let ignored = unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            if ignored { sigaction(signal, &dfl, nil) }
            defer { if ignored { sigaction(signal, &old, nil) } }
            try assertStopSignalReachesTheChild(signal)
        }
    }

    private func assertStopSignalReachesTheChild(_ signal: Int32) throws {
        let pidFile = dir.appendingPathComponent("child-\(signal).pid").path
        let hang = try script("hang-\(signal).sh", "echo $$ > '\(pidFile)'\nexec sleep 1000")
        let tmp = dir.appendingPathComponent("tmp-\(signal)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: false)
        let p = Process()
        p.executableURL = executable
        p.arguments = ["ab", hang, "--rounds", "1"]
        p.currentDirectoryURL = dir
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var pid: Int32? = nil
        for _ in 0..<1000 where pid == nil {
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if pid == nil { usleep(20_000) }
        }
        let child = try XCTUnwrap(pid, "signal \(signal): the child never started")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).count, 1,
                       "signal \(signal): ab's temporary folder")
        kill(p.processIdentifier, signal)
        for _ in 0..<1500 where p.isRunning { usleep(20_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            kill(child, SIGKILL)
            p.waitUntilExit()
            return XCTFail("signal \(signal): ab still ran 30 s later")
        }
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "signal \(signal)")
        XCTAssertEqual(p.terminationStatus, signal)
        XCTAssertTrue(gone(child), "signal \(signal): the child was stopped and reaped, not orphaned")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [], "signal \(signal)")
    }

    /// True once `pid` no longer runs (waiting a little for init to reap an orphan).
    func gone(_ pid: Int32) -> Bool {
        for _ in 0..<100 {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            // A zombie not yet reaped by whoever adopted it is gone too.
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.contains(") Z ") { return true }
            usleep(20_000)
        }
        return false
    }
}
