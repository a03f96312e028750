import Foundation
import RasterKit

/// Double-precision references: the maths of SPEC section 2 written as
/// plainly as possible, with no concern for speed. Each returns
/// width * height * 4 unrounded premultiplied values (r, g, b, a per pixel).
public enum Reference {
    /// K1, exactly as SPEC states it.
    public static func freeform(_ g: FreeformGradient, width: Int, height: Int) -> [Double] {
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let q = Point(Double(x) + 0.5, Double(y) + 0.5)
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
}
