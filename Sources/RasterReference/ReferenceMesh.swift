import Foundation
import RasterKit

/// K7 in double precision, as docs/contract.md §2.7 states it: every preimage of every pixel
/// centre, the fold rule, the bicubic colour there.
///
/// Each cell's Hermite patch is rewritten in Bezier form (corner values,
/// edge controls at a third of the Catmull-Rom derivative, interior controls
/// with zero twist), which has the convex hull property: a sub-patch's
/// position lies inside the bounding box of its control points. Root
/// finding subdivides each cell (de Casteljau at the middle of s and t)
/// while the box holds a pixel centre and is larger than a few pixels; in
/// each leaf, Newton's method on position(s, t) = q from the leaf's centre
/// (then its corners) converges to full precision, and a root is kept when
/// it lies in the leaf's parameter box. Leaves cover the cell, so every root
/// is found; roots found twice (on leaf borders) are merged.
public struct ReferenceMeshPatch {
    /// Control points b[l * 4 + k] (k along s, l along t) of (x, y, r, g, b, a, 0, 0).
    public var b: [SIMD8<Double>]
    /// The position channels of `b`, for the root finder's hot loops.
    let xs: SIMD16<Double>, ys: SIMD16<Double>
    public let i: Int, j: Int

    /// The Bezier form of cell (i, j) of `m`.
    public init(_ m: MeshGradient, i: Int, j: Int) {
        let c = m.columns, r = m.rows
        func at(_ i: Int, _ j: Int) -> SIMD8<Double> {
            let p = m.position(i, j), col = m.color(i, j)
            return SIMD8(p.x, p.y, col.r, col.g, col.b, col.a, 0, 0)
        }
        func du(_ i: Int, _ j: Int) -> SIMD8<Double> {
            i == 0 ? at(1, j) - at(0, j) : i == c - 1 ? at(c - 1, j) - at(c - 2, j) : (at(i + 1, j) - at(i - 1, j)) / 2
        }
        func dv(_ i: Int, _ j: Int) -> SIMD8<Double> {
            j == 0 ? at(i, 1) - at(i, 0) : j == r - 1 ? at(i, r - 1) - at(i, r - 2) : (at(i, j + 1) - at(i, j - 1)) / 2
        }
        var b = [SIMD8<Double>](repeating: SIMD8(), count: 16)
        for cj in 0..<2 {
            for ci in 0..<2 {
                // Corner (ci, cj) and its neighbours towards the cell's inside.
                let k = 3 * ci, l = 3 * cj
                let sk = ci == 0 ? 1.0 : -1.0, sl = cj == 0 ? 1.0 : -1.0
                let p = at(i + ci, j + cj), u = du(i + ci, j + cj) / 3, v = dv(i + ci, j + cj) / 3
                b[l * 4 + k] = p
                b[l * 4 + k + Int(sk)] = p + sk * u
                b[(l + Int(sl)) * 4 + k] = p + sl * v
                b[(l + Int(sl)) * 4 + k + Int(sk)] = p + sk * u + sl * v // zero twist
            }
        }
        self.b = b; self.i = i; self.j = j
        var xs = SIMD16<Double>(), ys = SIMD16<Double>()
        for k in 0..<16 { xs[k] = b[k][0]; ys[k] = b[k][1] }
        self.xs = xs; self.ys = ys
    }

    /// The 16 products a[k] * c[l] at index l * 4 + k.
    static func outer(_ a: SIMD4<Double>, _ c: SIMD4<Double>) -> SIMD16<Double> {
        SIMD16(lowHalf: SIMD8(lowHalf: a * c[0], highHalf: a * c[1]), highHalf: SIMD8(lowHalf: a * c[2], highHalf: a * c[3]))
    }

    static func bernstein(_ s: Double) -> SIMD4<Double> {
        let r = 1 - s
        return SIMD4(r * r * r, 3 * s * r * r, 3 * s * s * r, s * s * s)
    }

    static func bernsteinDerivative(_ s: Double) -> SIMD4<Double> {
        let r = 1 - s
        return 3 * SIMD4(-r * r, r * r - 2 * s * r, 2 * s * r - s * s, s * s)
    }

    /// V(s, t), all channels.
    public func value(_ s: Double, _ t: Double) -> SIMD8<Double> {
        let bs = Self.bernstein(s), bt = Self.bernstein(t)
        var out = SIMD8<Double>()
        for l in 0..<4 { for k in 0..<4 { out += bs[k] * bt[l] * b[l * 4 + k] } }
        return out
    }

    /// Position and its partial derivatives at (s, t).
    public func position(_ s: Double, _ t: Double) -> (p: SIMD2<Double>, ds: SIMD2<Double>, dt: SIMD2<Double>) {
        let bs = Self.bernstein(s), bt = Self.bernstein(t)
        let w = Self.outer(bs, bt), ws = Self.outer(Self.bernsteinDerivative(s), bt)
        let wt = Self.outer(bs, Self.bernsteinDerivative(t))
        return (SIMD2((w * xs).sum(), (w * ys).sum()), SIMD2((ws * xs).sum(), (ws * ys).sum()),
                SIMD2((wt * xs).sum(), (wt * ys).sum()))
    }

    /// The Jacobian determinant of position at (s, t).
    public func jacobian(_ s: Double, _ t: Double) -> Double {
        let (_, ps, pt) = position(s, t)
        return ps.x * pt.y - ps.y * pt.x
    }

    /// Newton's method on position(s, t) = q from (s, t): the root, or nil
    /// when it does not converge (a singular Jacobian: a fold).
    public func solve(_ q: SIMD2<Double>, from start: SIMD2<Double>) -> SIMD2<Double>? {
        var st = start
        for _ in 0..<50 {
            let (p, ps, pt) = position(st.x, st.y)
            let e = p - q
            let det = ps.x * pt.y - ps.y * pt.x
            guard det != 0, det.isFinite else { return nil }
            let step = SIMD2(pt.y * e.x - pt.x * e.y, ps.x * e.y - ps.y * e.x) / det
            st -= step
            guard abs(st.x) < 8, abs(st.y) < 8 else { return nil }
            if abs(step.x) + abs(step.y) < 1e-14 { break }
        }
        let p = position(st.x, st.y).p
        let scale = max(1, abs(q.x), abs(q.y))
        return (p - q).x.magnitude + (p - q).y.magnitude <= 1e-9 * scale ? st : nil
    }
}

/// Every preimage found, per pixel.
public struct MeshPreimages {
    public let width: Int, height: Int
    /// The first root of each pixel (global (u, v)), nil for none.
    var first: [SIMD2<Double>?]
    /// Further roots of pixels that have several (folds, overlaps).
    var extra: [Int: [SIMD2<Double>]] = [:]

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        first = Array(repeating: nil, count: width * height)
    }

    /// Adds a root unless it is one already found (leaf borders).
    mutating func add(_ k: Int, _ root: SIMD2<Double>) {
        func same(_ a: SIMD2<Double>) -> Bool { abs(a.x - root.x) + abs(a.y - root.y) < 1e-8 }
        guard let f = first[k] else { first[k] = root; return }
        if same(f) { return }
        if let more = extra[k], more.contains(where: same) { return }
        extra[k, default: []].append(root)
    }

    /// All distinct preimages (u, v) of pixel (x, y)'s centre.
    public func roots(_ x: Int, _ y: Int) -> [SIMD2<Double>] {
        let k = y * width + x
        guard let f = first[k] else { return [] }
        return [f] + (extra[k] ?? [])
    }

    /// The fold rule of docs/contract.md §2.7: the largest v, then the largest u.
    public func winner(_ x: Int, _ y: Int) -> SIMD2<Double>? {
        roots(x, y).max { ($0.y, $0.x) < ($1.y, $1.x) }
    }
}

extension Reference {
    static func meshPatches(_ m: MeshGradient) -> [ReferenceMeshPatch] {
        (0..<(m.rows - 1)).flatMap { j in (0..<(m.columns - 1)).map { i in ReferenceMeshPatch(m, i: i, j: j) } }
    }

    /// A sub-patch's position net: control points (xs[l * 4 + k], ys[l * 4 + k]).
    struct Net {
        var xs: SIMD16<Double>, ys: SIMD16<Double>

        var box: (SIMD2<Double>, SIMD2<Double>) { (SIMD2(xs.min(), ys.min()), SIMD2(xs.max(), ys.max())) }

        /// Splits at the middle of s (`alongS`) or t (de Casteljau).
        func split(alongS: Bool) -> (Net, Net) {
            var left = self, right = self
            for line in 0..<4 {
                func idx(_ n: Int) -> Int { alongS ? line * 4 + n : n * 4 + line }
                func halve(_ v: SIMD16<Double>, _ l: inout SIMD16<Double>, _ r: inout SIMD16<Double>) {
                    let p0 = v[idx(0)], p1 = v[idx(1)], p2 = v[idx(2)], p3 = v[idx(3)]
                    let a = (p0 + p1) / 2, m = (p1 + p2) / 2, c = (p2 + p3) / 2
                    let d = (a + m) / 2, e = (m + c) / 2, f = (d + e) / 2
                    l[idx(1)] = a; l[idx(2)] = d; l[idx(3)] = f
                    r[idx(0)] = f; r[idx(1)] = e; r[idx(2)] = c
                }
                halve(xs, &left.xs, &right.xs)
                halve(ys, &left.ys, &right.ys)
            }
            return (left, right)
        }
    }

    /// Visits sub-patches of `patch` depth-first; `visit` gets the net, its
    /// parameter box and depth and returns whether to subdivide further.
    static func subdivide(_ patch: ReferenceMeshPatch, _ visit: (Net, SIMD2<Double>, SIMD2<Double>, Int) -> Bool) {
        func recurse(_ net: Net, _ lo: SIMD2<Double>, _ hi: SIMD2<Double>, _ depth: Int) {
            guard visit(net, lo, hi, depth) else { return }
            let mid = (lo + hi) / 2
            let (a, b) = net.split(alongS: true)
            let (a0, a1) = a.split(alongS: false), (b0, b1) = b.split(alongS: false)
            recurse(a0, lo, mid, depth + 1)
            recurse(a1, SIMD2(lo.x, mid.y), SIMD2(mid.x, hi.y), depth + 1)
            recurse(b0, SIMD2(mid.x, lo.y), SIMD2(hi.x, mid.y), depth + 1)
            recurse(b1, mid, hi, depth + 1)
        }
        recurse(Net(xs: patch.xs, ys: patch.ys), SIMD2(0, 0), SIMD2(1, 1), 0)
    }

    /// Every preimage (u, v) in the domain of every pixel centre.
    public static func meshPreimages(_ m: MeshGradient, width: Int, height: Int) -> MeshPreimages {
        var out = MeshPreimages(width: width, height: height)
        for patch in meshPatches(m) {
            subdivide(patch) { net, lo, hi, depth in
                let (bl, bh) = net.box
                // Pixel centres (x + 0.5) inside the box.
                let x0 = max(0, Int((bl.x - 0.5 - 1e-9).rounded(.up))), x1 = min(width - 1, Int((bh.x - 0.5 + 1e-9).rounded(.down)))
                let y0 = max(0, Int((bl.y - 0.5 - 1e-9).rounded(.up))), y1 = min(height - 1, Int((bh.y - 0.5 + 1e-9).rounded(.down)))
                guard x0 <= x1, y0 <= y1 else { return false }
                if max(bh.x - bl.x, bh.y - bl.y) > 4, depth < 22 { return true }
                let starts = [(lo + hi) / 2, lo, hi, SIMD2(lo.x, hi.y), SIMD2(hi.x, lo.y)]
                let eps = 1e-10
                for y in y0...y1 {
                    for x in x0...x1 {
                        let q = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                        for s in starts {
                            guard let r = patch.solve(q, from: s) else { continue }
                            guard r.x >= lo.x - eps, r.x <= hi.x + eps, r.y >= lo.y - eps, r.y <= hi.y + eps else { continue }
                            let c = SIMD2(min(max(r.x, 0), 1), min(max(r.y, 0), 1))
                            out.add(y * width + x, SIMD2(Double(patch.i) + c.x, Double(patch.j) + c.y))
                            break
                        }
                    }
                }
                return false
            }
        }
        return out
    }

    /// K7's colour plane (premultiplied, unrounded; zero where no preimage).
    public static func meshColors(_ m: MeshGradient, width: Int, height: Int) -> [Double] {
        let roots = meshPreimages(m, width: width, height: height)
        let patches = meshPatches(m)
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                guard let w = roots.winner(x, y) else { continue }
                let i = min(Int(w.x), m.columns - 2), j = min(Int(w.y), m.rows - 2)
                let v = patches[j * (m.columns - 1) + i].value(w.x - Double(i), w.y - Double(j))
                let a = min(max(v[5], 0), 255)
                let k = (y * width + x) * 4
                for ch in 0..<3 { out[k + ch] = min(max(v[2 + ch], 0), a) }
                out[k + 3] = a
            }
        }
        return out
    }

    /// The pixels docs/contract.md §2.7 excludes from K7's bound: centres within 1 px of the
    /// boundary curve (the image of the domain's border) or of a fold
    /// (where the Jacobian of position(u, v) is zero or changes sign).
    /// Sub-patches are subdivided to 8 px; those on the domain's border or
    /// whose Jacobian changes sign (or vanishes) at a 3x3 sample are
    /// subdivided on to half a pixel, and every centre within 1 px of such a
    /// leaf's box is excluded (a slightly wider band than the curve's 1 px).
    public static func meshExclusion(_ m: MeshGradient, width: Int, height: Int) -> [Bool] {
        var out = [Bool](repeating: false, count: width * height)
        let cc = m.columns - 1, cr = m.rows - 1
        for patch in meshPatches(m) {
            // The Jacobian's scale, to call a determinant "zero" relative to it.
            var scale = 0.0
            for s in [0.0, 0.5, 1] { for t in [0.0, 0.5, 1] { scale = max(scale, abs(patch.jacobian(s, t))) } }
            subdivide(patch) { net, lo, hi, depth in
                let (bl, bh) = net.box
                guard bh.x >= -1.5, bl.x <= Double(width) + 1.5, bh.y >= -1.5, bl.y <= Double(height) + 1.5 else { return false }
                let size = max(bh.x - bl.x, bh.y - bl.y)
                if size > 8, depth < 24 { return true }
                let border = (patch.i == 0 && lo.x == 0) || (patch.i == cc - 1 && hi.x == 1)
                    || (patch.j == 0 && lo.y == 0) || (patch.j == cr - 1 && hi.y == 1)
                var fold = false
                if !border {
                    var neg = false, pos = false
                    for a in 0...2 {
                        for b in 0...2 {
                            let d = patch.jacobian(lo.x + (hi.x - lo.x) * Double(a) / 2, lo.y + (hi.y - lo.y) * Double(b) / 2)
                            if d <= 1e-9 * scale { neg = true }
                            if d >= -1e-9 * scale { pos = true }
                        }
                    }
                    fold = neg && pos
                }
                guard border || fold else { return false }
                if size > 0.5, depth < 30 { return true }
                let x0 = max(0, Int((bl.x - 1.5).rounded(.up))), x1 = min(width - 1, Int((bh.x + 0.5).rounded(.down)))
                let y0 = max(0, Int((bl.y - 1.5).rounded(.up))), y1 = min(height - 1, Int((bh.y + 0.5).rounded(.down)))
                guard x0 <= x1, y0 <= y1 else { return false }
                for y in y0...y1 { for x in x0...x1 { out[y * width + x] = true } }
                return false
            }
        }
        return out
    }
}
