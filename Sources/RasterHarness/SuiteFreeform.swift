import RasterKit
import RasterReference

extension Suite {
    /// K1: every variant writes the whole frame; quality against the
    /// full-resolution reference (the down-scaled variants are measured, not bound).
    /// Compute-bound (per pixel: a distance, a power and a divide per point),
    /// so no bandwidth fraction.
    public static let freeform = SuiteEntry(
        name: FreeformVariant.kernelName,
        summary: "K1 four-colour freeform gradient (Telegram), variants full, down2/4/8/10, lut, fit80, square10",
        workloads: { r in
            let g = try Fixtures.telegram(width: r.width, height: r.height)
            let variants = r.exactOnly ? FreeformVariant.allCases.filter(\.isExact) : FreeformVariant.allCases
            return variants.map { variant in
                var w = r.workload(kernel: FreeformVariant.kernelName, variant: variant.rawValue) {
                    let backend = try r.makeBackend()
                    let image = try Image(width: r.width, height: r.height)
                    let scratch = Scratch()
                    let view = image.view
                    let run = { try backend.freeform(g, variant: variant, into: view, scratch: scratch) }
                    return WorkloadInstance(owning: [image, scratch], body: run, output: { try run(); return view })
                }
                w.work = KernelWork.freeform(g, variant: variant, width: r.width, height: r.height)
                if r.withQuality {
                    w.reference = ReferenceSource(key: "freeform \(r.width)x\(r.height)") {
                        Reference.freeform(g, width: r.width, height: r.height)
                    }
                }
                return w
            }
        })
}
