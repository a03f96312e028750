import RasterKit

extension Reference {
    /// K6 in double precision: s' = s * opacity, d = s' + d * (1 - s'.a / 255).
    public static func composite(_ src: ImageView, onto dst: ImageView, opacity: Double) -> [Double] {
        var out = [Double](repeating: 0, count: dst.width * dst.height * 4)
        for y in 0..<dst.height {
            let s = src.row(y), d = dst.row(y)
            for x in 0..<dst.width {
                let sa = Double(s[4 * x + 3]) * opacity
                for ch in 0..<4 {
                    out[(y * dst.width + x) * 4 + ch] =
                        Double(s[4 * x + ch]) * opacity + Double(d[4 * x + ch]) * (1 - sa / 255)
                }
            }
        }
        return out
    }
}
