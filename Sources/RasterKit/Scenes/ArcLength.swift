/// Even spacing along a closed outline (morph's samples, Liquid's point
/// clouds): the outline is a dense closed polyline; samples are placed at
/// equal arc-length steps from a start point on it, in the polyline's
/// direction.
public enum ArcLength {
    /// The point of the closed polyline nearest to `target`, as (segment
    /// index, parameter in [0, 1] along that segment). Ties keep the first.
    public static func nearest(on outline: [Point], to target: Point) -> (segment: Int, t: Double) {
        var best = (segment: 0, t: 0.0)
        var bestD = Double.infinity
        for i in outline.indices {
            let a = outline[i], b = outline[(i + 1) % outline.count]
            let ab = b - a
            let len2 = ab.dot(ab)
            let t = len2 > 0 ? min(1, max(0, (target - a).dot(ab) / len2)) : 0
            let d = (a + ab * t - target).length
            if d < bestD { bestD = d; best = (i, t) }
        }
        return best
    }

    /// `count` points evenly spaced by arc length around the closed polyline,
    /// the first at the point nearest to `start`, then in the polyline's order.
    public static func resample(closed outline: [Point], count: Int, startNearest start: Point) -> [Point] {
        precondition(outline.count >= 2 && count >= 1)
        let n = outline.count
        let (seg0, t0) = nearest(on: outline, to: start)
        // Walk the outline once from the start point, collecting vertices.
        var walk: [Point] = [mix(outline[seg0], outline[(seg0 + 1) % n], t0)]
        for k in 1...n { walk.append(outline[(seg0 + k) % n]) }
        walk.append(walk[0])
        var cumulative = [0.0]
        for i in 1..<walk.count { cumulative.append(cumulative[i - 1] + (walk[i] - walk[i - 1]).length) }
        let total = cumulative[cumulative.count - 1]
        var out: [Point] = []
        out.reserveCapacity(count)
        var j = 0
        for k in 0..<count {
            let s = total * Double(k) / Double(count)
            while j + 1 < cumulative.count - 1 && cumulative[j + 1] <= s { j += 1 }
            let segLen = cumulative[j + 1] - cumulative[j]
            let t = segLen > 0 ? (s - cumulative[j]) / segLen : 0
            out.append(mix(walk[j], walk[j + 1], t))
        }
        return out
    }

    /// The cyclic shift of `target` (target[(i + shift) % n] paired with
    /// source[i]) that minimises the summed squared distance to `source`:
    /// the alignment that keeps a morph from flipping or twisting.
    public static func bestShift(from source: [Point], to target: [Point]) -> Int {
        precondition(source.count == target.count)
        let n = source.count
        var best = 0
        var bestCost = Double.infinity
        for shift in 0..<n {
            var cost = 0.0
            for i in 0..<n {
                let d = target[(i + shift) % n] - source[i]
                cost += d.dot(d)
            }
            if cost < bestCost { bestCost = cost; best = shift }
        }
        return best
    }

    /// `points` rotated left by `shift`.
    public static func shifted(_ points: [Point], by shift: Int) -> [Point] {
        let n = points.count
        return (0..<n).map { points[($0 + shift) % n] }
    }
}
