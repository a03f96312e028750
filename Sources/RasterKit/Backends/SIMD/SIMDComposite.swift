extension SIMDBackend {
    public func composite(_ src: ImageView, onto dst: ImageView, opacity: Double) throws {
        try Composite.validate(opacity: opacity)
        try Composite.validateSizes(src, dst)
        let k = Float(opacity)
        RowBands.run(height: dst.height, threads: threads) { rows in
            for y in rows {
                let s = src.row(y), d = dst.row(y)
                @inline(__always) func body(_ x: Int, _ n: Int) {
                    let (sr, sg, sb, sa) = Lanes.load(s + 4 * x, count: n)
                    let (dr, dg, db, da) = Lanes.load(d + 4 * x, count: n)
                    let a = sa * k
                    let inv = 1 - a * (1 / 255)
                    Lanes.store(Lanes.packRGBA8(sr * k + dr * inv, sg * k + dg * inv, sb * k + db * inv, a + da * inv),
                                to: d + 4 * x, count: n)
                }
                var x = 0
                while x + Lanes.width <= dst.width { body(x, Lanes.width); x += Lanes.width }
                if x < dst.width { body(x, dst.width - x) }
            }
        }
    }
}
