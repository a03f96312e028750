import Foundation

/// Paths of simple shapes for the scenes, in canvas pixels.
public enum Shapes {
    /// The cubic Bezier circle's control distance, 4/3 tan(pi/8) of the
    /// radius: its largest radial error is 0.027% of the radius (0.08 px on
    /// a 300 px circle), as Skia and Core Graphics draw circles.
    public static let circleKappa = 4.0 / 3.0 * tan(Double.pi / 8)

    /// A circle as four cubic arcs, clockwise on screen (y down) from its
    /// rightmost point.
    public static func circle(center c: Point, radius r: Double) -> Path {
        let k = r * circleKappa
        var p = Path()
        p.move(to: Point(c.x + r, c.y))
        p.cubic(c1: Point(c.x + r, c.y + k), c2: Point(c.x + k, c.y + r), to: Point(c.x, c.y + r))
        p.cubic(c1: Point(c.x - k, c.y + r), c2: Point(c.x - r, c.y + k), to: Point(c.x - r, c.y))
        p.cubic(c1: Point(c.x - r, c.y - k), c2: Point(c.x - k, c.y - r), to: Point(c.x, c.y - r))
        p.cubic(c1: Point(c.x + k, c.y - r), c2: Point(c.x + r, c.y - k), to: Point(c.x + r, c.y))
        p.close()
        return p
    }

    /// A closed polygon through `points`.
    public static func polygon(_ points: [Point]) -> Path {
        var p = Path()
        guard let first = points.first else { return p }
        p.move(to: first)
        for q in points.dropFirst() { p.line(to: q) }
        p.close()
        return p
    }
}
