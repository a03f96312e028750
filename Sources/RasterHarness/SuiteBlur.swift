import RasterKit
import RasterReference

extension Suite {
    /// The aurora scene's blur: 60 pt at the profile's scale.
    public static let auroraSigmaPoints = 60.0

    /// K3 on the aurora scene's circle layer (`Fixtures.auroraLayer`). In
    /// place, so the timed runs blur an ever-smoother image: a blur's cost
    /// does not depend on content; quality is measured on one blur of the
    /// fixture against `Reference.blur`. Memory traffic is counted as an ideal two-pass
    /// separable blur's: each pass reads and writes every pixel once (16
    /// bytes per pixel); variants that move more or less are held against
    /// the same figure, which makes their bandwidth fraction an "effective" one.
    public static let blur = SuiteEntry(
        name: BlurVariant.kernelName,
        summary: "K3 Gaussian blur, sigma 60 pt at the profile's scale (aurora)",
        workloads: { r in
            blurWorkloads(r, sigma: auroraSigmaPoints * r.profile.scale)
        },
        atSigma: { r, sigma in blurWorkloads(r, sigma: sigma) })

    static func blurWorkloads(_ r: SuiteRequest, sigma: Double) -> [Workload] {
        let variants = r.exactOnly ? BlurVariant.allCases.filter(\.isExact) : BlurVariant.allCases
        return variants.map { variant in
            var w = r.workload(kernel: BlurVariant.kernelName, variant: variant.rawValue) {
                let backend = try r.makeBackend()
                let blur = try GaussianBlur(sigma: sigma, edge: .transparent)
                let source = try Fixtures.auroraLayer(width: r.width, height: r.height)
                let image = try Image(width: r.width, height: r.height)
                image.view.copy(from: source.view)
                let scratch = Scratch()
                let view = image.view
                let run = { try backend.blur(blur, variant: variant, image: view, scratch: scratch) }
                return WorkloadInstance(owning: [source, image, scratch], body: run, output: {
                    view.copy(from: source.view)
                    try run()
                    return view
                })
            }
            w.parameters = "sigma=\(NumberFormat.decimal(sigma))"
            w.slowOnNaive = r.backend == .naive && variant == .exact && NaiveCost.blurTaps(width: r.width, height: r.height, sigma: sigma) >= NaiveCost.slowTaps
            w.bytesPerRun = 16 * r.width * r.height
            w.work = (try? GaussianBlur(sigma: sigma, edge: .transparent)).map {
                KernelWork.blur($0, variant: variant, width: r.width, height: r.height)
            }
            if r.withQuality {
                w.reference = ReferenceSource(key: "blur \(r.width)x\(r.height) sigma \(sigma)") {
                    // Held while its view is read: the view of a temporary
                    // dangles once the optimiser ends the image's life.
                    let layer = try Fixtures.auroraLayer(width: r.width, height: r.height)
                    let blur = try GaussianBlur(sigma: sigma, edge: .transparent)
                    return withExtendedLifetime(layer) { Reference.blur(layer.view, blur) }
                }
            }
            return w
        }
    }
}
