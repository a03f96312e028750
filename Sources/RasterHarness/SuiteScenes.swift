import RasterKit
import RasterReference

extension Suite {
    /// The animated backgrounds (docs/contract.md §5), one entry per scene.
    public static var scenes: [SuiteEntry] { SceneCatalog.all.map(sceneEntry) }

    /// Frames a scene row cycles through: spread evenly over the scene's
    /// cycle or span, so its samples are per-frame times across the whole
    /// animation (each sample draws the next of them).
    public static let sceneFrames = 8

    /// A scene row's samples may stop at this many once the per-workload time
    /// limit is spent: the naive backend's exact aurora frame takes about
    /// half a minute, and three of them would cost more than the rest of its
    /// scene. Such rows say so in their note.
    public static let sceneFloorSamples = 2

    /// The frame each variant's quality is measured on, against the
    /// reference: about 7/24 into the cycle, which lands mid-transition in
    /// every scene (telegram phase 2, morph's second morph).
    public static func qualityFrame(_ scene: any Scene.Type) -> Int { scene.info.cycle * 7 / 24 }

    static func sceneEntry(_ scene: any Scene.Type) -> SuiteEntry {
        let info = scene.info
        return SuiteEntry(
            name: info.name, isScene: true,
            summary: "\(info.summary), \(info.repeats ? "cycle" : "span") \(info.cycle) frames",
            workloads: { r in sceneWorkloads(scene, r) })
    }

    static func sceneWorkloads(_ scene: any Scene.Type, _ r: SuiteRequest) -> [Workload] {
        let info = scene.info
        let variants = r.exactOnly ? [SceneVariant.exact] : scene.suiteVariants
        let frames = scene.spreadFrames(sceneFrames)
        let qualityFrame = qualityFrame(scene)
        return variants.map { v in
            var w = r.workload(kernel: info.name, variant: v.name) {
                let canvas = try SceneCanvas(width: r.width, height: r.height, scale: r.profile.scale, fps: r.profile.fps)
                let instance = try scene.init(options: SceneOptions(), canvas: canvas)
                let renderer = try v.makeRenderer(backend: try r.makeBackend())
                // Jobs are generated and prepared (render scale, layer
                // variant) outside the timed region: what is timed is drawing.
                let prepared = try frames.map { try renderer.prepare(instance.job(frame: $0)) }
                let image = try Image(width: r.width, height: r.height)
                let box = FrameCursor()
                let body = {
                    try renderer.render(prepared[box.next % prepared.count], into: image)
                    box.next &+= 1
                }
                // Each sample draws one of the frames: a floor under every
                // sample is the least of the frames' bytes and of their flops.
                let works = prepared.map { KernelWork.frame($0, variants: v.selection) }
                let work = WorkFloor(bytes: works.map(\.bytes).min() ?? 0, flops: works.map(\.flops).min() ?? 0)
                return WorkloadInstance(owning: [image, renderer, box], body: body, output: {
                    try renderer.render(renderer.prepare(instance.job(frame: qualityFrame)), into: image)
                    return image.view
                }, work: work)
            }
            w.renderScale = v.scale
            w.floorSamples = sceneFloorSamples
            // Its exact blurs at this scale (the quarter layer blurs its own small layer).
            if r.backend == .naive, v.selection.blur == .exact, v.selection.layer == .full,
               let canvas = try? SceneCanvas(width: r.width, height: r.height, scale: r.profile.scale, fps: r.profile.fps),
               let job = try? scene.init(options: SceneOptions(), canvas: canvas).job(frame: qualityFrame) {
                w.slowOnNaive = NaiveCost.blurTaps(job, scale: v.scale) >= NaiveCost.slowTaps
            }
            w.note = "\(frames.count) frames over \(info.repeats ? "the cycle" : "the span") of \(info.cycle)"
            if r.withQuality {
                w.reference = ReferenceSource(key: "scene \(info.name) \(r.width)x\(r.height) frame \(qualityFrame)") {
                    let canvas = try SceneCanvas(width: r.width, height: r.height, scale: r.profile.scale, fps: r.profile.fps)
                    return try Reference.render(try scene.init(options: SceneOptions(), canvas: canvas).job(frame: qualityFrame))
                }
            }
            return w
        }
    }
}

/// Which prepared frame a scene row draws next (a class, so the timed
/// closure updates it without capturing a mutable variable).
final class FrameCursor { var next = 0 }
