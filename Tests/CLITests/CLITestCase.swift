import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What every command-line test needs: a scratch directory, the built
/// `rasterbench` next to the test bundle, and a way to run it.
class CLITestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rasterbench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    var executable: URL {
        var url = Bundle(for: CLITestCase.self).bundleURL
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("rasterbench").path) {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("rasterbench")
    }

    struct Outcome { var status: Int32; var stdout: String; var stderr: String }

    func run(_ args: [String]) throws -> Outcome {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = dir
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Outcome(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                       stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs `rasterbench` like `run`, and returns that one child's peak
    /// resident memory (KiB) from `wait4`. `getrusage(RUSAGE_CHILDREN)`
    /// would be the peak of every child this test process ever reaped, so
    /// an earlier test's big render would count against this one.
    /// Linux starts a spawned child's peak at this process's own
    /// (`inheritedKiB`, its VmHWM): under ASan that is ~1 GiB before the
    /// child does anything, and the child's own peak shows only above it.
    func runMeasuringPeak(_ args: [String]) throws -> (outcome: Outcome, peakKiB: Int, inheritedKiB: Int) {
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rasterbench-peak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("out").path, errPath = scratch.appendingPathComponent("err").path
        let command = "cd \"$0\" && exec \"$@\""
        // Through /bin/sh only to change directory; `exec` makes the shell's
        // pid the child's, so wait4 measures rasterbench itself.
        let argv = ["/bin/sh", "-c", command, dir.path, executable.path] + args
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, &cArgs, environ)
        guard spawned == 0 else { throw NSError(domain: "posix_spawn", code: Int(spawned)) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        let read = { (path: String) in String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self) }
        let own = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let hwm = own.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") } ?? 0
        return (Outcome(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), stdout: read(outPath), stderr: read(errPath)),
                Int(usage.ru_maxrss), hwm)
    }
}
