import Foundation
/// Runs jobs on one backend. It owns the scratch memory and the layer
/// canvases, so rendering a stream of same-sized frames allocates nothing
/// after the first.
///
/// Two options change *how* a frame is drawn, never what it depicts (docs/contract.md
/// §5.6, "Scene variants"): `variants` (one per kernel, plus the layer
/// variant) and `scale`, the render scale of dynamic resolution: the whole
/// frame is drawn at scale x its size and resampled bilinearly to full size.
/// Both are applied by `prepare`, which turns a job into the `PreparedJob`
/// actually drawn; `render(_:into:)` of a prepared job allocates nothing in
/// steady state, so a timed loop prepares its frames first.
public final class Renderer {
    public let backend: any RasterBackend
    public var variants: VariantSelection
    /// The render scale, in (0, 1] (docs/contract.md §5.6: 1, 1/2 or 1/4).
    public private(set) var scale: Double
    public let scratch = Scratch()
    /// One transparent canvas per layer depth (index 0 is for ops that must
    /// be composited rather than written, such as translucent gradients).
    private var layers: [Image] = []
    /// One reduced-size canvas per depth, for `scaledLayer` ops.
    private var reducedLayers: [Image] = []
    /// The frame at the render scale, resampled into the caller's canvas.
    private var reducedFrame: Image?
    /// The `blob` op's path, rebuilt in place each frame.
    private var blobPath = Path()
    /// Called after each op (and each layer's composite, and the final
    /// resample) with a label such as "layer/blur" and the op's duration in
    /// nanoseconds: where a frame's time goes (`bench --per-op`). nil, the
    /// default, costs one branch per op.
    public var opTimer: ((String, UInt64) -> Void)?

    public static let scales: [Double] = [1, 0.5, 0.25]
    /// The most memory one job may need (see `MemoryBudget`); checked before
    /// the canvas and layers are allocated.
    public var memoryBudget = MemoryBudget.default
    /// How long this renderer may keep drawing (nil: no limit); checked
    /// before each op (`TimeBudget`).
    public var timeBudget: TimeBudget?

    public init(backend: any RasterBackend, variants: VariantSelection = .exact) {
        self.backend = backend
        self.variants = variants
        self.scale = 1
    }

    /// A renderer at a render scale in (0, 1].
    public convenience init(backend: any RasterBackend, variants: VariantSelection = .exact, scale: Double) throws {
        guard scale.isFinite, scale >= Renderer.minScale, scale <= 1 else {
            throw RasterError.invalidArgument(name: "scale", value: "\(scale)", accepted: "\(Renderer.minScale)...1 (e.g. 1, 0.5, 0.25)")
        }
        self.init(backend: backend, variants: variants)
        self.scale = scale
    }

    public static let minScale = 1.0 / 16

    /// A job as this renderer draws it: at the render scale, with the layer
    /// variant applied. Allocates (it builds new ops); call it outside timed loops.
    public func prepare(_ job: Job) throws -> PreparedJob {
        try checkMemory(job)
        var drawn = job
        if variants.layer == .quarter { drawn = try Renderer.reduceBlurredLayers(drawn) }
        if scale != 1 {
            let (w, h) = Renderer.reducedSize(width: job.width, height: job.height, scale: scale)
            drawn = try drawn.scaled(toWidth: w, height: h)
        }
        return PreparedJob(job: drawn, width: job.width, height: job.height)
    }

    /// The size a `width` x `height` frame is drawn at, at render scale `scale`.
    public static func reducedSize(width: Int, height: Int, scale: Double) -> (width: Int, height: Int) {
        (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// Throws unless drawing `job` at this renderer's scale fits the memory
    /// budget; call it before allocating the job's canvas.
    public func checkMemory(_ job: Job) throws {
        try memoryBudget.check(JobMemory.estimate(job, scale: scale),
                               what: "this \(job.width)x\(job.height) job" + (scale == 1 ? "" : " at scale \(scale)"))
    }

    /// A new canvas with the job rendered into it.
    public func render(_ job: Job) throws -> Image {
        try checkMemory(job)
        let canvas = try Image(width: job.width, height: job.height)
        try render(job, into: canvas)
        return canvas
    }

    /// Renders into an existing canvas of the job's size (reused across frames).
    public func render(_ job: Job, into canvas: Image) throws {
        if scale == 1 && variants.layer == .full {
            try render(PreparedJob(job: job, width: job.width, height: job.height), into: canvas)
        } else {
            try render(prepare(job), into: canvas)
        }
    }

    /// Draws a prepared job into a canvas of its full size.
    public func render(_ prepared: PreparedJob, into canvas: Image) throws {
        guard canvas.width == prepared.width, canvas.height == prepared.height else {
            throw RasterError.invalidArgument(
                name: "canvas", value: "\(canvas.width)x\(canvas.height)",
                accepted: "the job's \(prepared.width)x\(prepared.height)")
        }
        let job = prepared.job
        // Walks the op tree (no allocation): cheap beside any frame. A
        // reduced frame also holds the full-size canvas it is resampled to.
        let reduced = job.width != canvas.width || job.height != canvas.height
        let full = reduced ? JobMemory.estimate(width: canvas.width, height: canvas.height, layerDepth: -1, images: 0, usesScratch: false) : 0
        let (total, overflow) = JobMemory.estimate(job).addingReportingOverflow(full)
        try memoryBudget.check(overflow ? .max : total,
                               what: "this \(prepared.width)x\(prepared.height) job" + (reduced ? " drawn at \(job.width)x\(job.height)" : ""))
        guard job.width != canvas.width || job.height != canvas.height else {
            canvas.fill(job.background.rgba8)
            try run(job.ops, on: canvas.view, depth: 0)
            return
        }
        if reducedFrame?.width != job.width || reducedFrame?.height != job.height {
            reducedFrame = try Image(width: job.width, height: job.height)
        }
        let small = reducedFrame!
        small.fill(job.background.rgba8)
        try run(job.ops, on: small.view, depth: 0)
        let start = opTimer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        try backend.resample(small.view, into: canvas.view, scratch: scratch)
        if let opTimer { opTimer("resample to full size", DispatchTime.now().uptimeNanoseconds - start) }
    }

    /// The ops alone, onto whatever `canvas` holds: what `bench` times, so
    /// that clearing and file loading stay outside the measurement.
    public func runOps(_ job: Job, on canvas: Image) throws {
        try run(job.ops, on: canvas.view, depth: 0)
    }

    private func run(_ ops: [JobOp], on target: ImageView, depth: Int, path: String = "") throws {
        for op in ops {
            if let timeBudget {
                let floor = OpFloor.seconds(op, width: target.width, height: target.height,
                                            blur: variants.blur, threads: backend.threads)
                try timeBudget.check(floor: floor, of: "the \(path + op.name) op")
            }
            let start = opTimer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            defer {
                if let opTimer {
                    opTimer(path + op.name, DispatchTime.now().uptimeNanoseconds - start)
                }
            }
            switch op {
            case let .freeform(g):
                try paint(opaque: g.points.allSatisfy { $0.color.isOpaque }, on: target, depth: depth) {
                    try backend.freeform(g, variant: variants.freeform, into: $0, scratch: scratch)
                }
            case let .gradient(g):
                try paint(opaque: g.isOpaque, on: target, depth: depth) { try backend.gradient(g, variant: variants.variant(for: g), into: $0) }
            case let .fill(f):
                try backend.fill(f, variant: variants.fill, onto: target, scratch: scratch)
            case let .blob(anchors, color):
                try ControlPoints.blobPath(anchors: anchors, backend: backend, scratch: scratch, into: &blobPath)
                try backend.fill(PathFill(path: blobPath, rule: .nonzero, color: color), variant: variants.fill,
                                 onto: target, scratch: scratch)
            case let .mesh(m):
                try backend.mesh(m, variant: variants.mesh, onto: target, scratch: scratch)
            case let .image(image):
                try backend.composite(image.view, onto: target, opacity: 1)
            case let .blur(blur):
                try backend.blur(blur, variant: variants.blur, image: target, scratch: scratch)
            case let .layer(opacity, ops):
                let layer = try self.layer(depth: depth, like: target)
                layer.fill(.transparent)
                try run(ops, on: layer, depth: depth + 1, path: path + "layer/")
                try backend.composite(layer, onto: target, opacity: opacity)
            case let .scaledLayer(width, height, opacity, ops):
                let small = try reducedLayer(depth: depth, width: width, height: height)
                small.fill(.transparent)
                try run(ops, on: small, depth: depth + 1, path: path + "layer/")
                let layer = try self.layer(depth: depth, like: target)
                try backend.resample(small, into: layer, scratch: scratch)
                try backend.composite(layer, onto: target, opacity: opacity)
            }
        }
    }

    /// Generators overwrite their target. When every colour is opaque,
    /// source-over equals overwrite, so they draw straight onto the canvas;
    /// otherwise they draw into a layer that is then composited.
    private func paint(opaque: Bool, on target: ImageView, depth: Int, _ draw: (ImageView) throws -> Void) throws {
        if opaque { try draw(target); return }
        let layer = try self.layer(depth: depth, like: target)
        try draw(layer)
        try backend.composite(layer, onto: target, opacity: 1)
    }

    private func layer(depth: Int, like target: ImageView) throws -> ImageView {
        try Renderer.canvas(in: &layers, depth: depth, width: target.width, height: target.height)
    }

    private func reducedLayer(depth: Int, width: Int, height: Int) throws -> ImageView {
        try Renderer.canvas(in: &reducedLayers, depth: depth, width: width, height: height)
    }

    private static func canvas(in pool: inout [Image], depth: Int, width: Int, height: Int) throws -> ImageView {
        while pool.count <= depth { pool.append(try Image(width: width, height: height)) }
        if pool[depth].width != width || pool[depth].height != height {
            pool[depth] = try Image(width: width, height: height)
        }
        return pool[depth].view
    }

    /// `layer=quarter`: every layer whose last op is a blur of sigma >=
    /// `LayerVariant.minSigma` becomes a `scaledLayer` at 1/4 size.
    static func reduceBlurredLayers(_ job: Job) throws -> Job {
        func reduce(_ ops: [JobOp], width: Int, height: Int) throws -> [JobOp] {
            try ops.map { op in
                guard case let .layer(opacity, inner) = op else { return op }
                guard case let .blur(b)? = inner.last, b.sigma >= LayerVariant.minSigma else {
                    return .layer(opacity: opacity, ops: try reduce(inner, width: width, height: height))
                }
                let k = LayerVariant.reduction
                let w = (width + k - 1) / k, h = (height + k - 1) / k
                let layerJob = try Job(width: width, height: height, ops: inner).scaled(toWidth: w, height: h)
                return .scaledLayer(width: w, height: h, opacity: opacity, ops: layerJob.ops)
            }
        }
        return try Job(width: job.width, height: job.height, background: job.background,
                       ops: reduce(job.ops, width: job.width, height: job.height))
    }
}

extension JobOp {
    /// The op's job-file name ("layer" for both kinds of layer, whose time
    /// includes their ops').
    public var name: String {
        switch self {
        case .freeform: return "freeform"
        case let .gradient(g):
            if case .radial = g.shape { return "radial" }
            return "linear"
        case .fill: return "fill"
        case .blob: return "blob"
        case .mesh: return "mesh"
        case .image: return "image"
        case .blur: return "blur"
        case .layer: return "layer (all)"
        case .scaledLayer: return "layer at reduced size (all)"
        }
    }
}

/// A job ready to draw: `job` at the size it is drawn (the render scale's),
/// `width` x `height` the canvas it ends up in.
public struct PreparedJob: Sendable {
    public let job: Job
    public let width: Int
    public let height: Int
}
