import RasterKit
import RasterReference

extension Suite {
    /// K6: a translucent layer source-over an opaque background at opacity
    /// 0.8 -- the aurora scene's last step. Memory-bound: it reads the source
    /// and the destination and writes the destination, 12 bytes per pixel.
    public static let composite = SuiteEntry(
        name: "composite",
        summary: "K6 source-over composite of a translucent layer, opacity 0.8",
        workloads: { r in
            let opacity = 0.8
            let background = RGBA8(r: 0x33, g: 0x6F, b: 0x55, a: 0xFF)
            var w = r.workload(kernel: "composite", variant: "exact") {
                let backend = try r.makeBackend()
                let src = try Fixtures.translucentLayer(width: r.width, height: r.height)
                let dst = try Image(width: r.width, height: r.height)
                dst.fill(background)
                let s = src.view, d = dst.view
                // The timed runs composite again and again onto the same
                // destination; the cost does not depend on its content.
                let run = { try backend.composite(s, onto: d, opacity: opacity) }
                return WorkloadInstance(owning: [src, dst], body: run, output: {
                    d.fill(background) // fresh destination, then exactly one composite
                    try run()
                    return d
                })
            }
            w.bytesPerRun = 12 * r.width * r.height
            w.work = KernelWork.composite(width: r.width, height: r.height)
            w.parameters = "opacity=0.8"
            if r.withQuality {
                w.reference = ReferenceSource(key: "composite \(r.width)x\(r.height)") {
                    let src = try Fixtures.translucentLayer(width: r.width, height: r.height)
                    let dst = try Image(width: r.width, height: r.height)
                    dst.fill(background)
                    return Reference.composite(src.view, onto: dst.view, opacity: opacity)
                }
            }
            return [w]
        })
}
