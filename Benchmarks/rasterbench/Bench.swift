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

    @Argument(help: "The job file (JSON, SPEC section 9).")
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

    func run() throws {
        var sampler = quick ? SamplerSettings.quick : SamplerSettings.standard
        if let runs {
            guard (1...sampler.maxSamples).contains(runs) else {
                throw HarnessError.invalidArgument(name: "--runs", value: "\(runs)", accepted: "1...\(sampler.maxSamples)")
            }
            sampler.minSamples = runs
        }
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

        let clear = try Sampler.measure(sampler) { canvas.fill(background) }
        canvas.fill(background)
        // The ops alone, onto whatever the canvas holds (the cost of the
        // kernels does not depend on the pixels they paint over).
        // At a reduced scale "ops" is the whole prepared frame (drawing small, resampling).
        let ops = try Sampler.measure(sampler) {
            if direct { try renderer.runOps(prepared.job, on: canvas) } else { try renderer.render(prepared, into: canvas) }
        }
        let frame = try Sampler.measure(sampler) { try renderer.render(prepared, into: canvas) }
        var opTimes: [(String, Double)] = []
        if perOp {
            var collected: [String: [Double]] = [:]
            var order: [String] = []
            // Per frame, the time of each label summed (aurora has four fills).
            var frameSums: [String: Double] = [:]
            renderer.opTimer = { label, ns in
                if collected[label] == nil && frameSums[label] == nil { order.append(label) }
                frameSums[label, default: 0] += Double(ns) * 1e-6
            }
            for _ in 0..<max(3, ops.nanoseconds.count) {
                frameSums = [:]
                try renderer.render(prepared, into: canvas)
                for (label, ms) in frameSums { collected[label, default: []].append(ms) }
            }
            renderer.opTimer = nil
            opTimes = order.map { ($0, Summary(collected[$0]!).median) }
        }

        var quality: ImageDiff? = nil
        if !noQuality {
            try renderer.render(job, into: canvas)
            let limit = renderer.timeBudget
            quality = ImageDiff(canvas.view, reference: try Reference.render(job) { try limit?.check() })
        }

        // A job has no profile: the verdict applies to its own frame.
        let builder = RowBuilder(host: host, date: RunConfiguration.isoDate(Date()), profile: "", budget: budget,
                                 verdictWidth: job.width, verdictHeight: job.height)
        let key = MeasurementKey(kernel: "job", variant: url.deletingPathExtension().lastPathComponent,
                                 backend: renderer.backend.kind, threads: threads, width: job.width, height: job.height,
                                 renderScale: scale, parameters: renderer.variants.description)
        var row = builder.base(key, items: job.width * job.height,
                               note: "ops only; clear \(Human.time(ms: clear.summary.median * 1e-6)), load \(Human.time(ms: loadMs)) once")
        builder.fill(&row, samples: ops, bandwidth: nil)
        if let q = quality {
            row.psnrDb = q.psnr; row.maxErr = q.maxError; row.qualityOn = "whole job vs RasterReference"
        }

        if csv {
            print(ReportCSV.header)
            print(ReportCSV.line(row))
            return
        }
        let s = ops.summary.scaled(by: 1e-6)
        print("job \(job.width)x\(job.height), \(job.ops.count) op(s), backend \(renderer.backend.kind.rawValue), \(threads) thread(s), \(renderer.variants.description)")
        print("host: \(host.cpuModel), \(host.cores) cores, \(host.build) build, commit \(host.gitCommit)")
        print("set-up (not in the ops' time): decode + load images \(Human.time(ms: loadMs)) once; clear canvas median \(Human.time(ms: clear.summary.median * 1e-6))")
        var t = TextTable(["measured", "median", "p95", "p99", "min", "max", "MAD", "samples x batch"])
        func add(_ name: String, _ x: Samples) {
            let m = x.summary.scaled(by: 1e-6)
            t.add([name, Human.time(ms: m.median), Human.time(ms: m.p95), Human.time(ms: m.p99), Human.time(ms: m.min),
                   Human.time(ms: m.max), Human.time(ms: m.mad), "\(m.count) x \(x.batch)"])
        }
        add(direct ? "ops" : "ops at scale \(scale) + resample", ops)
        add("clear + ops", frame)
        print(t.render())
        if perOp {
            var p = TextTable(["op (all of a kind in a frame)", "median"])
            for (label, ms) in opTimes { p.add([label, Human.time(ms: ms)]) }
            print(p.render())
            print("a layer's line includes its ops and its composite; per-op timing adds two clock reads an op")
        }
        print("throughput: \(Human.number(Double(job.width * job.height) / (s.median / 1e3) / 1e6)) Mpix/s; budget \(Human.number(budget.milliseconds)) ms: p95 \(budget.fits(p95Ms: s.p95) ? "fits" : "is OVER")")
        if let q = quality {
            print("quality vs reference: max err \(Human.number(q.maxError)), PSNR \(q.psnr.isInfinite ? "inf" : Human.number(q.psnr)) dB")
        }
        if !host.optimized { Console.warn(BuildInfo.debugWarning) }
    }
}
