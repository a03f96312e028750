/// A vector path in canvas pixels (y down): sub-paths of straight lines and
/// quadratic and cubic Bezier curves, as SVG and every 2D API model them.
///
/// Each sub-path starts with a `move`; `close` draws the straight line back
/// to the sub-path's start, after which drawing continues from that start
/// (SVG's rule). For filling, every open sub-path is closed implicitly.
/// Coordinates are Double so that job coordinates far off the canvas (docs/contract.md §2.4
/// asks for +-1e7) keep their precision until the fill kernel clips them.
public struct Path: Sendable, Hashable {
    public enum Element: Sendable, Hashable {
        case move(to: Point)
        case line(to: Point)
        /// A quadratic Bezier from the current point through `control` to `to`.
        case quad(control: Point, to: Point)
        /// A cubic Bezier from the current point with controls `c1`, `c2` to `to`.
        case cubic(c1: Point, c2: Point, to: Point)
        case close
    }

    public private(set) var elements: [Element] = []

    /// The largest accepted |coordinate|: ten times the ±1e7 of docs/contract.md §2.4, so every
    /// product the flattener and clipper form stays far inside Double's range.
    public static let maxCoordinate = 1e8

    public init() {}

    public init(_ elements: [Element]) { self.elements = elements }

    /// Parses SVG path data (`M L H V C S Q T A Z`, absolute and relative).
    public init(svg: String) throws { self = try PathParser.parse(svg) }

    public mutating func move(to p: Point) { elements.append(.move(to: p)) }
    public mutating func line(to p: Point) { elements.append(.line(to: p)) }
    public mutating func quad(control: Point, to p: Point) { elements.append(.quad(control: control, to: p)) }
    public mutating func cubic(c1: Point, c2: Point, to p: Point) { elements.append(.cubic(c1: c1, c2: c2, to: p)) }
    public mutating func close() { elements.append(.close) }

    /// Empties the path; with `keepingCapacity`, a path rebuilt every frame
    /// (an animated blob) reuses its storage instead of allocating.
    public mutating func removeAll(keepingCapacity: Bool = false) { elements.removeAll(keepingCapacity: keepingCapacity) }

    public var isEmpty: Bool { elements.isEmpty }

    /// Throws unless the path has elements and every coordinate is finite and
    /// within +-`maxCoordinate`; the error names the element (`path[3]`).
    public func validate(name: String = "path") throws {
        guard !elements.isEmpty else {
            throw RasterError.invalidArgument(name: name, value: "an empty path", accepted: "at least one path command")
        }
        // Allocation-free (no `points` arrays): the blob op validates its
        // rebuilt path every frame.
        for (i, e) in elements.enumerated() {
            var bad: Point?
            e.forEachPoint { p in
                if bad == nil, !(p.isFinite && abs(p.x) <= Path.maxCoordinate && abs(p.y) <= Path.maxCoordinate) { bad = p }
            }
            if let p = bad {
                throw RasterError.invalidArgument(
                    name: "\(name)[\(i)]", value: "\(p)",
                    accepted: "finite coordinates within +-\(Path.maxCoordinate)")
            }
        }
    }

    /// The bounding box of all points, controls included (which contains the
    /// curves, as each lies in the convex hull of its control points), or nil
    /// for a path without points.
    /// (Allocation-free: the fill kernels call it every frame.)
    public var controlBounds: (min: Point, max: Point)? {
        var lo = Point(.infinity, .infinity), hi = Point(-.infinity, -.infinity)
        @inline(__always) func add(_ p: Point) {
            lo = Point(Swift.min(lo.x, p.x), Swift.min(lo.y, p.y))
            hi = Point(Swift.max(hi.x, p.x), Swift.max(hi.y, p.y))
        }
        for e in elements {
            switch e {
            case let .move(p), let .line(p): add(p)
            case let .quad(c, p): add(c); add(p)
            case let .cubic(c1, c2, p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        return lo.x <= hi.x ? (lo, hi) : nil
    }

    /// The number of curve and line segments (for sizing and reports).
    public var segmentCount: Int {
        elements.reduce(0) { n, e in
            switch e {
            case .line, .quad, .cubic: return n + 1
            case .move, .close: return n
            }
        }
    }
}

extension Path.Element {
    /// Calls `body` with the element's points in order, without building an array.
    @inline(__always)
    public func forEachPoint(_ body: (Point) -> Void) {
        switch self {
        case let .move(p), let .line(p): body(p)
        case let .quad(c, p): body(c); body(p)
        case let .cubic(c1, c2, p): body(c1); body(c2); body(p)
        case .close: break
        }
    }

    /// The element's points in order (controls, then the end point).
    public var points: [Point] {
        switch self {
        case let .move(p), let .line(p): return [p]
        case let .quad(c, p): return [c, p]
        case let .cubic(c1, c2, p): return [c1, c2, p]
        case .close: return []
        }
    }
}
