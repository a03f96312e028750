/// K7 at one pixel in Float, from its cell's power-basis coefficients (see
/// `MeshPatches`): the position and its Jacobian for the Newton step, and
/// the clamped colour. The scalar path of every Swift backend (and the
/// formulae the SIMD and C paths vectorise).
public enum MeshShade {
    /// The cell holding global parameter p along an axis of `cells` cells,
    /// and the local coordinate in it. p = cells (the far border) belongs
    /// to the last cell (local 1).
    @inline(__always)
    public static func cell(_ p: Float, _ cells: Int) -> (Int, Float) {
        let i = min(max(Int(p), 0), cells - 1)
        return (i, p - Float(i))
    }

    /// Channel `ch` of a cell's surface at (s, t) and its two partial derivatives.
    @inline(__always)
    static func channel(_ a: UnsafePointer<Float>, _ s: Float, _ t: Float) -> (Float, Float, Float) {
        var r = (Float(0), Float(0), Float(0), Float(0)), d = (Float(0), Float(0), Float(0), Float(0))
        @inline(__always) func row(_ l: Int) -> (Float, Float) {
            let c = a + 4 * l
            return (((c[3] * s + c[2]) * s + c[1]) * s + c[0], (3 * c[3] * s + 2 * c[2]) * s + c[1])
        }
        (r.0, d.0) = row(0); (r.1, d.1) = row(1); (r.2, d.2) = row(2); (r.3, d.3) = row(3)
        let value = ((r.3 * t + r.2) * t + r.1) * t + r.0
        let ds = ((d.3 * t + d.2) * t + d.1) * t + d.0
        let dt = (3 * r.3 * t + 2 * r.2) * t + r.1
        return (value, ds, dt)
    }

    /// Channel value only.
    @inline(__always)
    public static func value(_ a: UnsafePointer<Float>, _ s: Float, _ t: Float) -> Float {
        @inline(__always) func row(_ l: Int) -> Float {
            let c = a + 4 * l
            return ((c[3] * s + c[2]) * s + c[1]) * s + c[0]
        }
        return ((row(3) * t + row(2)) * t + row(1)) * t + row(0)
    }

    /// Position of a cell's patch at (s, t).
    @inline(__always)
    public static func position(_ cell: UnsafePointer<Float>, _ s: Float, _ t: Float) -> SIMD2<Float> {
        SIMD2(value(cell, s, t), value(cell + 16, s, t))
    }

    /// One Newton step on position(s, t) = q from (s, t), the result kept
    /// within the domain (global u in [0, cells]); a singular Jacobian (a
    /// fold, where the bound of docs/contract.md §3 does not apply) leaves (s, t) as it is.
    @inline(__always)
    public static func refine(_ cell: UnsafePointer<Float>, _ s: Float, _ t: Float, q: SIMD2<Float>,
                              i: Int, j: Int, cc: Int, cr: Int) -> (Float, Float) {
        let (x, xs, xt) = channel(cell, s, t)
        let (y, ys, yt) = channel(cell + 16, s, t)
        let ex = x - q.x, ey = y - q.y
        let det = xs * yt - xt * ys
        guard det != 0 else { return (s, t) }
        let inv = 1 / det
        let s1 = s - (yt * ex - xt * ey) * inv
        let t1 = t - (xs * ey - ys * ex) * inv
        // Within the domain, and within one cell of this one (a far jump
        // means Newton left its basin: a fold, excluded from the bound).
        return (min(max(s1, max(-Float(i), -1)), min(Float(cc - i), 2)),
                min(max(t1, max(-Float(j), -1)), min(Float(cr - j), 2)))
    }

    /// The clamped premultiplied colour (8-bit units) of a cell's patch at (s, t).
    @inline(__always)
    public static func color(_ cell: UnsafePointer<Float>, _ s: Float, _ t: Float) -> SIMD4<Float> {
        let a = min(max(value(cell + 80, s, t), 0), 255)
        return SIMD4(min(max(value(cell + 32, s, t), 0), a), min(max(value(cell + 48, s, t), 0), a),
                     min(max(value(cell + 64, s, t), 0), a), a)
    }

    /// The colour at global (u, v) for pixel centre q: cell lookup, the
    /// Newton step if the cell's flag in `newton` is set (nil: never),
    /// colour. `coefficients` and `newton` as in `MeshGradient`.
    @inline(__always)
    public static func pixel(_ coefficients: UnsafePointer<Float>, cc: Int, cr: Int, u: Float, v: Float,
                             q: SIMD2<Float>, newton: UnsafePointer<UInt8>?) -> SIMD4<Float> {
        let (i, s0) = cell(u, cc), (j, t0) = cell(v, cr)
        let c = coefficients + (j * cc + i) * MeshPatches.stride
        var s = s0, t = t0
        if let newton, newton[j * cc + i] != 0 { (s, t) = MeshShade.refine(c, s, t, q: q, i: i, j: j, cc: cc, cr: cr) }
        return color(c, s, t)
    }

    /// Source-over of `c` onto four bytes at `p`, rounded to nearest.
    @inline(__always)
    public static func over(_ c: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        let k = 1 - c.w * (1 / 255)
        @inline(__always) func ch(_ i: Int, _ v: Float) {
            p[i] = UInt8(min(max(v + Float(p[i]) * k, 0), 255) + 0.5)
        }
        ch(0, c.x); ch(1, c.y); ch(2, c.z); ch(3, c.w)
    }
}
