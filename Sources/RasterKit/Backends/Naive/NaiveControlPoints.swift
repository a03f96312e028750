extension NaiveBackend {
    /// K5 as one scalar loop over the anchors, carrying each tangent over to
    /// the next arc (which needs it as its t_{i+1}).
    public func controlPoints(_ anchors: UnsafeBufferPointer<SIMD2<Float>>, into out: UnsafeMutableBufferPointer<SIMD2<Float>>) throws {
        try ControlPoints.validate(anchors: anchors.count, outCount: out.count)
        let n = anchors.count
        func tangent(_ d: SIMD2<Float>) -> SIMD2<Float> {
            let length = (d.x * d.x + d.y * d.y).squareRoot()
            return length == 0 ? .zero : d / length
        }
        var t = tangent(anchors[1] - anchors[n - 1])
        for i in 0..<n {
            let p = anchors[i]
            let next = anchors[i + 1 == n ? 0 : i + 1]
            let afterNext = anchors[i + 2 < n ? i + 2 : i + 2 - n]
            let tNext = tangent(afterNext - p)
            let d = next - p
            let third = (d.x * d.x + d.y * d.y).squareRoot() / 3
            out[2 * i] = p + t * third
            out[2 * i + 1] = next - tNext * third
            t = tNext
        }
    }
}
