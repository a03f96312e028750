/// Which variant of each kernel a render uses. The command line's
/// `--variant` takes either a bare name, applied to every kernel that has a
/// variant of that name (`down4` sets both K1's and K3's), or
/// `kernel=variant` pairs separated by commas (`freeform=lut,blur=iir`).
public struct VariantSelection: Sendable, Hashable {
    public var freeform: FreeformVariant = .full
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
            guard matched else {
                throw RasterError.invalidArgument(
                    name: "variant", value: "'\(RasterError.escaped(item))'",
                    accepted: (KernelCatalog.all.map { "\($0.name)=\($0.variants.joined(separator: "|"))" }
                        + ["\(LayerVariant.kernelName)=\(LayerVariant.allCases.map(\.rawValue).joined(separator: "|"))"])
                        .joined(separator: "; "))
            }
        }
    }

    public var description: String {
        "\(FreeformVariant.kernelName)=\(freeform.rawValue),\(BlurVariant.kernelName)=\(blur.rawValue),\(FillVariant.kernelName)=\(fill.rawValue),\(MeshVariant.kernelName)=\(mesh.rawValue),\(LayerVariant.kernelName)=\(layer.rawValue)"
    }
}

import Foundation
