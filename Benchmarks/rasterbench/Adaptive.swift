import ArgumentParser
import Foundation
import GovernorLab
import RasterHarness
import RasterKit
import RasterReference

/// `run --scene S --adaptive`: the runtime governor on real rendering
/// (docs/contract.md §11). Options live here so Run.swift only forwards to it.
struct AdaptiveOptions: ParsableArguments {
    @Flag(name: .long, help: "Render --frames frames of --scene with the runtime governor choosing among the scene's variants; compare with a fixed choice and with frame buffering.")
    var adaptive = false

    @Option(name: .long, help: "Scene for --adaptive.")
    var scene: String?

    @Option(name: .long, parsing: .unconditional, help: "Frames to render with --adaptive (default 120), once with a fixed choice and once with the governor.",
            transform: OptionValue.whole("--frames", 10...100_000))
    var frames: Int = 120

    @Option(name: .long, parsing: .unconditional, help: "Artificial load for --adaptive: each frame takes F times its render time (a busy wait on the render thread after the render; default 1).",
            transform: OptionValue.decimal("--stress", "1...100 (a multiplier on each frame's time)") { (1...100).contains($0) })
    var stress: Double = 1

    @Option(name: .long, parsing: .unconditional, help: "Frame buffer for --adaptive: ring of B frames rendered ahead (default 2; B = 0 and 10 are always shown too).",
            transform: OptionValue.whole("--buffer", 0...1000))
    var buffer: Int = 2

    @Option(name: .long, help: "Backend for --adaptive.")
    var backend: String = "simd"

    @Option(name: .long, help: "Take each variant's quality (psnr_db) from this report instead of measuring it against the exact variant.")
    var from: String?

    func validate() throws {
        if !adaptive, scene != nil || from != nil {
            throw ValidationError("--scene and --from need --adaptive (for the suite use --scenes)")
        }
    }
}

/// A scene's suite variants ready to render, with their calibrated time and
/// quality: the front the governor walks.
struct SceneLevels {
    let scene: any Scene
    let variants: [SceneVariant]
    let renderers: [Renderer]
    let image: Image
    /// Calibrated median ms and quality per variant (index as `variants`).
    var medianMs: [Double] = []
    var quality: [Double] = []

    let sceneName: String

    init(sceneName: String, profile: DeviceProfile, backend: BackendKind, threads: Int) throws {
        self.sceneName = sceneName
        let type = try SceneCatalog.named(sceneName)
        let canvas = try SceneCanvas(width: profile.width, height: profile.height, scale: profile.scale, fps: profile.fps)
        scene = try type.init(options: SceneOptions(), canvas: canvas)
        variants = type.suiteVariants
        renderers = try variants.map { try $0.makeRenderer(backend: try backend.make(threads: threads)) }
        image = try Image(width: profile.width, height: profile.height)
    }

    /// Draws `frame` at variant `level`; returns the wall time of the draw in
    /// ms (job preparation excluded, as in the suite's scene rows).
    func draw(frame: Int, level: Int) throws -> Double {
        let prepared = try renderers[level].prepare(scene.job(frame: frame))
        let start = MonotonicClock.now()
        try renderers[level].render(prepared, into: image)
        return Double(MonotonicClock.now() - start) / 1e6
    }

    /// Times `samples` frames of each variant (spread over `frames`) and
    /// measures each variant's quality on one frame.
    mutating func calibrate(frames: Int, samples: Int, qualityFrom report: [ReportRow]?, profileName: String) throws {
        let cycle = max(frames, 1)
        medianMs = try variants.indices.map { level in
            _ = try draw(frame: 0, level: level) // warm-up: scratch buffers, caches
            let times = try (0..<samples).map { try draw(frame: $0 * cycle / samples, level: level) }
            return times.sorted()[times.count / 2]
        }
        if let report {
            quality = try variants.map { v in
                let row = report.first { (r: ReportRow) -> Bool in
                    let k = r.key
                    return k.kernel == sceneName && k.variant == v.name && k.renderScale == v.scale && k.parameters.isEmpty
                        && (k.profile.isEmpty || k.profile == profileName) && r.psnrDb != nil
                }
                guard let psnr = row?.psnrDb else {
                    throw HarnessError.invalidArgument(name: "--from", value: "report", accepted: "a report with psnr_db for \(sceneName) \(v)")
                }
                return psnr
            }
        } else {
            // PSNR against the exact variant drawn by the same backend (which
            // `verify` holds to the reference within the bounds of docs/contract.md §3); the exact
            // variant itself is then perfect and gets a nominal 100 dB.
            let frame = try SceneCatalog.named(sceneName).info.cycle * 7 / 24
            let exactIndex = variants.firstIndex { $0.isExact } ?? 0
            let exact = try Image(width: image.width, height: image.height)
            try renderers[exactIndex].render(scene.job(frame: frame), into: exact)
            quality = try variants.indices.map { level in
                if level == exactIndex { return 100 }
                try renderers[level].render(scene.job(frame: frame), into: image)
                return min(ImageDiff(image.view, exact.view).psnr, 100)
            }
        }
    }

    /// The front: variants ordered by calibrated time, keeping only those
    /// better than every cheaper one. `id` indexes `variants`.
    var front: [GovernorLevel] {
        let order = variants.indices.sorted { medianMs[$0] < medianMs[$1] }
        var levels: [GovernorLevel] = []
        for i in order where levels.last.map({ quality[i] > $0.quality && medianMs[i] > $0.predictedMs }) ?? true {
            levels.append(GovernorLevel(id: i, label: variants[i].description, predictedMs: medianMs[i], quality: quality[i]))
        }
        return levels
    }
}

enum AdaptiveRun {
    static func run(_ o: AdaptiveOptions, profile: DeviceProfile, budget: Budget, threads: Int) throws {
        guard let sceneName = o.scene else {
            throw HarnessError.invalidArgument(name: "--scene", value: "(none)", accepted: "a scene with --adaptive: \(SceneCatalog.names.joined(separator: ", "))")
        }
        guard (10...100_000).contains(o.frames) else {
            throw HarnessError.invalidArgument(name: "--frames", value: "\(o.frames)", accepted: "10...100000")
        }
        guard o.stress.isFinite, (1...100).contains(o.stress) else {
            throw HarnessError.invalidArgument(name: "--stress", value: "\(o.stress)", accepted: "1...100 (a multiplier on each frame's time)")
        }
        guard (0...1000).contains(o.buffer) else {
            throw HarnessError.invalidArgument(name: "--buffer", value: "\(o.buffer)", accepted: "0...1000")
        }
        let report = try o.from.map { try ReportFile.load($0) }
        let kind = try BackendKind(parsing: o.backend)
        var levels = try SceneLevels(sceneName: sceneName, profile: profile, backend: kind, threads: threads)
        print("adaptive: \(sceneName) on \(profile), \(o.backend) t=\(threads), budget \(Human.number(budget.milliseconds)) ms, \(o.frames) frames, stress x\(Human.number(o.stress))")
        print("calibrating \(levels.variants.count) variants (3 frames each, median; quality \(o.from == nil ? "PSNR vs the exact variant on one frame" : "from \(o.from!)"))...")
        try levels.calibrate(frames: o.frames, samples: 3, qualityFrom: report, profileName: profile.name)
        let front = levels.front
        for level in front {
            print("  \(level.label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(Human.number(level.predictedMs)) ms  \(Human.number(level.quality)) dB")
        }
        var parameters = GovernorParameters(budgetMs: budget.milliseconds)
        parameters.headroom = 0.1
        var governor = try Governor(front: front, parameters: parameters)
        let fixedLevel = governor.levelIndex
        print("fixed choice (best calibrated level within the budget less 10%): \(front[fixedLevel].label)")

        // Without the governor: the fixed choice for every frame.
        let fixed = try (0..<o.frames).map { try stressed(levels.draw(frame: $0, level: front[fixedLevel].id), o.stress) }
        // With the governor.
        var governed: [Double] = []
        var qualitySum = 0.0
        for frame in 0..<o.frames {
            let level = governor.levelIndex
            let ms = try stressed(levels.draw(frame: frame, level: front[level].id), o.stress)
            governed.append(ms)
            qualitySum += front[level].quality
            try governor.record(frameMs: ms)
        }
        let over = { (t: [Double]) in t.filter { $0 > budget.milliseconds }.count }
        print("")
        print("frames over budget (\(Human.number(budget.milliseconds)) ms) of \(o.frames):")
        print("  without governor (\(front[fixedLevel].label)): \(over(fixed)), mean \(Human.number(front[fixedLevel].quality)) dB")
        print("  with governor: \(over(governed)), mean \(Human.number(qualitySum / Double(o.frames))) dB, \(governor.switches) switch\(governor.switches == 1 ? "" : "es"), ends at \(governor.level.label) (speed x\(Human.number(governor.speed)))")
        let buffers = Array(Set(GovernorReport.buffers + [o.buffer])).sorted()
        print("missed refreshes with a ring of B frames (the background's \(Human.number(budget.milliseconds)) ms per refresh; latency B frames = B x \(Human.number(budget.frameMs)) ms):")
        for b in buffers {
            let f = try BufferSimulator.simulate(frameMs: fixed, periodMs: budget.milliseconds, buffer: b).missed
            let g = try BufferSimulator.simulate(frameMs: governed, periodMs: budget.milliseconds, buffer: b).missed
            print("  B=\(b): without governor \(f), with governor \(g), latency +\(b) frames (\(Human.number(Double(b) * budget.frameMs)) ms)")
        }
    }

    /// The frame's time under the artificial load: the render took `ms`;
    /// busy-wait (stress - 1) x ms more on this thread, so the wall time is real.
    static func stressed(_ ms: Double, _ stress: Double) -> Double {
        guard stress > 1 else { return ms }
        let start = MonotonicClock.now()
        let extra = UInt64(ms * (stress - 1) * 1e6)
        while MonotonicClock.now() - start < extra {}
        return ms + Double(MonotonicClock.now() - start) / 1e6
    }
}
