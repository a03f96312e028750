import RasterKit
import RasterReference

extension Suite {
    /// K2 linear: the four Telegram colours corner to corner, pad.
    public static let linear = gradientEntry(
        name: GradientVariant.linearName, summary: "K2 linear gradient, 4 stops corner to corner, pad", Fixtures.linear)

    /// K2 radial: three stops from the centre, reflected.
    public static let radial = gradientEntry(
        name: GradientVariant.radialName, summary: "K2 radial gradient, 3 stops from the centre, reflect", Fixtures.radial)

    /// K2's variants per shape: exact, and lut (the ramp read from a table).
    /// Compute-light and write-only (4 bytes per pixel): on a fast backend
    /// it approaches a fill, so the bytes written are held against the copy
    /// bandwidth.
    static func gradientEntry(name: String, summary: String,
                              _ fixture: @escaping (Int, Int) throws -> Gradient) -> SuiteEntry {
        SuiteEntry(name: name, summary: summary, workloads: { r in
            let g = try fixture(r.width, r.height)
            let variants = r.exactOnly ? GradientVariant.allCases.filter(\.isExact) : GradientVariant.allCases
            return variants.map { variant in
                var w = r.workload(kernel: name, variant: variant.rawValue) {
                    let backend = try r.makeBackend()
                    let image = try Image(width: r.width, height: r.height)
                    let view = image.view
                    let run = { try backend.gradient(g, variant: variant, into: view) }
                    return WorkloadInstance(owning: [image], body: run, output: { try run(); return view })
                }
                w.bytesPerRun = 4 * r.width * r.height
                w.work = KernelWork.gradient(g, variant: variant, width: r.width, height: r.height)
                if r.withQuality {
                    w.reference = ReferenceSource(key: "\(name) \(r.width)x\(r.height)") {
                        Reference.gradient(g, width: r.width, height: r.height)
                    }
                }
                return w
            }
        })
    }
}
