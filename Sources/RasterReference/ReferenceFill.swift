import Foundation
import RasterKit

extension Reference {
    /// The reference's flattening tolerance: docs/contract.md §2.4 asks for <= 0.01 px; a
    /// tenth of that keeps the reference's own flattening error (a sag of t
    /// changes a pixel's coverage by up to ~1.4 t) at 0.36 8-bit units in
    /// the worst case, so what `verify` reports is the backend's error.
    public static let fillTolerance = 0.001

    /// K4: `fill` composited source-over onto a copy of `destination`, as
    /// width * height * 4 unrounded premultiplied values.
    public static func fill(_ fill: PathFill, onto destination: ImageView) -> [Double] {
        let w = destination.width, h = destination.height
        let coverage = fillCoverage(fill.path, rule: fill.rule, width: w, height: h)
        let c = fill.color.components
        var out = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let row = destination.row(y)
            for x in 0..<w {
                let m = coverage[y * w + x]
                for ch in 0..<4 {
                    out[(y * w + x) * 4 + ch] = c[ch] * m + Double(row[4 * x + ch]) * (1 - m * c.w / 255)
                }
            }
        }
        return out
    }

    /// K4's coverage m in [0, 1] per pixel (width * height values): the
    /// path flattened to `fillTolerance`, each edge's exact signed area per
    /// pixel accumulated in Double, then the fill rule.
    public static func fillCoverage(_ path: Path, rule: FillRule, width: Int, height: Int) -> [Double] {
        var acc = WindingAccumulator(width: width, height: height)
        forEachLine(of: path, tolerance: fillTolerance) { a, b in acc.add(a, b) }
        let winding = acc.winding()
        return winding.map { a in
            switch rule {
            case .nonzero:
                return min(1, abs(a))
            case .evenodd:
                let m = abs(a).truncatingRemainder(dividingBy: 2)
                return m <= 1 ? m : 2 - m
            }
        }
    }

    /// The straight segments of `path` with every curve cut into n uniform
    /// parameter steps, n from Wang's bound (max|B''| / (8 n^2) <= tol), and
    /// every sub-path closed. Plain on purpose: no adaptivity, no culling.
    public static func forEachLine(of path: Path, tolerance: Double, _ body: (Point, Point) -> Void) {
        var start = Point(0, 0), current = Point(0, 0)
        func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            let d1 = p0 - p1 * 2 + p2, d2 = p1 - p2 * 2 + p3
            let m = max(d1.length, d2.length)
            let n = max(1, Int((6 * m / (8 * tolerance)).squareRoot().rounded(.up)))
            var previous = p0
            for k in 1...n {
                let t = Double(k) / Double(n), s = 1 - t
                let p = k == n ? p3
                    : p0 * (s * s * s) + p1 * (3 * s * s * t) + p2 * (3 * s * t * t) + p3 * (t * t * t)
                body(previous, p)
                previous = p
            }
        }
        for e in path.elements {
            switch e {
            case let .move(p):
                if current != start { body(current, start) }
                start = p; current = p
            case let .line(p):
                body(current, p); current = p
            case let .quad(c, p):
                cubic(current, current + (c - current) * (2.0 / 3.0), p + (c - p) * (2.0 / 3.0), p); current = p
            case let .cubic(c1, c2, p):
                cubic(current, c1, c2, p); current = p
            case .close:
                if current != start { body(current, start) }
                current = start
            }
        }
        if current != start { body(current, start) }
    }
}

/// Accumulates, per pixel, each edge's exact signed area to the right of the
/// edge, in Double: within one pixel row an edge piece of height h inside
/// pixel column c with mean x m adds h * (c + 1 - m) to that pixel and h to
/// every pixel right of it ("cover", kept as a per-row difference array).
/// Down-going edges count +, up-going -. Pieces left of the canvas add their
/// height to the whole row; pieces right of it touch no pixel.
struct WindingAccumulator {
    let width: Int, height: Int
    var area: [Double]
    /// cover[y * (width + 1) + x]: winding added to pixels x... of row y.
    var cover: [Double]

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        area = [Double](repeating: 0, count: width * height)
        cover = [Double](repeating: 0, count: (width + 1) * height)
    }

    mutating func add(_ a: Point, _ b: Point) {
        if a.y == b.y { return }
        let dir: Double = b.y > a.y ? 1 : -1
        let (top, bottom) = a.y < b.y ? (a, b) : (b, a)
        let y0 = max(top.y, 0), y1 = min(bottom.y, Double(height))
        if y0 >= y1 { return }
        let dxdy = (bottom.x - top.x) / (bottom.y - top.y)
        for row in Int(y0.rounded(.down))..<Int(y1.rounded(.up)) {
            let ya = max(y0, Double(row)), yb = min(y1, Double(row + 1))
            if yb <= ya { continue }
            addPiece(row: row, top.x + (ya - top.y) * dxdy, ya, top.x + (yb - top.y) * dxdy, yb, dir)
        }
    }

    /// The piece (xa, ya)-(xb, yb) of one edge inside pixel row `row`.
    mutating func addPiece(row: Int, _ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ dir: Double) {
        let w = Double(width)
        let lo = min(xa, xb), hi = max(xa, xb)
        let base = row * width, coverBase = row * (width + 1)
        if hi - lo < 1e-12 {
            let x = (xa + xb) / 2, h = yb - ya
            if x < 0 { cover[coverBase] += dir * h; return }
            if x >= w { return }
            let c = Int(x.rounded(.down))
            area[base + c] += dir * h * (Double(c + 1) - x)
            cover[coverBase + c + 1] += dir * h
            return
        }
        // Height of the sub-piece between abscissae u < v (y is linear in x).
        let dydx = (yb - ya) / (xb - xa)
        func height(_ u: Double, _ v: Double) -> Double { abs((v - u) * dydx) }
        if lo < 0 { cover[coverBase] += dir * height(lo, min(hi, 0)) }
        var u = max(lo, 0)
        let end = min(hi, w)
        while u < end {
            let c = Int(u.rounded(.down))
            let v = min(end, Double(c + 1))
            let h = height(u, v)
            area[base + c] += dir * h * (Double(c + 1) - (u + v) / 2)
            cover[coverBase + c + 1] += dir * h
            u = v
        }
    }

    /// The accumulated winding a per pixel.
    func winding() -> [Double] {
        var out = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            var run = 0.0
            for x in 0..<width {
                run += cover[y * (width + 1) + x]
                out[y * width + x] = area[y * width + x] + run
            }
        }
        return out
    }
}
