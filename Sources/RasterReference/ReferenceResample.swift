import Foundation
import RasterKit

extension Reference {
    /// `RasterBackend.resample`'s maths in double precision: target centre
    /// x + 0.5 reads source position (x + 0.5) sw / W - 0.5 (likewise y),
    /// clamped to the outermost source centres, bilinear on the
    /// premultiplied 8-bit values. Returns dst width * height * 4 unrounded values.
    public static func resample(_ src: ImageView, width: Int, height: Int) -> [Double] {
        func tap(_ i: Int, _ source: Int, _ target: Int) -> (Int, Int, Double) {
            let pos = min(max((Double(i) + 0.5) * Double(source) / Double(target) - 0.5, 0), Double(source - 1))
            let i0 = Int(pos.rounded(.down))
            return (i0, min(i0 + 1, source - 1), pos - Double(i0))
        }
        func value(_ x: Int, _ y: Int, _ ch: Int) -> Double { Double(src.row(y)[4 * x + ch]) }
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let (y0, y1, fy) = tap(y, src.height, height)
            for x in 0..<width {
                let (x0, x1, fx) = tap(x, src.width, width)
                for ch in 0..<4 {
                    let top = value(x0, y0, ch) * (1 - fx) + value(x1, y0, ch) * fx
                    let bottom = value(x0, y1, ch) * (1 - fx) + value(x1, y1, ch) * fx
                    out[(y * width + x) * 4 + ch] = top * (1 - fy) + bottom * fy
                }
            }
        }
        return out
    }
}
