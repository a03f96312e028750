import Foundation
import RasterKit

/// Double-precision references: the maths of docs/contract.md §2 written as
/// plainly as possible, with no concern for speed. Each returns
/// width * height * 4 unrounded premultiplied values (r, g, b, a per pixel).
public enum Reference {
    /// K1, exactly as docs/contract.md §2.1 states it (and `FreeformGradient`'s doc comment):
    /// pixel or unit space, with the swirl in unit space.
    public static func freeform(_ g: FreeformGradient, width: Int, height: Int) -> [Double] {
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var q = Point(Double(x) + 0.5, Double(y) + 0.5)
                if g.space == .unit {
                    q = Point(q.x / Double(width), q.y / Double(height))
                    if g.swirl > 0 { q = swirled(q, g.swirl) }
                }
                var sum = 0.0
                var acc = SIMD4<Double>()
                var nearest = 0
                var nearestD = Double.infinity
                for (i, p) in g.points.enumerated() {
                    let d = (q - p.position).length
                    let f = pow(max(0, 1 - d / g.influence), g.exponent)
                    sum += f
                    acc += f * p.color.components
                    if d < nearestD { nearestD = d; nearest = i }
                }
                let c = sum > 0 ? acc / sum : g.points[nearest].color.components
                for ch in 0..<4 { out[(y * width + x) * 4 + ch] = c[ch] }
            }
        }
        return out
    }

    /// Telegram iOS's warp: q rotated about (0.5, 0.5) by s |q - m|^2, clamped to [0, 1]^2.
    public static func swirled(_ q: Point, _ s: Double) -> Point {
        let dx = q.x - 0.5, dy = q.y - 0.5
        let theta = s * (dx * dx + dy * dy)
        let c = cos(theta), sn = sin(theta)
        return Point(min(max(0.5 + dx * c - dy * sn, 0), 1), min(max(0.5 + dx * sn + dy * c, 0), 1))
    }
}
