extension NaiveBackend {
    public func composite(_ src: ImageView, onto dst: ImageView, opacity: Double) throws {
        try Composite.validate(opacity: opacity)
        try Composite.validateSizes(src, dst)
        let k = Float(opacity)
        for y in 0..<dst.height {
            let s = src.row(y), d = dst.row(y)
            for i in 0..<(dst.width * 4) where i % 4 == 0 {
                let sa = Float(s[i + 3]) * k
                let inv = 1 - sa / 255
                for c in 0..<4 {
                    let v = Float(s[i + c]) * k + Float(d[i + c]) * inv
                    d[i + c] = UInt8(min(255, v) + 0.5)
                }
            }
        }
    }
}
