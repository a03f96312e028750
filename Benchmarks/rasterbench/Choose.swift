import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench choose`: per scene and kernel, the option (variant, render
/// scale, backend, threads) of highest quality whose p95 fits the frame
/// budget less a headroom, from a report or from a fresh measurement
/// (docs/contract.md §11).
struct Choose: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pick, per scene and kernel, the best-quality option whose p95 fits the frame budget.",
        discussion: """
            The budget is 1000/fps ms x share; an option fits when its p95 is within the budget \
            less the headroom (default 10%). Quality is PSNR against the double-precision \
            reference; an option within one 8-bit level of the reference everywhere counts as the \
            reference's quality (two backends' rounding is no quality difference); an option \
            without a measured PSNR ranks below every measured one. Ties go to the faster p95, \
            then fewer threads. Without --from the options are measured first \
            (the selected scenes and kernels, every backend, at the profile's threads capped by \
            this host's). Times are the measuring host's, not a promise for the profile's device.
            """)

    @OptionGroup var budgetOptions: BudgetOptions

    @Option(name: .long, parsing: .unconditional, help: "Headroom kept free below the budget: 0.1 or 10%.")
    var headroom: String = "10%"

    @Option(name: .customLong("min-psnr"), parsing: .unconditional,
            help: "Drop options below this PSNR (dB); options without a measured PSNR are dropped too.",
            transform: OptionValue.decimal("--min-psnr", "a PSNR in dB >= 0, e.g. 35") { $0 >= 0 })
    var minPSNR: Double?

    @Option(name: .long, parsing: .unconditional, help: "Only options at or below N threads (and measure at most N).",
            transform: OptionValue.threads)
    var threads: Int?

    @Option(name: .long, parsing: .upToNextOption, help: "Reports (CSV or JSON) to choose from instead of measuring; several are merged, the later row winning.")
    var from: [String] = []

    @OptionGroup var selection: SuiteSelection

    @Flag(name: .long, help: "Fewer, shorter samples when measuring.")
    var quick = false

    @Option(name: .long, help: "Also write the measured rows as a .csv report (without --from).")
    var out: String?

    @Option(name: .long, help: "Write wisdom (host, build, profile, fronts, choices) to this .json file.")
    var save: String?

    @Flag(name: .long, help: "Print the choices and fronts as JSON instead of a table.")
    var json = false

    func run() throws {
        let (profile, budget) = try budgetOptions.resolve()
        let headroom = try parseFraction(self.headroom, flag: "--headroom", range: 0...0.99, accepted: "0 <= headroom < 100%, e.g. 10% or 0.1")
        try validate()
        let entries = try selection.entries()
        guard !entries.isEmpty else {
            throw HarnessError.invalidArgument(name: "--scenes/--kernels", value: "none", accepted: "at least one scene or kernel")
        }
        let kinds = try selection.backendKinds()
        if let save { try OutputPath.checkFileArgument(save, name: "--save", extensions: ["json"], createDirectory: true) }
        if let out { try OutputPath.checkFileArgument(out, name: "--out", extensions: ["csv"], createDirectory: true) }
        try OutputPath.requireDistinct([("--save", save), ("--out", out)].compactMap { name, path in path.map { (name, $0) } },
                                       inputs: from.map { ("--from", $0) })
        var notes: [String] = []
        let (rows, measuredThreads) = try gather(profile: profile, budget: budget, entries: entries, kinds: kinds, notes: &notes)
        if rows.contains(where: { !$0.optimized }) {
            notes.append("some rows come from a DEBUG build: their times are not meaningful")
        }
        let answer = Answer.make(rows: rows, budgetMs: budget.milliseconds, headroom: headroom, minPSNR: minPSNR, threads: threads)
        let missing = ChooseRules.missingTargets(selected: entries.map(\.name), fronts: answer.fronts, rows: rows,
                                                 explicit: selection.scenes != nil || selection.kernels != nil || from.isEmpty)
        if let save {
            let (host, build) = try ChooseRules.wisdomSource(rows)
            let wisdom = Wisdom(date: RunConfiguration.isoDate(Date()), host: host, build: build, profile: profile,
                                measuredThreads: measuredThreads, budget: budget, headroom: headroom, minPSNR: minPSNR,
                                threads: threads, fronts: answer.fronts, choices: answer.choices)
            try wisdom.save(to: URL(fileURLWithPath: save))
            notes.append("wrote wisdom to \(save)")
        }
        let limit = budget.milliseconds * (1 - headroom)
        if json {
            let doc = ChooseOutput(profile: profile, fps: budget.fps, share: budget.share, headroom: headroom,
                                   budgetMs: budget.milliseconds, limitMs: limit, minPSNR: minPSNR, threads: threads,
                                   measuredThreads: measuredThreads, sources: from, notes: notes, missing: missing,
                                   choices: answer.choices, fronts: answer.fronts)
            print(String(decoding: try doc.encoded(), as: UTF8.self))
            return
        }
        print("choose: profile \(profile), budget \(Human.number(budget.milliseconds)) ms (\(Human.percent(budget.share)) of \(Human.number(budget.frameMs)) ms at \(Human.number(budget.fps)) fps), less \(Human.percent(headroom)) headroom: limit \(Human.number(limit)) ms")
        printAnswer(answer.choices, rows: rows, profile: profile, missing: missing, notes: notes)
    }

    /// The values the option parser cannot check alone.
    func validate() throws {
        if let minPSNR, !minPSNR.isFinite || minPSNR < 0 {
            throw HarnessError.invalidArgument(name: "--min-psnr", value: "\(minPSNR)", accepted: "a PSNR in dB >= 0, e.g. 35")
        }
        if let threads, !(1...BackendKind.maxThreads).contains(threads) {
            throw HarnessError.invalidArgument(name: "--threads", value: "\(threads)", accepted: "1...\(BackendKind.maxThreads)")
        }
        if !from.isEmpty && out != nil {
            throw HarnessError.invalidArgument(name: "--out", value: "with --from", accepted: "--out only when choose measures (no --from)")
        }
        if !from.isEmpty && quick {
            throw HarnessError.invalidArgument(name: "--quick", value: "with --from", accepted: "--quick only when choose measures (no --from)")
        }
    }

    /// The rows to choose from (measured, or read `--from` the reports) and
    /// the most threads they ran at; notes on the profile's cores.
    func gather(profile: DeviceProfile, budget: Budget, entries: [SuiteEntry], kinds: [BackendKind],
                notes: inout [String]) throws -> ([ReportRow], Int?) {
        guard !from.isEmpty else {
            let host = HostInfo.current()
            let t = min(threads ?? profile.cores, Budget.defaultThreads(profile: profile, hostCores: host.cores))
            if profile.cores > host.cores {
                notes.append("profile \(profile.name) has \(profile.cores) cores, this host \(host.cores): measured at \(host.cores) thread(s)")
            }
            let rows = try measure(profile: profile, budget: budget, entries: entries, backends: kinds, threads: t, host: host)
            if let out {
                try AtomicFile.write(ReportCSV.document(rows), toPath: out, createDirectory: true)
                notes.append("wrote the measured rows to \(out)")
            }
            return (rows, t)
        }
        let rows = try ChooseRules.rows(try from.flatMap { try ReportFile.load($0) }, profile: profile.name,
                                        targets: Set(entries.map(\.name)), backends: Set(kinds))
        let hostCores = rows.map(\.hostCores).max() ?? 0
        if hostCores > 0 && profile.cores > hostCores {
            notes.append("profile \(profile.name) has \(profile.cores) cores, the measuring host \(hostCores): measured at \(hostCores) thread(s) at most")
        }
        return (rows, ChooseRules.measuredThreads(rows))
    }

    /// The table and what goes with it.
    func printAnswer(_ choices: [Choice], rows: [ReportRow], profile: DeviceProfile, missing: [String], notes: [String]) {
        var filters: [String] = []
        if let minPSNR { filters.append("PSNR >= \(Human.number(minPSNR)) dB") }
        if let threads { filters.append("threads <= \(threads)") }
        if !filters.isEmpty { print("only options with " + filters.joined(separator: " and ")) }
        if !from.isEmpty { print("from: \(TerminalText.safe(from.joined(separator: ", "))) (\(rows.count) rows for \(profile.name))") }
        print("times are the measuring host's; a profile on another host is a resolution and a thread count, not a speed promise")
        print("")
        print(Choose.table(choices))
        if ChoiceText.hasStar(choices) {
            print(ChoiceText.starNote)
        }
        let misses = Choose.misses(choices)
        if !misses.isEmpty {
            print("\nNothing fits:")
            misses.forEach { print("  " + $0) }
        }
        if !missing.isEmpty {
            print("\nNo usable rows:")
            for m in missing { print("  \(TerminalText.safe(m)): not measured, or every row failed") }
        }
        if !notes.isEmpty { print("") }
        for n in notes { print("note: \(TerminalText.safe(n))") }
    }

    /// The rows choose needs: the selection at one thread count, every
    /// variant and backend, no sweeps; the progress line while it works.
    func measure(profile: DeviceProfile, budget: Budget, entries: [SuiteEntry], backends kinds: [BackendKind], threads: Int,
                 host: HostInfo) throws -> [ReportRow] {
        let sampler = quick ? SamplerSettings.quick : SamplerSettings.standard
        var config = RunConfiguration(profile: profile, budget: budget, sampler: sampler, host: host)
        config.probeDRAM = false
        let plan = SuitePlan(profile: profile, backends: kinds, threads: [threads], entries: entries)
        let workloads = try plan.workloads()
        if !host.optimized { Console.warn(BuildInfo.debugWarning) }
        Console.warnIfBusy(host)
        let runner = SuiteRunner(config: config)
        let start = MonotonicClock.now()
        let progress = ProgressLine()
        let rows = runner.run(workloads) { p in
            progress.show("[\(p.index)/\(p.total)] \(p.label)", elapsed: MonotonicClock.seconds(since: start))
        }
        progress.finish()
        return rows
    }

    /// target, chosen option, p95, PSNR, margin, runner-up.
    static func table(_ choices: [Choice]) -> String {
        var t = TextTable(ChoiceText.header)
        for c in choices { t.add(ChoiceText.cells(c)) }
        return t.render()
    }

    /// One line per target where nothing fits (report text, made terminal-safe).
    static func misses(_ choices: [Choice]) -> [String] {
        choices.filter { $0.chosen == nil }.map { c in TerminalText.safe(ChoiceText.missLine(c)) }
    }
}

/// `choose --json`.
struct ChooseOutput: Codable {
    var profile: DeviceProfile
    var fps, share, headroom, budgetMs, limitMs: Double
    var minPSNR: Double?
    var threads: Int?
    var measuredThreads: Int?
    var sources: [String]
    var notes: [String]
    /// Selected targets with no usable row.
    var missing: [String]
    var choices: [Choice]
    var fronts: [QualityFront]

    func encoded() throws -> Data { try JSONOutput.encode(self) }
}
