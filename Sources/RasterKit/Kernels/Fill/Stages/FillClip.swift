/// K4's clip stage: segments clipped to [0, W] x [0, H] in Double, stored
/// as Float edges (`FillEdges`).
///
/// Clipping happens in Double, before anything becomes Float, so
/// coordinates up to +-1e7 (and beyond, to `Path.maxCoordinate`) lose no
/// precision inside the canvas and cannot overflow a cell index. The clip
/// keeps every pixel's winding exact:
/// - parts above or below the canvas are dropped (they cover no pixel);
/// - parts left of x = 0 become vertical edges on x = 0 with the same rows
///   (they only add winding to the pixels on their right, and all of it);
/// - parts right of x = W become vertical edges on x = W, which touch only
///   the guard cell past the last pixel but close each row's winding, so
///   the edges' bounding box bounds every covered pixel.
/// Horizontal edges add nothing and are dropped.
///
/// The clipped edges go straight to `Out`: the banded schedules' strip
/// buckets (`StripBucketer`), or a flat list (`EdgeList`) for the naive
/// schedule and the tests.
struct EdgeClipper<Out: ClippedEdges>: LineSink {
    var out: Out
    let width: Double, height: Double
    /// The rows [top, bottom) whose edges are kept.
    let top: Double, bottom: Double

    init(out: Out, width: Double, height: Double, rows: (top: Double, bottom: Double)) {
        self.out = out; self.width = width; self.height = height
        top = rows.top; bottom = rows.bottom
    }

    mutating func line(from a: Point, to b: Point) {
        if a.y == b.y { return }
        // Wholly above or below the rows kept: touches none of their pixels.
        if (a.y <= top && b.y <= top) || (a.y >= bottom && b.y >= bottom) { return }
        // Most segments lie inside the canvas: no clipping arithmetic.
        if min(a.x, b.x) >= 0 && max(a.x, b.x) <= width && min(a.y, b.y) >= 0 && max(a.y, b.y) <= height {
            emit(a, b)
            return
        }
        if (a.y <= 0 && b.y <= 0) || (a.y >= height && b.y >= height) { return }
        // Clip to 0 <= y <= H on the original line, so both ends come from
        // the same equation whatever was clipped before.
        let slope = (b.x - a.x) / (b.y - a.y)
        var p = a, q = b
        if p.y < 0 { p = Point(a.x - a.y * slope, 0) } else if p.y > height { p = Point(a.x + (height - a.y) * slope, height) }
        if q.y < 0 { q = Point(a.x - a.y * slope, 0) } else if q.y > height { q = Point(a.x + (height - a.y) * slope, height) }
        let lo = min(p.x, q.x), hi = max(p.x, q.x)
        if lo >= 0 && hi <= width { emit(p, q); return }
        if hi <= 0 { emit(Point(0, p.y), Point(0, q.y)); return }
        if lo >= width { emit(Point(width, p.y), Point(width, q.y)); return }
        // Crosses x = 0 and/or x = W: split there, in order from p to q.
        let inverse = (q.y - p.y) / (q.x - p.x)
        var cuts: (Point, Point) = (q, q)
        var n = 0
        let zero = Point(0, p.y + (0 - p.x) * inverse), right = Point(width, p.y + (width - p.x) * inverse)
        let crossesZero = lo < 0 && hi > 0, crossesRight = lo < width && hi > width
        if crossesZero && crossesRight {
            cuts = p.x < q.x ? (zero, right) : (right, zero); n = 2
        } else if crossesZero {
            cuts = (zero, q); n = 1
        } else if crossesRight {
            cuts = (right, q); n = 1
        }
        var u = p
        for i in 0...n {
            let v = i == n ? q : (i == 0 ? cuts.0 : cuts.1)
            let mid = (u.x + v.x) / 2
            if mid < 0 { emit(Point(0, u.y), Point(0, v.y)) }
            else if mid > width { emit(Point(width, u.y), Point(width, v.y)) }
            else { emit(u, v) }
            u = v
        }
    }

    @inline(__always)
    mutating func emit(_ p: Point, _ q: Point) {
        let x0 = Float(min(max(p.x, 0), width)), y0 = Float(p.y)
        let x1 = Float(min(max(q.x, 0), width)), y1 = Float(q.y)
        if y0 == y1 { return }
        out.add(SIMD4(x0, y0, x1, y1))
    }
}

/// Where `EdgeClipper` puts its edges: (x0, y0, x1, y1) inside the canvas,
/// y0 != y1, in path order. An output that runs out of memory sets
/// `overflowed` and drops the rest; its caller sizes it and clips again.
protocol ClippedEdges {
    mutating func add(_ e: SIMD4<Float>)
    var overflowed: Bool { get }
}

/// The clipped edges as one list, with their bounds.
struct EdgeList: ClippedEdges {
    let edges: UnsafeMutablePointer<SIMD4<Float>>
    let capacity: Int
    var count = 0
    var overflowed = false
    var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity

    init(_ edges: UnsafeMutablePointer<SIMD4<Float>>, capacity: Int) {
        self.edges = edges; self.capacity = capacity
    }

    @inline(__always)
    mutating func add(_ e: SIMD4<Float>) {
        if count == capacity { overflowed = true; return }
        edges[count] = e
        count += 1
        minX = min(minX, min(e.x, e.z)); maxX = max(maxX, max(e.x, e.z))
        minY = min(minY, min(e.y, e.w)); maxY = max(maxY, max(e.y, e.w))
    }
}
