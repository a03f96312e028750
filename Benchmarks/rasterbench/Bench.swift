import ArgumentParser
import Foundation
import RasterHarness
import RasterKit
import RasterReference

/// `rasterbench bench JOB.json`: one job timed with the suite's statistics.
///
/// The ops are timed apart from the canvas set-up (decoding the file and
/// loading its images happen once, clearing the canvas is timed on its
/// own), so that one kernel in a job can be held against another library's
/// single call on the same pixels.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time one job file: its ops apart from the canvas set-up, with the statistics of `run`.")

    @Argument(help: "The job file (JSON, docs/contract.md §9).")
    var job: String

    @OptionGroup var backendOptions: BackendOptions

    @Option(name: .long, parsing: .unconditional, help: "Minimum samples (default 10, 5 with --quick).", transform: OptionValue.runs)
    var runs: Int?

    @Flag(name: .long, help: "Fewer, shorter samples.")
    var quick = false

    @Option(name: .long, parsing: .unconditional, help: "Refresh rate for the budget verdict.", transform: OptionValue.fps)
    var fps: Double = 60

    @Option(name: .long, parsing: .unconditional, help: "Share of the frame a background may take: 0.25 or 25%.")
    var share: String = "25%"

    @Flag(name: .long, help: "Print the result as a CSV header and row (the report's columns) instead of text.")
    var csv = false

    @Flag(name: .long, help: "Skip the comparison with the double-precision reference.")
    var noQuality = false

    @Option(name: .long, parsing: .unconditional, help: "Render scale: 1, 0.5 or 0.25 (drawn smaller, resampled to full size).",
            transform: OptionValue.scale)
    var scale: Double = 1

    @Flag(name: .long, help: "Also time each op on its own (median per op over the samples): where the frame's time goes.")
    var perOp = false

    /// What one bench run measured, for its row and its text.
    struct Measured {
        var job: Job, url: URL, renderer: Renderer, threads: Int, host: HostInfo, budget: Budget
        var loadMs: Double, clear: Samples, ops: Samples, frame: Samples, direct: Bool
        var opTimes: [(label: String, ms: Double)], quality: ImageDiff?
        /// The ops' work floor and the ceilings it is held against (`limit_ms`).
        var work: WorkFloor, ceilings: BandwidthTable
        /// Steal and solo openmp regions over the timing (CoreAvailability).
        var availability: [String]
    }

    func run() throws {
        let m = try measure()
        let (job, renderer) = (m.job, m.renderer)
        // A job has no profile: the verdict applies to its own frame.
        let builder = RowBuilder(host: m.host, date: RunConfiguration.isoDate(Date()), profile: "", budget: m.budget,
                                 verdictWidth: job.width, verdictHeight: job.height)
        let key = MeasurementKey(kernel: "job", variant: m.url.deletingPathExtension().lastPathComponent,
                                 backend: renderer.backend.kind, threads: m.threads, width: job.width, height: job.height,
                                 renderScale: scale, parameters: renderer.variants.description)
        var row = builder.base(key, items: job.width * job.height,
                               note: "ops only; clear \(Human.time(ms: m.clear.summary.median * 1e-6)), load \(Human.time(ms: m.loadMs)) once")
        builder.fill(&row, samples: m.ops, bandwidth: m.ceilings, work: m.work)
        if let q = m.quality {
            row.psnrDb = q.psnr; row.maxErr = q.maxError; row.qualityOn = "whole job vs RasterReference"
        }

        if csv {
            print(ReportCSV.header)
            print(ReportCSV.line(row))
            return
        }
        printText(m)
    }

    /// Loads the job, then times the clear, the ops and the frame (and per op).
    func measure() throws -> Measured {
        let sampler = try SamplerSettings.make(quick: quick, minSamples: runs)
        let budget = try Budget(fps: fps, share: Budget.parseShare(share))
        let host = HostInfo.current()

        // Set-up, once: decode the file and load its images.
        let loadStart = MonotonicClock.now()
        let url = try inputURL(job, name: "JOB")
        let job = try Job.load(contentsOf: url, memoryBudget: backendOptions.memoryBudget())
        let loadMs = MonotonicClock.seconds(since: loadStart) * 1e3
        guard Renderer.scales.contains(scale) else {
            throw RasterError.invalidArgument(name: "--scale", value: "\(scale)", accepted: "1, 0.5, 0.25")
        }
        let renderer = try backendOptions.makeRenderer(scale: scale, defaultSeconds: BackendOptions.benchSeconds)
        if !noQuality {
            // The quality check renders the job again beside its reference in
            // Doubles: both must fit the budget, before either is allocated.
            let (both, overflow) = JobMemory.estimate(job, scale: scale).addingReportingOverflow(Reference.memoryEstimate(job))
            try renderer.memoryBudget.check(overflow ? .max : both,
                                            what: "this \(job.width)x\(job.height) job with its double-precision reference (--no-quality skips it)")
        }
        // The render scale and the layer variant turn the job into the one
        // actually drawn; that happens once, outside the timing.
        let prepared = try renderer.prepare(job)
        let direct = prepared.job.width == job.width && prepared.job.height == job.height
        if !host.optimized { Console.warn(BuildInfo.debugWarning) }
        let threads = Suite.effectiveThreads(renderer.backend.kind, requested: renderer.backend.threads)
        let canvas = try Image(width: job.width, height: job.height)
        let background = job.background.rgba8

        let availableBefore = CoreAvailability.now()
        let clear = try Sampler.measure(sampler) { canvas.fill(background) }
        canvas.fill(background)
        // The ops alone, onto whatever the canvas holds (the cost of the
        // kernels does not depend on the pixels they paint over).
        // At a reduced scale "ops" is the whole prepared frame (drawing small, resampling).
        let ops = try Sampler.measure(sampler) {
            if direct { try renderer.runOps(prepared.job, on: canvas) } else { try renderer.render(prepared, into: canvas) }
        }
        let frame = try Sampler.measure(sampler) { try renderer.render(prepared, into: canvas) }
        let opTimes = perOp ? try OpTimes.measure(renderer, prepared, into: canvas, frames: max(3, ops.nanoseconds.count)) : []
        let availability = CoreAvailability.now().report(since: availableBefore)

        var quality: ImageDiff? = nil
        if !noQuality {
            try renderer.render(job, into: canvas)
            let limit = renderer.timeBudget
            quality = ImageDiff(canvas.view, reference: try Reference.render(job) { try limit?.check() })
        }

        return Measured(job: job, url: url, renderer: renderer, threads: threads, host: host, budget: budget, loadMs: loadMs,
                        clear: clear, ops: ops, frame: frame, direct: direct, opTimes: opTimes, quality: quality,
                        work: KernelWork.frame(prepared, variants: renderer.variants, clearing: !direct),
                        ceilings: BandwidthTable(settings: sampler), availability: availability)
    }

    /// The text output: the timings, per op when asked, throughput, budget and quality.
    func printText(_ m: Measured) {
        let (job, renderer, host, budget, ops, threads) = (m.job, m.renderer, m.host, m.budget, m.ops, m.threads)
        let s = ops.summary.scaled(by: 1e-6)
        print("job \(job.width)x\(job.height), \(job.ops.count) op(s), backend \(renderer.backend.kind.rawValue), \(threads) thread(s), \(renderer.variants.description)")
        print("host: \(host.cpuModel), \(host.cores) cores, \(host.build) build, commit \(host.gitCommit)")
        print("set-up (not in the ops' time): decode + load images \(Human.time(ms: m.loadMs)) once; clear canvas median \(Human.time(ms: m.clear.summary.median * 1e-6))")
        var t = TextTable(["measured", "median", "p95", "p99", "min", "max", "MAD", "samples x batch"])
        func add(_ name: String, _ x: Samples) {
            let m = x.summary.scaled(by: 1e-6)
            t.add([name, Human.time(ms: m.median), Human.time(ms: m.p95), Human.time(ms: m.p99), Human.time(ms: m.min),
                   Human.time(ms: m.max), Human.time(ms: m.mad), "\(m.count) x \(x.batch)"])
        }
        add(m.direct ? "ops" : "ops at scale \(scale) + resample", ops)
        add("clear + ops", m.frame)
        print(t.render())
        if perOp {
            var p = TextTable(["op (all of a kind in a frame)", "median"])
            for (label, ms) in m.opTimes { p.add([label, Human.time(ms: ms)]) }
            print(p.render())
            print("a layer's line includes its ops and its composite; per-op timing adds two clock reads an op")
        }
        print("throughput: \(Human.number(Double(job.width * job.height) / (s.median / 1e3) / 1e6)) Mpix/s; budget \(Human.number(budget.milliseconds)) ms: p95 \(budget.fits(p95Ms: s.p95) ? "fits" : "is OVER")")
        if let q = m.quality {
            print("quality vs reference: max err \(Human.number(q.maxError)), PSNR \(q.psnr.isInfinite ? "inf" : Human.number(q.psnr)) dB")
        }
        m.availability.forEach { print($0) }
        if !host.optimized { Console.warn(BuildInfo.debugWarning) }
    }
}
