/// Which variant of each kernel a render uses. The command line's
/// `--variant` takes either a bare name, applied to every kernel that has a
/// variant of that name (`down4` sets both K1's and K3's), or
/// `kernel=variant` pairs separated by commas (`freeform=lut,blur=iir`).
/// K2 has two kernel names, `linear` and `radial`, one per gradient shape.
public struct VariantSelection: Sendable, Hashable {
    public var freeform: FreeformVariant = .full
    public var linear: GradientVariant = .exact
    public var radial: GradientVariant = .exact
    public var blur: BlurVariant = .exact
    public var fill: FillVariant = .exact
    public var mesh: MeshVariant = .exact
    public var layer: LayerVariant = .full

    public init() {}

    /// The exact variants everywhere (what the reference is compared with).
    public static let exact = VariantSelection()

    public init(parsing text: String) throws {
        self.init()
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        // "" or "a,,b": a missing name, not "no variant" (say exact for that).
        guard !items.contains(where: \.isEmpty) else {
            throw RasterError.invalidArgument(name: "variant", value: "'\(RasterError.escaped(text))' (an empty name)",
                                              accepted: "kernel=variant or a variant name, comma-separated, e.g. down4 or exact")
        }
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            let kernel: String? = parts.count == 2 ? parts[0] : nil
            let name = parts.last ?? ""
            var matched = false
            if kernel == nil || kernel == FreeformVariant.kernelName, let v = FreeformVariant(rawValue: name) {
                freeform = v; matched = true
            }
            if kernel == nil || kernel == GradientVariant.linearName, let v = GradientVariant(rawValue: name) {
                linear = v; matched = true
            }
            if kernel == nil || kernel == GradientVariant.radialName, let v = GradientVariant(rawValue: name) {
                radial = v; matched = true
            }
            if kernel == nil || kernel == BlurVariant.kernelName, let v = BlurVariant(rawValue: name) {
                blur = v; matched = true
            }
            if kernel == nil || kernel == FillVariant.kernelName, let v = FillVariant(rawValue: name) {
                fill = v; matched = true
            }
            if kernel == nil || kernel == MeshVariant.kernelName, let v = MeshVariant(rawValue: name) {
                mesh = v; matched = true
            }
            if kernel == nil || kernel == LayerVariant.kernelName, let v = LayerVariant(rawValue: name) {
                layer = v; matched = true
            }
            // K5 and K6 have one variant, nothing to choose: `composite=exact` is accepted.
            if let kernel, KernelCatalog.all.contains(where: { $0.name == kernel && $0.variants == [name] }) {
                matched = true
            }
            guard matched else {
                throw RasterError.invalidArgument(
                    name: "variant", value: "'\(RasterError.escaped(item))'",
                    accepted: (KernelCatalog.all.map { "\($0.name)=\($0.variants.joined(separator: "|"))" }
                        + ["\(LayerVariant.kernelName)=\(LayerVariant.allCases.map(\.rawValue).joined(separator: "|"))"])
                        .joined(separator: "; "))
            }
        }
    }

    /// The variant of K2 that draws `gradient` (by its shape).
    public func variant(for gradient: Gradient) -> GradientVariant {
        if case .radial = gradient.shape { return radial }
        return linear
    }

    /// Every kernel's variant; the gradients only when not exact, as reports
    /// written before K2 had variants name none (their rows keep their key).
    public var description: String {
        var text = "\(FreeformVariant.kernelName)=\(freeform.rawValue),\(BlurVariant.kernelName)=\(blur.rawValue),\(FillVariant.kernelName)=\(fill.rawValue),\(MeshVariant.kernelName)=\(mesh.rawValue),\(LayerVariant.kernelName)=\(layer.rawValue)"
        if linear != .exact { text += ",\(GradientVariant.linearName)=\(linear.rawValue)" }
        if radial != .exact { text += ",\(GradientVariant.radialName)=\(radial.rawValue)" }
        return text
    }
}

import Foundation
