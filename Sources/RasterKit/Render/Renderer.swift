/// Runs jobs on one backend. It owns the scratch memory and the layer
/// canvases, so rendering a stream of same-sized frames allocates nothing
/// after the first.
public final class Renderer {
    public let backend: any RasterBackend
    public var variants: VariantSelection
    public let scratch = Scratch()
    /// One transparent canvas per layer depth (index 0 is for ops that must
    /// be composited rather than written, such as translucent gradients).
    private var layers: [Image] = []
    /// The `blob` op's path, rebuilt in place each frame.
    private var blobPath = Path()

    public init(backend: any RasterBackend, variants: VariantSelection = .exact) {
        self.backend = backend
        self.variants = variants
    }

    /// A new canvas with the job rendered into it.
    public func render(_ job: Job) throws -> Image {
        let canvas = try Image(width: job.width, height: job.height)
        try render(job, into: canvas)
        return canvas
    }

    /// Renders into an existing canvas of the job's size (reused across frames).
    public func render(_ job: Job, into canvas: Image) throws {
        guard canvas.width == job.width, canvas.height == job.height else {
            throw RasterError.invalidArgument(
                name: "canvas", value: "\(canvas.width)x\(canvas.height)", accepted: "the job's \(job.width)x\(job.height)")
        }
        canvas.fill(job.background.rgba8)
        try run(job.ops, on: canvas.view, depth: 0)
    }

    /// The ops alone, onto whatever `canvas` holds: what `bench` times, so
    /// that clearing and file loading stay outside the measurement.
    public func runOps(_ job: Job, on canvas: Image) throws {
        try run(job.ops, on: canvas.view, depth: 0)
    }

    private func run(_ ops: [JobOp], on target: ImageView, depth: Int) throws {
        for op in ops {
            switch op {
            case let .freeform(g):
                try paint(opaque: g.points.allSatisfy { $0.color.isOpaque }, on: target, depth: depth) {
                    try backend.freeform(g, variant: variants.freeform, into: $0, scratch: scratch)
                }
            case let .gradient(g):
                try paint(opaque: g.isOpaque, on: target, depth: depth) { try backend.gradient(g, into: $0) }
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
                try run(ops, on: layer, depth: depth + 1)
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
        while layers.count <= depth { layers.append(try Image(width: target.width, height: target.height)) }
        if layers[depth].width != target.width || layers[depth].height != target.height {
            layers[depth] = try Image(width: target.width, height: target.height)
        }
        return layers[depth].view
    }
}
