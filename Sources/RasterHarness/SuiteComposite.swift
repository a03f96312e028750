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
            var w = r.workload(kernel: "composite", variant: "source-over") {
                let backend = try r.makeBackend()
                let src = try Fixtures.translucentLayer(width: r.width, height: r.height)
                let dst = try Image(width: r.width, height: r.height)
                let background = RGBA8(r: 0x33, g: 0x6F, b: 0x55, a: 0xFF)
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
            w.param = "opacity=0.8"
            // TODO(lead): quality once RasterReference has `Reference.composite`.
            return [w]
        })
}
