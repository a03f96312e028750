import Foundation

/// The morph scene's four shapes as dense closed outlines in the unit
/// square (y down), clockwise on screen. Dense enough (`resolution` points)
/// that arc-length sampling at 100 points is limited by the sampling, not by
/// the outline: a chord of a circle of radius 0.5 split into 4096 parts is
/// 0.5 (1 - cos(pi/4096)) = 1.5e-7 off the curve.
public enum MorphShape: String, CaseIterable, Sendable {
    case circle, roundedSquare, star, heart

    public static let resolution = 4096
    /// Rounded square: corner radius as a fraction of the side.
    public static let cornerRadius = 0.2
    /// Star: inner radius as a fraction of the outer.
    public static let innerRadius = 0.4
    public static let starPoints = 5

    public var outline: [Point] {
        let n = MorphShape.resolution
        switch self {
        case .circle:
            return (0..<n).map { k in
                let a = 2 * Double.pi * Double(k) / Double(n)
                return Point(0.5 + 0.5 * cos(a), 0.5 + 0.5 * sin(a))
            }
        case .roundedSquare:
            return MorphShape.roundedSquareOutline(n)
        case .star:
            // Outer vertices on a circle of radius 0.5 with one point up,
            // inner ones between them; each edge split evenly.
            let corners = (0..<(2 * MorphShape.starPoints)).map { k -> Point in
                let r = k % 2 == 0 ? 0.5 : 0.5 * MorphShape.innerRadius
                let a = -Double.pi / 2 + Double(k) * Double.pi / Double(MorphShape.starPoints)
                return Point(0.5 + r * cos(a), 0.5 + r * sin(a))
            }
            return MorphShape.subdivide(corners, n)
        case .heart:
            // The classic heart curve x = 16 sin^3 t, y = -(13 cos t - 5 cos 2t
            // - 2 cos 3t - cos 4t) (y down: notch up, tip down), clockwise
            // from the notch, scaled to fit the unit square and centred.
            let raw = (0..<n).map { k -> Point in
                let t = 2 * Double.pi * Double(k) / Double(n)
                let s = sin(t)
                return Point(16 * s * s * s, -(13 * cos(t) - 5 * cos(2 * t) - 2 * cos(3 * t) - cos(4 * t)))
            }
            return MorphShape.fit(raw)
        }
    }

    /// The rounded square filling the unit square, clockwise from the top
    /// edge's left end.
    static func roundedSquareOutline(_ n: Int) -> [Point] {
        let r = cornerRadius
        // Four straight sides and four quarter arcs, each given points in
        // proportion to its length.
        let side = 1 - 2 * r, arc = Double.pi / 2 * r
        let perimeter = 4 * side + 4 * arc
        var out: [Point] = []
        let centres = [Point(1 - r, r), Point(1 - r, 1 - r), Point(r, 1 - r), Point(r, r)]
        let starts = [Point(r, 0), Point(1, r), Point(1 - r, 1), Point(0, 1 - r)]
        let dirs = [Point(1, 0), Point(0, 1), Point(-1, 0), Point(0, -1)]
        for k in 0..<4 {
            let ns = max(1, Int((Double(n) * side / perimeter).rounded()))
            for i in 0..<ns { out.append(starts[k] + dirs[k] * (side * Double(i) / Double(ns))) }
            let na = max(1, Int((Double(n) * arc / perimeter).rounded()))
            let a0 = -Double.pi / 2 + Double(k) * Double.pi / 2
            for i in 0..<na {
                let a = a0 + Double.pi / 2 * Double(i) / Double(na)
                out.append(centres[k] + Point(cos(a), sin(a)) * r)
            }
        }
        return out
    }

    /// A closed polygon with each edge split into pieces in proportion to its length.
    static func subdivide(_ corners: [Point], _ n: Int) -> [Point] {
        let lengths = corners.indices.map { (corners[($0 + 1) % corners.count] - corners[$0]).length }
        let total = lengths.reduce(0, +)
        var out: [Point] = []
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let pieces = max(1, Int((Double(n) * lengths[i] / total).rounded()))
            for k in 0..<pieces { out.append(mix(a, b, Double(k) / Double(pieces))) }
        }
        return out
    }

    /// Scales and centres points into the unit square, aspect kept.
    static func fit(_ points: [Point]) -> [Point] {
        let minX = points.map(\.x).min()!, maxX = points.map(\.x).max()!
        let minY = points.map(\.y).min()!, maxY = points.map(\.y).max()!
        let k = 1 / max(maxX - minX, maxY - minY)
        let ox = (1 - (maxX - minX) * k) / 2, oy = (1 - (maxY - minY) * k) / 2
        return points.map { Point(ox + ($0.x - minX) * k, oy + ($0.y - minY) * k) }
    }
}
