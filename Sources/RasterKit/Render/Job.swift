import Foundation

/// One frame described as data (docs/contract.md §9): a canvas and the ops that
/// paint it, in order. Scenes generate jobs; job files decode into them; the
/// `Renderer` runs them on a backend. A job holds decoded, validated values
/// only (image files are already loaded), so rendering it does no I/O.
public struct Job: Sendable {
    public var width: Int
    public var height: Int
    /// The canvas's initial colour (default transparent).
    public var background: Color
    public var ops: [JobOp]
    /// The image files a decoded job's `image` ops were read from (so that
    /// a command can refuse to write its output over one of them).
    public internal(set) var imageFiles: [String] = []

    public init(width: Int, height: Int, background: Color = .transparent, ops: [JobOp]) throws {
        try Image.validate(width: width, height: height, name: "width x height")
        self.width = width
        self.height = height
        self.background = background
        self.ops = ops
    }
}

/// One step of a job.
public indirect enum JobOp: Sendable {
    /// K1, painted source-over across the canvas.
    case freeform(FreeformGradient)
    /// K2 (linear or radial), painted source-over across the canvas.
    case gradient(Gradient)
    /// K4: a path filled with a solid colour, composited source-over.
    case fill(PathFill)
    /// K5 then K4: the closed cubic through `anchors` (K5's tangent control
    /// points), filled (nonzero) with `color`.
    case blob(anchors: [Point], color: Color)
    /// K7, painted source-over where the mesh covers the canvas.
    case mesh(MeshGradient)
    /// A canvas-sized premultiplied image composited source-over (K6).
    case image(Image)
    /// K3: blurs the canvas (or layer) the op is in, in place.
    case blur(GaussianBlur)
    /// Ops rendered into a transparent layer, then composited with an opacity (K6).
    case layer(opacity: Double, ops: [JobOp])
    /// A reduced-resolution layer: `ops`, in the coordinates of a
    /// `width` x `height` layer, are rendered into a transparent layer of that
    /// size, which is resampled bilinearly to the canvas (the backends'
    /// `resample`) and composited with `opacity`. What the `layer=quarter`
    /// variant makes of a layer that ends in a wide blur; a job file writes
    /// it as a `layer` with `"size": [width, height]`.
    case scaledLayer(width: Int, height: Int, opacity: Double, ops: [JobOp])
}
