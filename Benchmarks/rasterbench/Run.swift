import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench run` (and bare `rasterbench`): the whole suite on a device
/// profile, a table at the end and a CSV report written atomically.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark every kernel, variant and backend on a device profile; print a table and write a CSV report.",
        discussion: """
            Times are medians of repeated samples after a warm-up; p95 decides whether a \
            workload fits the frame budget (1000/fps ms x share). Memory-bound kernels are \
            held against this host's copy bandwidth, measured in the same run. The times \
            are this host's: run the suite on the target device for its numbers.
            """)

    @OptionGroup var budgetOptions: BudgetOptions
    @OptionGroup var selection: SuiteSelection
    @OptionGroup var measure: MeasureOptions

    @Option(name: .long, parsing: .unconditional, help: "Rounds: the selection measured K times, each round in a new seeded random order; rows report the median of round medians.",
            transform: OptionValue.rounds)
    var rounds: Int = 1

    @Option(name: .long, parsing: .unconditional, help: "Seed of the rounds' order (default: from the clock; printed, to replay a run's order).",
            transform: OptionValue.seed)
    var seed: UInt64?

    @Option(name: .long, parsing: .unconditional, help: "Busy threads competing for the cores while the rows are measured (pinned to the last cores; recorded in the report's contend column), as an app's own threads do on a phone (default 0).",
            transform: OptionValue.whole("--contend", 0...Contention.maximum))
    var contend: Int = 0

    @Flag(name: .long, help: "Skip the DRAM copy probe (buffers of twice the last-level cache); the frame copy is still measured.")
    var noDram = false

    @Option(name: .long, parsing: .unconditional, help: "CSV report path (default: runs/<host id>-<date>.csv; the host id is the CPU model and a short hash of the machine).")
    var out: String?

    @Option(name: .long, parsing: .unconditional, help: "Also write a JSON report with every raw sample and the host metadata.")
    var json: String?

    @OptionGroup(title: "Adaptive run (only with --adaptive)") var adaptiveOptions: AdaptiveOptions

    func run() throws {
        let (profile, budget) = try budgetOptions.resolve()
        let host = HostInfo.current()
        let threadCounts = try parseThreads(measure.threads, default: Budget.defaultThreads(profile: profile, hostCores: host.cores))
        if adaptiveOptions.adaptive {
            return try AdaptiveRun.run(adaptiveOptions, profile: profile, budget: budget, threads: threadCounts[0])
        }
        let s = try setUp(profile: profile, budget: budget, host: host, threadCounts: threadCounts)
        printHeader(s)
        let runner = SuiteRunner(config: s.config)
        let start = MonotonicClock.now()
        let progress = ProgressLine()
        // The physical limit first, so it is measured in this run whatever the workloads.
        let copyThreads = Array(Set(s.workloads.map(\.threads) + threadCounts)).sorted()
        for t in copyThreads {
            progress.show("measuring copy bandwidth, \(t) thread(s)", elapsed: MonotonicClock.seconds(since: start))
            _ = try runner.bandwidth.frame(bytes: 4 * s.width * s.height, threads: t)
            if !noDram { _ = try runner.bandwidth.dram(lastLevelCache: host.lastLevelCacheBytes, threads: t) }
        }
        // After the copy probe: the bandwidth is the host's limit, not a contended one.
        let contention = try Contention(threads: contend)
        if contend > 0 {
            progress.finish()
            print("contention: \(contend) busy thread(s), \(contention.pinned) pinned to the last core(s), while the rows are measured")
        }
        let availableBefore = CoreAvailability.now()
        let rows = runner.run(s.workloads, rounds: rounds, seed: s.seed) { p in
            let eta = p.remainingSeconds().map { ", about \(ProgressLine.clock($0)) left" } ?? ""
            progress.show("[\(p.index)/\(p.total)\(eta)] \(p.label)", elapsed: MonotonicClock.seconds(since: start))
        }
        let available = CoreAvailability.now().report(since: availableBefore)
        contention.stop()
        progress.finish()
        let elapsed = MonotonicClock.seconds(since: start)
        printResults(rows, bandwidth: runner.bandwidth, setup: s)
        if !available.isEmpty { print("\n" + available.joined(separator: "\n")) }

        try AtomicFile.write(ReportCSV.document(rows), toPath: s.outPath, createDirectory: true)
        print("\nwrote \(s.outPath) (\(rows.count) rows) in \(Human.number(elapsed)) s")
        if let json {
            let report = RunReport(date: s.config.date, host: host, profile: profile, budget: budget, sampler: s.config.sampler,
                                   bandwidth: runner.bandwidth.results, rows: rows)
            try AtomicFile.write(try report.encoded(), toPath: json, createDirectory: true)
            print("wrote \(json) (every raw sample)")
        }
        Console.warnIfBusy(host)
        if !host.optimized { Console.warn(BuildInfo.debugWarning) }
    }

    /// Everything a run needs, checked (outputs too) before anything is measured.
    private struct Setup {
        var config: RunConfiguration
        var threadCounts: [Int]
        var workloads: [Workload]
        var leftOut: [Workload]
        var width: Int, height: Int
        var outPath: String
        var seed: UInt64
    }

    private func setUp(profile: DeviceProfile, budget: Budget, host: HostInfo, threadCounts: [Int]) throws -> Setup {
        let kinds = try selection.backendKinds()
        let entries = try selection.entries()
        let sweeps = try measure.sweep.map(SweepKind.parse) ?? []
        let (width, height) = try measure.size.map(parseSize) ?? (profile.width, profile.height)
        let sampler = try measure.sampler()
        let outPath = out ?? Run.defaultReportPath(host: host)
        // A missing folder is created on write (runs/ on a fresh clone).
        try OutputPath.checkFileArgument(outPath, name: "--out", extensions: ["csv"], createDirectory: true)
        if let json {
            try OutputPath.checkFileArgument(json, name: "--json", extensions: ["json"], createDirectory: true)
            try OutputPath.requireDistinct([("--out", outPath), ("--json", json)])
        }

        var config = RunConfiguration(profile: profile, budget: budget, sampler: sampler, host: host)
        config.probeDRAM = !noDram
        guard (0...Contention.maximum).contains(contend) else {
            throw HarnessError.invalidArgument(name: "--contend", value: "\(contend)", accepted: "0...\(Contention.maximum)")
        }
        config.contend = contend
        var plan = SuitePlan(profile: profile, backends: kinds, threads: threadCounts, entries: entries,
                             sweeps: sweeps, width: width, height: height)
        if let sigmas = measure.sigmas { plan.sigmas = try parseSigmas(sigmas) }
        guard (1...1000).contains(rounds) else {
            throw HarnessError.invalidArgument(name: "--rounds", value: "\(rounds)", accepted: "1...1000")
        }
        let seed = self.seed ?? UInt64(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1e6))
        let selected = try WorkloadSelection.select(plan.workloads(), variants: measure.variants.map { try parseList($0, flag: "--variants") },
                                                    filter: measure.filter)
        // --quick leaves out the naive rows that take seconds a frame (unless nothing else is selected).
        let (workloads, leftOut) = measure.quick ? WorkloadSelection.quickSplit(selected) : (selected, [])
        return Setup(config: config, threadCounts: threadCounts, workloads: workloads, leftOut: leftOut,
                     width: width, height: height, outPath: outPath, seed: seed)
    }

    private func printHeader(_ s: Setup) {
        let host = s.config.host, profile = s.config.profile, budget = s.config.budget, sampler = s.config.sampler
        if !host.optimized { Console.warn(BuildInfo.debugWarning) }
        print("rasterbench \(RasterBench.version) (suite \(SuiteVersion.current)), commit \(host.gitCommit), \(host.build) build")
        print("host: \(host.cpuModel), \(host.cores) cores, \(host.os), Swift \(host.swiftVersion), OpenMP \(host.openMP ? "yes" : "NO (openmp backend single-threaded)")")
        print("profile: \(profile) -- frame \(s.width)x\(s.height), budget \(Human.number(budget.milliseconds)) ms (\(Human.percent(budget.share)) of \(Human.number(budget.frameMs)) ms at \(Human.number(budget.fps)) fps)")
        print("threads: \(s.threadCounts.map(String.init).joined(separator: ",")); sampling: \(sampler.minSamples)+ samples, \(sampler.minTime)+ s each (max \(sampler.maxTime) s), warm-up \(sampler.warmupTime) s")
        if let over = s.threadCounts.first(where: { $0 > host.cores }) {
            Console.warn("note: \(over) threads on \(host.cores) cores oversubscribes this host; the extra threads time-slice")
        }
        if rounds > 1 { print("rounds: \(rounds), each in a random order, seed \(s.seed) (--seed \(s.seed) replays the order)") }
        Console.warnIfBusy(host)
        if !s.leftOut.isEmpty { print(Run.leftOutNote(s.leftOut)) }
        print("times are this host's; a profile on another host is a resolution and a thread count, not a speed promise")
        print("")
    }

    private func printResults(_ rows: [ReportRow], bandwidth: BandwidthTable, setup s: Setup) {
        print("Copy bandwidth (memcpy, read + written bytes per second):")
        for b in bandwidth.results {
            print("  \(b.label == "frame" ? "one frame" : "DRAM     ") \(Human.number(Double(b.bytes) / 1_048_576, 4)) MiB, \(b.threads) thread(s): \(Human.number(b.gigabytesPerSecond)) GB/s")
        }
        if let peak = bandwidth.peak {
            print("Compute peak (\(ComputePeak.lanes)-lane float multiply-adds, one core): \(Human.number(peak.gigaflopsPerSecond)) GFLOP/s")
        }
        print("")
        print(RunTable.render(rows.filter { $0.sweep == nil }))
        let wrongFloors = RunTable.floorsAboveTime(rows)
        if !wrongFloors.isEmpty {
            print("\nWork model wrong (a limit above the fastest sample):")
            wrongFloors.forEach { print($0) }
        }
        if !s.leftOut.isEmpty { print(Run.leftOutNote(s.leftOut)) }
        let problems = RunTable.problems(rows)
        if !problems.isEmpty {
            print("\nNot measured (\(rows.filter { !$0.isOK }.count) rows):")
            problems.forEach { print($0) }
        }
        for summary in [SweepAnalysis.threads(rows), SweepAnalysis.sizes(rows), SweepAnalysis.sigmas(rows)].compactMap({ $0 }) {
            print("\n" + summary)
        }
        let summary = RunSummary.scenes(rows, budgetMs: s.config.budget.milliseconds, leftOut: s.leftOut)
        if !summary.isEmpty { print("\n" + summary.joined(separator: "\n")) }
    }

    static func leftOutNote(_ leftOut: [Workload]) -> String {
        "left out by --quick (a frame takes seconds on naive; run without --quick to time them): "
            + leftOut.map(\.label).joined(separator: ", ")
    }

    /// New reports go to `runs/` (untracked: .gitignore), never into the
    /// committed Results/, named by the host's id and the time.
    static let defaultFolder = "runs"

    static func defaultReportPath(host: HostInfo) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd-HHmmss"
        return "\(defaultFolder)/\(host.hostID)-\(f.string(from: Date())).csv"
    }
}
