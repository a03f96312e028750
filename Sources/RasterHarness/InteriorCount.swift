import RasterKit

/// Pixels whose centre is inside a path, and canvas rows crossed by its
/// edges: the two sizes `KernelWork.fill` builds a fill's floor from.
///
/// The path is flattened to within a quarter pixel; a centre inside the
/// polygon is then within a quarter pixel of the path's inside, so its
/// pixel has non-zero coverage and is written by every fill variant. The
/// count is a scanline at each row's centre, O(rows x edges): work for the
/// model (once per workload, outside the timed region), not for a kernel.
public enum InteriorCount {
    public struct Result: Sendable, Equatable {
        public var pixels: Double
        /// Sum over edges of the canvas rows each one spans (clipped).
        public var edgeRows: Double
    }

    static let tolerance = 0.25

    public static func count(_ path: Path, rule: FillRule, width: Int, height: Int) -> Result {
        guard width > 0, height > 0 else { return Result(pixels: 0, edgeRows: 0) }
        var edges = EdgeList()
        let h = Double(height)
        Flattener(tolerance: tolerance, visible: (0, 0, Double(width), h)).flatten(path, into: &edges)
        var edgeRows = 0.0
        for e in edges.list {
            edgeRows += abs(min(max(e.b.y, 0), h) - min(max(e.a.y, 0), h))
        }
        var pixels = 0.0
        var crossings: [(x: Double, winding: Int)] = []
        for row in 0..<height {
            let y = Double(row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for e in edges.list {
                // Half-open in y, so a vertex on the scanline counts once.
                let up = e.a.y > e.b.y
                let (lo, hi) = up ? (e.b, e.a) : (e.a, e.b)
                guard lo.y <= y, y < hi.y else { continue }
                let x = lo.x + (y - lo.y) / (hi.y - lo.y) * (hi.x - lo.x)
                crossings.append((x, up ? -1 : 1))
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            for (i, c) in crossings.enumerated() {
                winding += c.winding
                let inside = rule == .nonzero ? winding != 0 : winding & 1 != 0
                guard inside, i + 1 < crossings.count else { continue }
                // Centres x + 0.5 in [c.x, next.x).
                let from = max(0, (c.x - 0.5).rounded(.up)), to = min(Double(width), (crossings[i + 1].x - 0.5).rounded(.up))
                pixels += max(0, to - from)
            }
        }
        return Result(pixels: pixels, edgeRows: edgeRows)
    }

    private struct EdgeList: LineSink {
        var list: [(a: Point, b: Point)] = []
        mutating func line(from a: Point, to b: Point) {
            if a.y != b.y { list.append((a, b)) }
        }
    }
}
