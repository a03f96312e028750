import ArgumentParser
import Foundation
import GovernorLab
import RasterHarness
import RasterKit

/// `rasterbench governor`: the runtime governor against the Unreal-style
/// reference heuristic on the issue's frame-time traces, and the buffering
/// table; `--record` captures a real scene's per-frame times at every level.
struct GovernorBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "governor",
        abstract: "Compare the runtime governor with an Unreal-style dynamic-resolution heuristic on frame-time traces; simulate frame buffering.",
        discussion: """
            Synthetic traces run on a synthetic 6-level front with the iPhone 6 budget \
            (4.17 ms). --trace adds a trace recorded on this host by --record (every frame \
            drawn at every level of the scene's front, interleaved).
              rasterbench governor --trace Results/studies/governor/aurora-trace.csv
              rasterbench governor --record runs/aurora-trace.csv --scene aurora --frames 120
            """)

    @Option(name: .long, help: "Recorded trace CSV (frame,level,label,psnr_db,ms) to add to the table: at most 2000000 rows, times 0...1000000 ms.")
    var trace: [String] = []

    @Option(name: .long, help: "Record a trace of --scene to this .csv instead of comparing (a missing folder is created).")
    var record: String?

    @Option(name: .long, help: "Scene to record.")
    var scene: String = "aurora"

    @Option(name: .long, parsing: .unconditional, help: "Frames to record.", transform: OptionValue.whole("--frames", 10...10_000))
    var frames: Int = 120

    @Option(name: .long, help: "Device profile for the budget and the recorded frame size.")
    var profile: String = DeviceProfile.defaultName

    @Option(name: .long, parsing: .unconditional, help: "Share of the frame the background may take: 0.25 or 25%.")
    var share: String = "25%"

    @Option(name: .long, help: "Backend for --record.")
    var backend: String = "simd"

    @Option(name: .long, parsing: .unconditional, help: "Threads for --record (default: the profile's cores capped by this host's).",
            transform: OptionValue.threads)
    var threads: Int?

    @Option(name: .long, parsing: .unconditional, help: "Budget in ms for the recorded traces, 0.001...1000000 (default: the profile's, 1000/fps x share).",
            transform: OptionValue.recorded { try RecordedTrace.parseBudget($0, name: "--trace-budget-ms") })
    var traceBudgetMs: Double?

    func run() throws {
        let profile = try DeviceProfile.named(self.profile)
        let budget = try Budget(fps: profile.fps, share: Budget.parseShare(share))
        let host = HostInfo.current()
        if let record {
            try OutputPath.checkFileArgument(record, name: "--record", extensions: ["csv"], createDirectory: true)
            try OutputPath.requireDistinct([("--record", record)], inputs: trace.map { ("--trace", $0) })
            guard trace.isEmpty else {
                throw HarnessError.invalidArgument(name: "--trace", value: "with --record", accepted: "--trace only when comparing (no --record)")
            }
            guard (10...10_000).contains(frames) else {
                throw HarnessError.invalidArgument(name: "--frames", value: "\(frames)", accepted: "10...10000")
            }
            let t = threads ?? Budget.defaultThreads(profile: profile, hostCores: host.cores)
            guard (1...BackendKind.maxThreads).contains(t) else {
                throw HarnessError.invalidArgument(name: "--threads", value: "\(t)", accepted: "1...\(BackendKind.maxThreads)")
            }
            return try recordTrace(to: record, profile: profile, threads: t)
        }
        print("rasterbench governor: governor vs Unreal-style reference (history 16 x 0.9^k, 10% headroom, panic after 2 over, >= 8 frames between changes, increases blended 0.9)")
        print("governor: k=2 over-budget frames, dwell 30, m=8, headroom 10%, speed EWMA 0.1")
        let front = FrameTrace.syntheticFront
        let synthBudget = FrameTrace.syntheticBudgetMs
        print("synthetic front: " + front.map { "\($0.label) \(Human.number($0.predictedMs)) ms \(Human.number($0.quality)) dB" }.joined(separator: ", ")
              + "; budget \(Human.number(synthBudget)) ms")
        let traceBudget = traceBudgetMs ?? budget.milliseconds
        try RecordedTrace.checkBudget(traceBudget, name: traceBudgetMs == nil ? "budget (1000/fps x --share)" : "--trace-budget-ms")
        var rows = try GovernorReport.evaluate(traces: try FrameTrace.synthetic(front: front), front: front, budgetMs: synthBudget)
        for path in trace {
            let (recorded, recordedFront) = try RecordedTrace.load(path)
            print("recorded \(recorded.name): \(recorded.frames) frames; front (median ms): "
                  + recordedFront.map { "\($0.label) \(Human.number($0.predictedMs)) ms \(Human.number($0.quality)) dB" }.joined(separator: ", ")
                  + "; budget \(Human.number(traceBudget)) ms\(traceBudgetMs == nil ? "" : " (--trace-budget-ms)")")
            rows += try GovernorReport.evaluate(traces: [recorded], front: recordedFront, budgetMs: traceBudget)
        }
        print("")
        print("frames over budget, mean PSNR (dB) of the levels drawn, level switches:")
        print(GovernorReport.comparisonTable(rows))
        print("")
        print("buffering: missed refreshes with a ring of B frames (period = the budget); fixed = the start level throughout, gov = the governor's frame times")
        print(GovernorReport.bufferTable(rows, fps: profile.fps))
    }

    /// Every frame at every level of the scene's front, the level order
    /// rotating per frame so no level always runs first after a context switch.
    func recordTrace(to path: String, profile: DeviceProfile, threads: Int) throws {
        var levels = try SceneLevels(sceneName: scene, profile: profile, backend: BackendKind(parsing: backend), threads: threads)
        print("host load average: \(HostInfo.loadAverage().map { Human.number($0) } ?? "unknown")")
        print("recording \(scene) on \(profile), \(backend) t=\(threads): calibrating \(levels.variants.count) variants...")
        try levels.calibrate(frames: frames, samples: 3, qualityFrom: nil, profileName: profile.name)
        let front = levels.front
        var lines = ["frame,level,label,psnr_db,ms"]
        for frame in 0..<frames {
            var row = [String](repeating: "", count: front.count)
            for k in 0..<front.count {
                let level = (frame + k) % front.count
                let ms = try levels.draw(frame: frame, level: front[level].id)
                row[level] = CSV.record(["\(frame)", "\(level)", front[level].label,
                                         String(format: "%.3f", front[level].quality), String(format: "%.4f", ms)])
            }
            lines += row
        }
        try AtomicFile.write(lines.joined(separator: "\n") + "\n", toPath: path, createDirectory: true)
        print("wrote \(frames) frames x \(front.count) levels to \(path)")
    }
}
