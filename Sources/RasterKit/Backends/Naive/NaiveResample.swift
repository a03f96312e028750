extension NaiveBackend {
    public func resample(_ src: ImageView, into dst: ImageView, scratch: Scratch) throws {
        let columns = BilinearAxis(source: src.width, target: dst.width)
        let rows = BilinearAxis(source: src.height, target: dst.height)
        for y in 0..<dst.height {
            let (y0, fy) = rows.tap(y)
            let top = src.row(y0), bottom = src.row(min(y0 + 1, src.height - 1))
            let out = dst.row(y)
            for x in 0..<dst.width {
                let (x0, fx) = columns.tap(x)
                let x1 = min(x0 + 1, src.width - 1)
                for ch in 0..<4 {
                    let t = Float(top[4 * x0 + ch]) * (1 - fx) + Float(top[4 * x1 + ch]) * fx
                    let b = Float(bottom[4 * x0 + ch]) * (1 - fx) + Float(bottom[4 * x1 + ch]) * fx
                    out[4 * x + ch] = Bilinear.quantize(t * (1 - fy) + b * fy)
                }
            }
        }
    }
}
