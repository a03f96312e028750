/// CSS's `cubic-bezier(x1, y1, x2, y2)` timing function: the curve from (0,0)
/// to (1,1) with those two control points, read as y for a given x (time).
/// x(s) is monotonic for x1, x2 in [0, 1], so x -> s is found by Newton's
/// method with a bisection fallback to 1e-12, as WebKit's UnitBezier does.
public struct CubicBezierTiming: Sendable, Hashable {
    public let x1, y1, x2, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// `ease-in-out`, (0.42, 0, 0.58, 1): Telegram's and SwiftUI's.
    public static let easeInOut = CubicBezierTiming(0.42, 0, 0.58, 1)

    private func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        // Bernstein form of a cubic with P0 = 0, P3 = 1.
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    /// y at time x, x clamped to [0, 1].
    public func callAsFunction(_ x: Double) -> Double {
        let x = min(1, max(0, x))
        if x == 0 || x == 1 { return x }
        var s = x
        for _ in 0..<8 {
            let err = coordinate(s, x1, x2) - x
            if abs(err) < 1e-12 { return coordinate(s, y1, y2) }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let v = coordinate(s, x1, x2)
            if abs(v - x) < 1e-12 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return coordinate(s, y1, y2)
    }
}

/// Linear interpolation, a + (b - a) t.
@inlinable
public func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

@inlinable
public func mix(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(mix(a.x, b.x, t), mix(a.y, b.y, t)) }
