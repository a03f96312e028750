import RasterKit

extension Reference {
    /// Bilinear resampling as `RasterBackend.resample` defines it, in double
    /// precision: target centre x + 0.5 reads source position
    /// (x + 0.5) * sw / width - 0.5, edge values held beyond the outer centres.
    public static func resample(_ src: ImageView, width: Int, height: Int) -> [Double] {
        let sw = src.width, sh = src.height
        func tap(_ i: Int, _ n: Int, _ source: Int) -> (Int, Int, Double) {
            let pos = min(max((Double(i) + 0.5) * Double(source) / Double(n) - 0.5, 0), Double(source - 1))
            let i0 = Int(pos.rounded(.down))
            return (i0, min(i0 + 1, source - 1), pos - Double(i0))
        }
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let (y0, y1, fy) = tap(y, height, sh)
            for x in 0..<width {
                let (x0, x1, fx) = tap(x, width, sw)
                for c in 0..<4 {
                    func v(_ xx: Int, _ yy: Int) -> Double { Double(src.row(yy)[4 * xx + c]) }
                    let top = v(x0, y0) * (1 - fx) + v(x1, y0) * fx
                    let bottom = v(x0, y1) * (1 - fx) + v(x1, y1) * fx
                    out[(y * width + x) * 4 + c] = top * (1 - fy) + bottom * fy
                }
            }
        }
        return out
    }
}
