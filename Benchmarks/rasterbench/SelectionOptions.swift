import ArgumentParser
import RasterHarness
import RasterKit

// The options that say what to measure and against which budget, declared
// once for `run`, `ab` and `choose`. `ab` hands them to each child `run`
// through `arguments`: only those given, as given (typed values in their
// plain spelling), so a base built before a newer option existed is not
// handed it unasked, and a bad value is refused before any child runs.

/// The frame budget: a device profile, its refresh rate and the share of
/// the frame a background may take.
struct BudgetOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Device profile (see `rasterbench list`; default \(DeviceProfile.defaultName)).")
    var profile: String?

    @Option(name: .long, parsing: .unconditional, help: "Refresh rate for the budget (default: the profile's).", transform: OptionValue.fps)
    var fps: Double?

    @Option(name: .long, parsing: .unconditional, help: "Share of the frame a background may take: 0.25 or 25% (default 25%).")
    var share: String?

    /// The profile and the budget, defaults filled in.
    func resolve() throws -> (profile: DeviceProfile, budget: Budget) {
        let profile = try DeviceProfile.named(self.profile ?? DeviceProfile.defaultName)
        let share = try self.share.map { try Budget.parseShare($0) } ?? Budget.defaultShare
        return (profile, try Budget(fps: fps ?? profile.fps, share: share))
    }

    var arguments: [String] {
        given([("--profile", profile), ("--fps", fps.map { "\($0)" }), ("--share", share)])
    }
}

/// Which kernels, scenes and backends.
struct SuiteSelection: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Only these kernels, comma-separated (default: all).")
    var kernels: String?

    @Option(name: .long, parsing: .unconditional, help: "Only these scenes, comma-separated (default: all).")
    var scenes: String?

    @Option(name: .long, parsing: .unconditional, help: "Only these backends, comma-separated (default: all).")
    var backends: String?

    /// The suite entries named (naming only kernels selects no scene, and
    /// the other way round; neither selects everything).
    func entries() throws -> [SuiteEntry] {
        try Suite.select(kernels: kernels.map { try parseList($0, flag: "--kernels") },
                         scenes: scenes.map { try parseList($0, flag: "--scenes") })
    }

    func backendKinds() throws -> [BackendKind] {
        try backends.map { try parseList($0, flag: "--backends").map(BackendKind.init(parsing:)) } ?? BackendKind.allCases
    }

    var arguments: [String] {
        given([("--kernels", kernels), ("--scenes", scenes), ("--backends", backends)])
    }
}

/// How `run` measures the selection: threads, variants, sweeps, size, samples.
struct MeasureOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Thread count, or a list like 1,2,4 to run the suite at each (default: the profile's cores capped by this host's).")
    var threads: String?

    @Option(name: .long, parsing: .unconditional, help: "Only these variants, comma-separated (e.g. exact,down4; default: all).")
    var variants: String?

    @Option(name: .long, parsing: .unconditional, help: "Only workloads whose label contains this text (e.g. shape=blob, or 'simd t=2').")
    var filter: String?

    @Option(name: .long, parsing: .unconditional, help: "Extra sweeps: size, sigma or all, comma-separated.")
    var sweep: String?

    @Option(name: .long, parsing: .unconditional, help: "Blur sigmas (px) for --sweep sigma, comma-separated (default 1,2,4,...,256).")
    var sigmas: String?

    @Option(name: .long, parsing: .unconditional, help: "Frame size WxH instead of the profile's.")
    var size: String?

    @Flag(name: .long, help: "Fewer, shorter samples, and no naive row that takes seconds a frame: a rough picture in about a minute.")
    var quick = false

    @Option(name: .long, parsing: .unconditional, help: "Minimum samples per workload (default 10, 5 with --quick).", transform: OptionValue.runs)
    var runs: Int?

    /// The sampler: quick or standard, at least `--runs` samples.
    func sampler() throws -> SamplerSettings {
        try SamplerSettings.make(quick: quick, minSamples: runs)
    }

    /// Refuses what `run` would refuse without building its plan (`ab`
    /// checks before its first child).
    func check() throws {
        _ = try parseThreads(threads, default: 1)
        _ = try size.map(parseSize)
        _ = try sweep.map(SweepKind.parse)
        _ = try sigmas.map(parseSigmas)
        _ = try variants.map { try parseList($0, flag: "--variants") }
        _ = try sampler()
    }

    var arguments: [String] {
        given([("--threads", threads), ("--variants", variants), ("--filter", filter), ("--sweep", sweep),
               ("--sigmas", sigmas), ("--size", size), ("--runs", runs.map { "\($0)" })]) + (quick ? ["--quick"] : [])
    }
}

/// `flag value` for each option given.
private func given(_ options: [(String, String?)]) -> [String] {
    options.flatMap { flag, value in value.map { [flag, $0] } ?? [] }
}
