import RasterKit
import RasterReference

extension Suite {
    /// K2: the linear and the radial gradient, each its own "variant" row.
    /// Compute-light and write-only (4 bytes per pixel): on a fast backend
    /// it approaches a fill, so bytes moved are counted.
    public static let gradient = SuiteEntry(
        name: "gradient",
        summary: "K2 linear and radial gradients (4 and 3 stops, pad and reflect)",
        workloads: { r in
            let shapes: [(String, Gradient)] = [
                ("linear", Fixtures.linear(width: r.width, height: r.height)),
                ("radial", Fixtures.radial(width: r.width, height: r.height)),
            ]
            return shapes.map { name, g in
                var w = r.workload(kernel: "gradient", variant: name) {
                    let backend = try r.makeBackend()
                    let image = try Image(width: r.width, height: r.height)
                    let view = image.view
                    let run = { try backend.gradient(g, into: view) }
                    return WorkloadInstance(owning: [image], body: run, output: { try run(); return view })
                }
                w.bytesPerRun = 4 * r.width * r.height
                // TODO(lead): quality once RasterReference has `Reference.gradient`:
                // if r.withQuality { w.reference = ReferenceSource(key: "gradient \(name) \(r.width)x\(r.height)") {
                //     Reference.gradient(g, width: r.width, height: r.height) } }
                return w
            }
        })
}
