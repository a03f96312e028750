/// The kernels by name, with their variants, for `list`, `--variant` and the
/// benchmark suite. A kernel is listed once its issue has landed in every
/// backend.
public struct KernelInfo: Sendable {
    public let id: String
    public let name: String
    public let summary: String
    public let variants: [String]
    /// The variant held to the bound of docs/contract.md §3 against the reference.
    public let exactVariant: String
}

public enum KernelCatalog {
    public static let all: [KernelInfo] = [
        KernelInfo(id: "K1", name: FreeformVariant.kernelName,
                   summary: "freeform (four-colour) gradient",
                   variants: FreeformVariant.allCases.map(\.rawValue), exactVariant: FreeformVariant.full.rawValue),
        KernelInfo(id: "K2", name: GradientVariant.linearName, summary: "linear gradient, pad/repeat/reflect",
                   variants: GradientVariant.allCases.map(\.rawValue), exactVariant: GradientVariant.exact.rawValue),
        KernelInfo(id: "K2", name: GradientVariant.radialName, summary: "radial gradient, pad/repeat/reflect",
                   variants: GradientVariant.allCases.map(\.rawValue), exactVariant: GradientVariant.exact.rawValue),
        KernelInfo(id: "K3", name: BlurVariant.kernelName,
                   summary: "Gaussian blur, transparent or clamp edges",
                   variants: BlurVariant.allCases.map(\.rawValue), exactVariant: BlurVariant.exact.rawValue),
        KernelInfo(id: "K4", name: FillVariant.kernelName,
                   summary: "anti-aliased path fill (nonzero/even-odd), source-over; SVG path data",
                   variants: FillVariant.allCases.map(\.rawValue), exactVariant: FillVariant.exact.rawValue),
        KernelInfo(id: "K5", name: "controlpoints", summary: "Liquid tangent control points (job op: blob = K5 + K4)",
                   variants: ["exact"], exactVariant: "exact"),
        KernelInfo(id: "K6", name: "composite", summary: "source-over with global opacity",
                   variants: ["exact"], exactVariant: "exact"),
        KernelInfo(id: "K7", name: MeshVariant.kernelName,
                   summary: "mesh gradient (bicubic Catmull-Rom surface, fold rule), source-over",
                   variants: MeshVariant.allCases.map(\.rawValue), exactVariant: MeshVariant.exact.rawValue),
    ]
}
