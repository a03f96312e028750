import RasterKit
import RasterReference

extension Suite {
    /// K7: the `mesh` scene's 3 x 3 grid at rest with its centre displaced
    /// (as the scene's wandering centre leaves it), over the whole frame.
    /// Quality against the double-precision reference over every pixel (the
    /// mesh's border runs along the frame's edges, straight, so nothing
    /// needs the K7 exclusion of docs/contract.md §2.7 here). Compute-bound (per pixel: a Newton step
    /// and a bicubic per channel), so no bandwidth fraction.
    public static let mesh = SuiteEntry(
        name: MeshVariant.kernelName,
        summary: "K7 mesh gradient (3x3 scene mesh, centre displaced), variants exact, coarse",
        workloads: { r in
            let m = try Fixtures.mesh(width: r.width, height: r.height)
            let variants = r.exactOnly ? MeshVariant.allCases.filter(\.isExact) : MeshVariant.allCases
            return variants.map { variant in
                var w = r.workload(kernel: MeshVariant.kernelName, variant: variant.rawValue) {
                    let backend = try r.makeBackend()
                    let image = try Image(width: r.width, height: r.height)
                    let scratch = Scratch()
                    let view = image.view
                    // Source-over of an opaque mesh: every frame writes the same
                    // pixels, so the timed body needs no reset between runs.
                    let run = { try backend.mesh(m, variant: variant, onto: view, scratch: scratch) }
                    return WorkloadInstance(owning: [image, scratch], body: run, output: { try run(); return view })
                }
                // The `mesh` scene's rows carry the same name: without a
                // parameter the kernel's exact row and the scene's share a
                // report key, and rounds merged them into one row.
                w.parameters = "grid=3x3"
                w.work = KernelWork.mesh(m, variant: variant, width: r.width, height: r.height)
                if r.withQuality {
                    w.reference = ReferenceSource(key: "mesh \(r.width)x\(r.height)") {
                        // Held while its view is read: `Image(...).view` of a
                        // temporary dangles (the pattern ASan caught in a test).
                        let blank = try Image(width: r.width, height: r.height)
                        return withExtendedLifetime(blank) {
                            Reference.over(Reference.meshColors(m, width: r.width, height: r.height), onto: blank.view)
                        }
                    }
                }
                return w
            }
        })
}

extension Fixtures {
    /// The `mesh` scene's grid at rest (docs/contract.md §5.4) with the centre moved by
    /// (+4%, -3%) of the frame: about (30, -40) px at iphone-6, inside the
    /// scene's 40 pt wander.
    public static func mesh(width: Int, height: Int) throws -> MeshGradient {
        try MeshFixtures.scene(width: width, height: height,
                                centre: Point(0.04 * Double(width), -0.03 * Double(height)))
    }
}
