import CRasterOMP

/// K7's first pass: the lattice's quads (two triangles each) rasterised at
/// pixel centres into per-pixel (u, v) winner planes.
///
/// Inside a triangle (u, v) is interpolated linearly from its nodes (and
/// kept within its quad's parameter box). A pixel covered more than once
/// (a fold, or a centre on a shared edge) keeps the largest v, then the
/// largest u: The fold rule of docs/contract.md §2.7, applied as a maximum of a total order, so
/// the winner does not depend on the order in which quads are drawn, and
/// every value a pixel can receive is computed from the triangle alone (not
/// from the strip or band), so nothing depends on the thread count.
/// Planes start at `empty` (v < 0: no preimage).
public struct MeshRaster {
    public let lattice: MeshLattice
    /// Image width; the planes hold `width` floats per row, row `originRow` first.
    public let width: Int
    public let originRow: Int
    public let planeU: UnsafeMutablePointer<Float>, planeV: UnsafeMutablePointer<Float>
    /// The `coarse` variant: four more planes (r, g, b, a, `planeStride`
    /// floats apart) receive the winner's colour, interpolated linearly from
    /// the triangle's node colours (`lattice.colors`); nil otherwise.
    public let planeC: UnsafeMutablePointer<Float>?
    public let planeStride: Int

    public static let empty: Float = -1

    public init(lattice: MeshLattice, width: Int, originRow: Int,
                planeU: UnsafeMutablePointer<Float>, planeV: UnsafeMutablePointer<Float>,
                planeC: UnsafeMutablePointer<Float>? = nil, planeStride: Int = 0) {
        self.lattice = lattice; self.width = width; self.originRow = originRow
        self.planeU = planeU; self.planeV = planeV; self.planeC = planeC; self.planeStride = planeStride
    }

    /// Quad q's two triangles, within `rows`.
    @inline(__always)
    public func quad(_ q: Int, rows: Range<Int>) {
        let nu = lattice.nu
        let a = q % (nu - 1), b = q / (nu - 1)
        let p00 = lattice.nodes[b * nu + a], p10 = lattice.nodes[b * nu + a + 1]
        let p01 = lattice.nodes[(b + 1) * nu + a], p11 = lattice.nodes[(b + 1) * nu + a + 1]
        let lo = SIMD2(lattice.u[a], lattice.v[b]), hi = SIMD2(lattice.u[a + 1], lattice.v[b + 1])
        var c = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        if let colors = lattice.colors {
            c = (colors[b * nu + a], colors[b * nu + a + 1], colors[(b + 1) * nu + a], colors[(b + 1) * nu + a + 1])
        }
        triangle(p00, p10, p11, lo, SIMD2(hi.x, lo.y), hi, c.0, c.1, c.3, lo: lo, hi: hi, rows: rows)
        triangle(p00, p11, p01, lo, hi, SIMD2(lo.x, hi.y), c.0, c.3, c.2, lo: lo, hi: hi, rows: rows)
    }

    /// One triangle: nodes p0, p1, p2 at parameters w0, w1, w2. Scalar
    /// Floats rather than SIMD2: the same code in release, and a debug build
    /// (the tests) does not pay for generic SIMD calls per pixel.
    @inline(__always)
    func triangle(_ p0: SIMD2<Float>, _ p1: SIMD2<Float>, _ p2: SIMD2<Float>,
                  _ w0: SIMD2<Float>, _ w1: SIMD2<Float>, _ w2: SIMD2<Float>,
                  _ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>,
                  lo: SIMD2<Float>, hi: SIMD2<Float>, rows: Range<Int>) {
        let p0x = p0.x, p0y = p0.y
        let d1x = p1.x - p0x, d1y = p1.y - p0y, d2x = p2.x - p0x, d2y = p2.y - p0y
        let area = d1x * d2y - d1y * d2x
        guard area != 0, area.isFinite else { return }
        let inv = 1 / area
        let w0u = w0.x, w0v = w0.y
        let e1u = w1.x - w0u, e1v = w1.y - w0v, e2u = w2.x - w0u, e2v = w2.y - w0v
        let uLo = lo.x, vLo = lo.y, uHi = hi.x, vHi = hi.y
        let slack = RASTER_MESH_EDGE_SLACK
        let bx0 = min(p0x, min(p1.x, p2.x)), bx1 = max(p0x, max(p1.x, p2.x))
        let by0 = min(p0y, min(p1.y, p2.y)), by1 = max(p0y, max(p1.y, p2.y))
        let y0 = max(rows.lowerBound, Int(max(by0 - 0.5 - 0.01, -1).rounded(.up)))
        let y1 = min(rows.upperBound - 1, Int(min(by1 - 0.5 + 0.01, Float(rows.upperBound)).rounded(.down)))
        guard y0 <= y1 else { return }
        let x0 = max(0, Int(max(bx0 - 0.5 - 0.01, -1).rounded(.up)))
        let x1 = min(width - 1, Int(min(bx1 - 0.5 + 0.01, Float(width)).rounded(.down)))
        guard x0 <= x1 else { return }
        // Barycentric slopes along x: l1 = ((qx - p0x) d2y - (qy - p0y) d2x) / area,
        // l2 = ((qy - p0y) d1x - (qx - p0x) d1y) / area, l0 = 1 - l1 - l2.
        let m1 = d2y * inv, m2 = -d1y * inv, m0 = -(m1 + m2)
        for y in y0...y1 {
            let qy = Float(y) + 0.5 - p0y
            // The span where every barycentric >= -slack, widened by a pixel
            // (the per-pixel test below decides; the span only saves work).
            var xa = x0, xb = x1
            let qx0 = Float(x0) + 0.5 - p0x
            let l1 = (qx0 * d2y - qy * d2x) * inv, l2 = (qy * d1x - qx0 * d1y) * inv
            @inline(__always) func clip(_ l: Float, _ m: Float) {
                if m > 0 {
                    let bound = Float(x0) + (-slack - l) / m
                    if bound > Float(xb + 1) { xa = xb + 1 } else if bound > Float(xa) { xa = max(xa, Int(bound.rounded(.up)) - 1) }
                } else if m < 0 {
                    let bound = Float(x0) + (-slack - l) / m
                    if bound < Float(xa - 1) { xb = xa - 1 } else if bound < Float(xb) { xb = min(xb, Int(bound.rounded(.down)) + 1) }
                } else if l < -slack {
                    xb = xa - 1
                }
            }
            clip(1 - l1 - l2, m0); clip(l1, m1); clip(l2, m2)
            guard xa <= xb else { continue }
            let row = (y - originRow) * width
            // Branch-free (selects, unconditional stores) so that LLVM
            // vectorises the span; the inside test as one compare of the
            // smallest barycentric.
            if let planeC {
                for x in xa...xb {
                    let qx = Float(x) + 0.5 - p0x
                    let b1 = (qx * d2y - qy * d2x) * inv, b2 = (qy * d1x - qx * d1y) * inv
                    let u = min(max(w0u + b1 * e1u + b2 * e2u, uLo), uHi)
                    let v = min(max(w0v + b1 * e1v + b2 * e2v, vLo), vHi)
                    let k = row + x
                    let bu = planeU[k], bv = planeV[k]
                    let win = min(min(b1, b2), 1 - b1 - b2) >= -slack && (v > bv || (v == bv && u > bu))
                    planeU[k] = win ? u : bu; planeV[k] = win ? v : bv
                    @inline(__always) func channel(_ ch: Int, _ a: Float, _ b: Float, _ c: Float) {
                        let p = planeC + ch * planeStride + k
                        p.pointee = win ? a + b1 * (b - a) + b2 * (c - a) : p.pointee
                    }
                    channel(0, c0.x, c1.x, c2.x); channel(1, c0.y, c1.y, c2.y)
                    channel(2, c0.z, c1.z, c2.z); channel(3, c0.w, c1.w, c2.w)
                }
            } else {
                for x in xa...xb {
                    let qx = Float(x) + 0.5 - p0x
                    let b1 = (qx * d2y - qy * d2x) * inv, b2 = (qy * d1x - qx * d1y) * inv
                    let u = min(max(w0u + b1 * e1u + b2 * e2u, uLo), uHi)
                    let v = min(max(w0v + b1 * e1v + b2 * e2v, vLo), vHi)
                    let k = row + x
                    let bu = planeU[k], bv = planeV[k]
                    let win = min(min(b1, b2), 1 - b1 - b2) >= -slack && (v > bv || (v == bv && u > bu))
                    planeU[k] = win ? u : bu; planeV[k] = win ? v : bv
                }
            }
        }
    }
}
