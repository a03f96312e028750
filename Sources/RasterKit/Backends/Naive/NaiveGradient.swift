import CRasterOMP

extension NaiveBackend {
    public func gradient(_ gradient: Gradient, variant: GradientVariant, into dst: ImageView) throws {
        let stops = gradient.stops
        if gradient.isDegenerate {
            dst.fill(stops[stops.count - 1].color.rgba8)
            return
        }
        for y in 0..<dst.height {
            let row = dst.row(y)
            for x in 0..<dst.width {
                let q = Point(Double(x) + 0.5, Double(y) + 0.5)
                let u: Double
                switch gradient.shape {
                case let .linear(s, t):
                    let d = t - s
                    u = (q - s).dot(d) / d.dot(d)
                case let .radial(c, r):
                    u = (q - c).length / r
                }
                if variant == .lut {
                    UnsafeMutableRawPointer(row + 4 * x).storeBytes(of: gradient.table.word(at: u, extend: gradient.extend),
                                                                    as: UInt32.self)
                } else {
                    Bilinear.store(NaiveBackend.color(at: Float(u), stops, gradient.extend), to: row + 4 * x)
                }
            }
        }
    }

    /// The colour at parameter u: extend, then `Gradient`'s stop rule (the
    /// last stop at or before t starts the interval).
    static func color(at u: Float, _ stops: [Gradient.Stop], _ extend: ExtendMode) -> SIMD4<Float> {
        var t: Float
        switch extend {
        case .pad: t = min(max(u, RASTER_GRADIENT_PAD_LOW), RASTER_GRADIENT_PAD_HIGH)
        case .repeat: t = u - u.rounded(.down)
        case .reflect:
            let m = u - 2 * (u / 2).rounded(.down)
            t = m > 1 ? 2 - m : m
        }
        if t < Float(stops[0].offset) { return stops[0].color.simd }
        var k = 0
        while k + 1 < stops.count, Float(stops[k + 1].offset) <= t { k += 1 }
        if k == stops.count - 1 { return stops[k].color.simd }
        let a = stops[k], b = stops[k + 1]
        let w = (t - Float(a.offset)) / Float(b.offset - a.offset)
        return a.color.simd + (b.color.simd - a.color.simd) * w
    }
}
