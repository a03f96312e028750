import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench ab BASE_EXE`: this build (B, "new") against another build
/// of rasterbench (A, "base", e.g. one built from main in a git worktree),
/// on the same workloads, each round a fresh process of each, in ABBA order
/// (A B, then B A, ...), so a drift of the host lands on both sides alike.
/// Round r of A and round r of B ran next to each other, so the bootstrap
/// resamples them in pairs. Each process is a plain `run` with the
/// selection options given here and its CSV is read back: a base built
/// before `ab` (or rounds) existed works, as long as it has `run --out`.
struct AB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "A/B this build against another rasterbench executable: fresh processes in ABBA order, verdicts paired by round.",
        discussion: """
            Example, from this checkout, against the commit your change starts from (--detach: a branch \
            checked out here cannot be checked out twice): \
            git worktree add --detach ../rb-base HEAD && (cd ../rb-base && swift build -c release) && \
            swift build -c release && \
            .build/release/rasterbench ab ../rb-base/.build/release/rasterbench --rounds 6 --kernels blur --threads 2 \
            (remove it afterwards with git worktree remove ../rb-base). \
            Each build records the commit it was built from, and ab prints both. \
            Each round runs the base and this build once each (A B in odd rounds, B A in even ones), \
            as `run` with the selection options below, and the rows are compared as `compare` does, \
            with rounds paired. The verdicts: faster/slower when the whole 95% interval lies beyond \
            the threshold, ~ when wholly within it, ? otherwise (run more rounds).
            """)

    @Argument(help: "The base rasterbench executable (A).")
    var baseExecutable: String

    @Option(name: .long, parsing: .unconditional, help: "The executable to test (B; default: this one).")
    var newExecutable: String?

    @Option(name: .long, parsing: .unconditional, help: "Rounds: each is one process of each build (at least 3 for a verdict).",
            transform: OptionValue.rounds)
    var rounds: Int = 6

    @Option(name: .long, parsing: .unconditional, help: "Noise threshold: changes within it count as ~.")
    var threshold: String = "2%"

    @Option(name: .long, parsing: .unconditional, help: "Exit non-zero if any row is slower with its whole interval beyond this, e.g. 5%.")
    var failAbove: String?

    @Option(name: .long, parsing: .unconditional, help: "Directory for base.csv and new.csv (every sample with its round) and each process's CSV and output.")
    var out: String?

    @Option(name: .long, parsing: .unconditional, help: "Seconds one process may run before it is stopped and ab fails (1...604800; default 3600).",
            transform: OptionValue.whole("--child-timeout", 1...604_800))
    var childTimeout: Int = 3600

    // `run`'s selection options, handed to each child as given.
    @OptionGroup var budgetOptions: BudgetOptions
    @OptionGroup var selection: SuiteSelection
    @OptionGroup var measure: MeasureOptions

    /// The arguments of every child `run`, before its `--out`.
    var runArguments: [String] {
        ["run", "--no-dram"] + budgetOptions.arguments + selection.arguments + measure.arguments
    }

    func run() throws {
        guard (1...1000).contains(rounds) else {
            throw HarnessError.invalidArgument(name: "--rounds", value: "\(rounds)", accepted: "1...1000")
        }
        guard (1...604_800).contains(childTimeout) else {
            throw HarnessError.invalidArgument(name: "--child-timeout", value: "\(childTimeout)", accepted: "1...604800 seconds")
        }
        // `run`'s options are refused here rather than by every child.
        _ = try budgetOptions.resolve()
        _ = try selection.entries()
        _ = try selection.backendKinds()
        try measure.check()
        let rule = VerdictRule(threshold: try parseChangePercent(threshold, flag: "--threshold") / 100)
        let failThreshold = try failAbove.map { try parseChangePercent($0, flag: "--fail-above") }
        let base = try AB.executable(baseExecutable, name: "BASE_EXE")
        let new = try newExecutable.map { try AB.executable($0, name: "--new-executable") } ?? AB.selfExecutable()
        // Every output is checked before the first child runs.
        let dir = try AB.outputDirectory(out, base: base, new: new)
        let removeTemporary = { if out == nil { try? FileManager.default.removeItem(at: dir) } }
        defer { removeTemporary() }

        print("ab: base (A) \(base)")
        print("    new  (B) \(new)")
        print("    \(rounds) rounds, ABBA order, each a fresh `\(runArguments.joined(separator: " "))`")
        let start = MonotonicClock.now()
        let (baseRounds, newRounds) = try runRounds(base: base, new: new, in: dir, start: start, cleanup: removeTemporary)
        let ids = Array(1...rounds)
        var mergedBase = RoundMerge.merge(baseRounds, ids: ids)
        var mergedNew = RoundMerge.merge(newRounds, ids: ids)
        SuiteRunner.fillSpeedups(&mergedBase)
        SuiteRunner.fillSpeedups(&mergedNew)
        if out != nil {
            try AtomicFile.write(ReportCSV.document(mergedBase), toPath: dir.appendingPathComponent("base.csv").path)
            try AtomicFile.write(ReportCSV.document(mergedNew), toPath: dir.appendingPathComponent("new.csv").path)
        }
        var c = RasterHarness.Compare.reports(base: mergedBase, new: mergedNew, baseName: "A \(base)\(AB.commit(of: mergedBase))",
                                              newName: "B \(new)\(AB.commit(of: mergedNew))",
                                              rule: rule, paired: true)
        c.sideBySide = true
        print("")
        print(RasterHarness.Compare.render(c))
        print("\n\(rounds) rounds x 2 processes in \(Human.number(MonotonicClock.seconds(since: start))) s"
              + (out.map { "; wrote \($0)/base.csv and \($0)/new.csv" } ?? ""))
        if let failThreshold, Compare.reportRegressions(c, above: failThreshold) > 0 {
            throw ExitCode(ExitStatus.checkFailed)
        }
    }

    /// The folder every child writes into: `--out` (checked, so a bad
    /// path fails before the first child runs) or a new temporary one.
    static func outputDirectory(_ out: String?, base: String, new: String) throws -> URL {
        guard let out else {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rasterbench-ab-\(UUID().uuidString)")
            try OutputPath.createDirectories(dir.path)
            return dir
        }
        guard !out.isEmpty else {
            throw HarnessError.invalidArgument(name: "--out", value: "an empty path", accepted: "a directory")
        }
        let dir = URL(fileURLWithPath: out)
        try OutputPath.prepareDirectory(dir)
        let outputs = ["base.csv", "new.csv"].map { ("--out", dir.appendingPathComponent($0).path) }
        for (name, path) in outputs { try OutputPath.checkFileArgument(path, name: name, extensions: ["csv"], createDirectory: false) }
        try OutputPath.requireDistinct(outputs, inputs: [("BASE_EXE", base), ("--new-executable", new)])
        return dir
    }

    /// Every round's child processes in ABBA order; the rows each wrote, per side.
    private func runRounds(base: String, new: String, in dir: URL, start: UInt64,
                           cleanup removeTemporary: () -> Void) throws -> (base: [[ReportRow]], new: [[ReportRow]]) {
        var baseRounds: [[ReportRow]] = [], newRounds: [[ReportRow]] = []
        try ChildProcess.watchingInterrupts(cleanup: removeTemporary) {
            for (round, side) in ABSchedule.order(rounds: rounds) {
                let name = "round\(round)-\(side == .base ? "A" : "B")"
                let csv = dir.appendingPathComponent(name + ".csv").path
                Console.writeError("\(ProgressLine.clock(MonotonicClock.seconds(since: start))) round \(round)/\(rounds): \(side == .base ? "A (base)" : "B (new)")\n")
                try AB.runChild(side == .base ? base : new, role: side == .base ? "the base executable (A)" : "the new executable (B)",
                                arguments: runArguments + ["--out", csv], report: csv,
                                log: dir.appendingPathComponent(name + ".log"), keepLog: out != nil,
                                timeout: Double(childTimeout), cleanup: removeTemporary)
                let rows = try ReportFile.load(csv)
                if side == .base { baseRounds.append(rows) } else { newRounds.append(rows) }
                ChildProcess.endIfInterrupted(cleanup: removeTemporary)
            }
        }
        return (baseRounds, newRounds)
    }

    /// ", commit X" as a build's rows record it (several when they differ).
    static func commit(of rows: [ReportRow]) -> String {
        var commits: [String] = []
        for c in rows.map(\.gitCommit) where !c.isEmpty && !commits.contains(c) { commits.append(c) }
        return commits.isEmpty ? ", commit not recorded" : ", commit " + commits.joined(separator: " and ")
    }

    static func executable(_ path: String, name: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        // A directory has its x bit too: only an executable regular file.
        var isDirectory: ObjCBool = false
        guard !path.isEmpty, !path.hasSuffix("/"), FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
              !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: url.path) else {
            throw HarnessError.invalidArgument(name: name, value: "'\(Console.escaped(path))'", accepted: "an executable rasterbench (e.g. ../base/.build/release/rasterbench)")
        }
        return url.standardizedFileURL.path
    }

    static func selfExecutable() throws -> String {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        if let p = Bundle.main.executablePath { return p }
        throw HarnessError.io(path: CommandLine.arguments[0], reason: "cannot find this executable; pass --new-executable")
    }

    /// Runs one child to completion, its output to `log` (written like
    /// every output, through a temporary file); a failure is one line naming
    /// the child, how it ended and the end of its output.
    static func runChild(_ exe: String, role: String, arguments: [String], report: String, log: URL, keepLog: Bool,
                         timeout: Double, cleanup: () -> Void) throws {
        let output = try AtomicFile.Pending(log)
        // A report left by an earlier ab in the same folder is not this child's.
        let before = OutputPath.identity(report)
        let outcome = try ChildProcess.run(exe, arguments: arguments, output: output.fd, timeout: timeout) {
            output.discard()
            cleanup()
        }
        try output.commit()
        var how: String
        switch outcome {
        case .exited(0):
            let after = OutputPath.identity(report)
            if case .file = after, after != before { return }
            how = "wrote no report (exit status 0)"
        case let .exited(status): how = "exited with status \(status)"
        case let .signalled(sig): how = "was killed by signal \(sig)"
        case .timedOut: how = "did not finish within --child-timeout \(Int(timeout)) s and was stopped"
        }
        var tail = Data() // the last 4 KiB of the output, however long it is
        try? InputFile.forEachChunk(log.path, chunkSize: 1 << 16) {
            tail.append(contentsOf: $0)
            if tail.count > 4096 { tail = Data(tail.suffix(4096)) }
        }
        let text = String(decoding: tail, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        // Its error line if it printed one (rasterbench's last words), else its last two lines.
        let shown = lines.last(where: { $0.contains("error") }).map { [$0] } ?? Array(lines.suffix(2))
        how += lines.isEmpty ? "; it printed nothing" : "; its output ended: " + Console.escaped(shown.joined(separator: " | "), limit: 240)
        if keepLog { how += " (log: \(Console.escaped(log.path)))" }
        throw HarnessError.io(path: "\(role) \(Console.escaped(exe, limit: 160))", reason: how)
    }
}
