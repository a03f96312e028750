import RasterKit

extension Reference {
    /// K5 in Double, exactly as docs/contract.md §2.5 (and `ControlPoints`) state it: 2N
    /// control points, out[2i] = c1_i and out[2i + 1] = c2_i.
    public static func controlPoints(_ anchors: [Point]) -> [Point] {
        let n = anchors.count
        precondition(n >= ControlPoints.minAnchors)
        func tangent(_ i: Int) -> Point {
            let d = anchors[(i + 1) % n] - anchors[(i + n - 1) % n]
            let length = d.length
            return length == 0 ? Point(0, 0) : d * (1 / length)
        }
        var out: [Point] = []
        out.reserveCapacity(2 * n)
        for i in 0..<n {
            let p = anchors[i], q = anchors[(i + 1) % n]
            let third = (q - p).length / 3
            out.append(p + tangent(i) * third)
            out.append(q - tangent(i + 1) * third)
        }
        return out
    }

    /// The `blob` job op's reference: K5 in Double, the closed cubic path,
    /// then K4's reference fill (nonzero) onto `destination`.
    public static func blob(anchors: [Point], color: Color, onto destination: ImageView) throws -> [Double] {
        let path = try ControlPoints.closedPath(anchors: anchors, controls: controlPoints(anchors))
        return fill(try PathFill(path: path, rule: .nonzero, color: color), onto: destination)
    }
}
