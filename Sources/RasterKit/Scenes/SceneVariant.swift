/// One way to draw a scene (docs/contract.md §5.6): a variant
/// per kernel (plus the layer variant) and a render scale. Its quality is the
/// PSNR and max error of its frame against the same frame drawn by the
/// reference (exact variants, scale 1, double precision).
public struct SceneVariant: Hashable, Sendable, CustomStringConvertible {
    /// The `--variant` text ("exact", "blur=down4", "layer=quarter,blur=iir").
    public let name: String
    public let selection: VariantSelection
    /// The render scale: 1, 1/2 or 1/4.
    public let scale: Double

    public init(_ name: String, scale: Double = 1) throws {
        self.name = name
        selection = try VariantSelection(parsing: name)
        guard Renderer.scales.contains(scale) else {
            throw RasterError.invalidArgument(name: "scale", value: "\(scale)",
                                              accepted: Renderer.scales.map { "\($0)" }.joined(separator: ", "))
        }
        self.scale = scale
    }

    /// The exact kernels at one of `Renderer.scales`: valid by construction,
    /// so it cannot fail.
    init(exactAt scale: Double) {
        name = "exact"; selection = .exact; self.scale = scale
    }

    public static let exact = SceneVariant(exactAt: 1)

    /// Exact kernels at full scale: held to the reference, not measured against it.
    public var isExact: Bool { selection == .exact && scale == 1 }

    /// "scale=0.5" for reduced render scales, "" at full scale.
    public var scaleLabel: String { scale == 1 ? "" : "scale=\(scale)" }

    public var description: String { scale == 1 ? name : "\(name) @\(scale)" }

    public func makeRenderer(backend: any RasterBackend) throws -> Renderer {
        try Renderer(backend: backend, variants: selection, scale: scale)
    }
}

extension SceneVariant {
    /// "blur=iir@0.25": a variant text with an optional render scale.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        var scale = 1.0
        if parts.count == 2 {
            guard let s = Double(parts[1]) else {
                throw RasterError.invalidArgument(name: "scale", value: "'\(RasterError.escaped(parts[1]))'",
                                                  accepted: Renderer.scales.map { "\($0)" }.joined(separator: ", "))
            }
            scale = s
        }
        try self.init(parts.first ?? "", scale: scale)
    }
}

extension Scene {
    /// The variants the suite times for this scene: its own list (each at
    /// the scale it names, full by default), then the exact kernels at every
    /// reduced render scale. Every text in `info.variants` parses (a test
    /// enumerates them), so none is dropped.
    public static var suiteVariants: [SceneVariant] {
        let own = info.variants.compactMap { try? SceneVariant(parsing: $0) }
        let scaled = Renderer.scales.dropFirst().map(SceneVariant.init(exactAt:))
        return own + scaled
    }
}
