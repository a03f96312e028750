import Foundation
import RasterKit

extension Reference {
    /// K2 in double precision: u per pixel centre, extend, stop search, lerp.
    public static func gradient(_ g: Gradient, width: Int, height: Int) -> [Double] {
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = gradientColor(g, at: Point(Double(x) + 0.5, Double(y) + 0.5))
                for ch in 0..<4 { out[(y * width + x) * 4 + ch] = c[ch] }
            }
        }
        return out
    }

    public static func gradientColor(_ g: Gradient, at q: Point) -> SIMD4<Double> {
        switch g.shape {
        case let .linear(s, t):
            let d = t - s
            guard s != t else { return g.stops[g.stops.count - 1].color.components }
            return gradientColor(g, parameter: (q - s).dot(d) / d.dot(d))
        case let .radial(c, r):
            guard r > 0 else { return g.stops[g.stops.count - 1].color.components }
            return gradientColor(g, parameter: (q - c).length / r)
        }
    }

    /// The colour at parameter u (before the extend mode), by `Gradient`'s
    /// rule: t < o_0 gives c_0; otherwise the last stop k with o_k <= t
    /// starts the interval (the last stop's colour if k is the last).
    public static func gradientColor(_ g: Gradient, parameter u: Double) -> SIMD4<Double> {
        let stops = g.stops
        let t: Double
        switch g.extend {
        case .pad: t = u // the stop rule pads by itself
        case .repeat: t = u - floor(u)
        case .reflect:
            let m = u - 2 * floor(u / 2)
            t = m > 1 ? 2 - m : m
        }
        if t < stops[0].offset { return stops[0].color.components }
        var k = 0
        while k + 1 < stops.count, stops[k + 1].offset <= t { k += 1 }
        if k == stops.count - 1 { return stops[k].color.components }
        let a = stops[k], b = stops[k + 1]
        let w = (t - a.offset) / (b.offset - a.offset)
        return a.color.components + (b.color.components - a.color.components) * w
    }
}
