import CRasterOMP

/// K7's tessellation, shared by every backend's set-up: the domain cut into
/// a lattice of small quads whose chords stay within a tolerance of the
/// surface, and the quads bucketed by strip of rows.
///
/// One lattice for the whole mesh, not one per cell: a column of cells
/// shares its segment count (the largest its cells need), so the nodes on a
/// border between two cells are the same nodes for both, evaluated once,
/// and the tessellation has no cracks or T-junctions by construction.
///
/// Segments per cell and axis: linear interpolation over a triangle is off
/// by at most R^2/2 times the largest second directional derivative (R the
/// circumradius; Waldron's bound). For a half of an hs x ht parameter box,
/// in coordinates scaled to the unit right triangle (R^2 = 1/2), that is
/// (Mss hs^2 + 2 Mst hs ht + Mtt ht^2) / 4, Mxx bounding the second
/// derivatives. With ns = ceil(sqrt((Mss + Mst) / (2 tol))) (likewise nt)
/// and 2 hs ht <= hs^2 + ht^2 this is at most tol (see `MeshGradient.bendU`).
public struct MeshLattice {
    /// Nodes along u and v.
    public let nu: Int, nv: Int
    /// Global parameters of the lattice lines (`nu` and `nv` of them).
    public let u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>
    /// Node positions, `nu * nv`, row-major (b * nu + a).
    public let nodes: UnsafeMutablePointer<SIMD2<Float>>
    /// Quads covering strip k: `stripQuads[stripStart[k] ..< stripStart[k + 1]]`.
    public let stripStart: UnsafeMutablePointer<Int32>
    public let stripQuads: UnsafeMutablePointer<Int32>
    public let strips: Int
    /// Node colours (clamped as K7 clamps) for the `coarse` variant's
    /// per-triangle interpolation, `nu * nv` like `nodes`; nil otherwise.
    public let colors: UnsafeMutablePointer<SIMD4<Float>>?

    public static let stripRows = Int(RASTER_MESH_STRIP_ROWS)

    /// Segments of cell column i (or row j) at `tolerance`.
    static func segments(_ bend: Double, tolerance: Float) -> Int {
        let n = (bend / (2 * Double(tolerance))).squareRoot().rounded(.up)
        return Int(min(max(n, 1), Double(RASTER_MESH_MAX_SEGMENTS)))
    }

    public init(_ mesh: MeshGradient, tolerance: Float, width: Int, height: Int, scratch: Scratch,
                nodeColors: Bool = false) {
        let cc = mesh.cellColumns, cr = mesh.cellRows
        func columnSegments(_ i: Int) -> Int {
            var bend = 0.0
            for j in 0..<cr { bend = max(bend, mesh.bendU[j * cc + i]) }
            return MeshLattice.segments(bend, tolerance: tolerance)
        }
        func rowSegments(_ j: Int) -> Int {
            var bend = 0.0
            for i in 0..<cc { bend = max(bend, mesh.bendV[j * cc + i]) }
            return MeshLattice.segments(bend, tolerance: tolerance)
        }
        var nu = 1, nv = 1
        for i in 0..<cc { nu += columnSegments(i) }
        for j in 0..<cr { nv += rowSegments(j) }
        let u = scratch.buffer(ScratchSlot.meshLatticeU, count: nu, of: Float.self)
        let v = scratch.buffer(ScratchSlot.meshLatticeV, count: nv, of: Float.self)
        func lines(_ p: UnsafeMutablePointer<Float>, _ cells: Int, _ segments: (Int) -> Int) {
            var k = 0
            for i in 0..<cells {
                let n = segments(i)
                for a in 0..<n { p[k] = Float(i) + Float(a) / Float(n); k += 1 }
            }
            p[k] = Float(cells)
        }
        lines(u, cc, columnSegments)
        lines(v, cr, rowSegments)

        let nodes = scratch.buffer(ScratchSlot.meshNodes, count: nu * nv, of: SIMD2<Float>.self)
        let colors = nodeColors ? scratch.buffer(ScratchSlot.meshNodeColors, count: nu * nv, of: SIMD4<Float>.self) : nil
        mesh.coefficients.withUnsafeBufferPointer { coeff in
            for b in 0..<nv {
                let (j, t) = MeshShade.cell(v[b], cr)
                for a in 0..<nu {
                    let (i, s) = MeshShade.cell(u[a], cc)
                    let cell = coeff.baseAddress! + (j * cc + i) * MeshPatches.stride
                    nodes[b * nu + a] = MeshShade.position(cell, s, t)
                    colors?[b * nu + a] = MeshShade.color(cell, s, t)
                }
            }
        }

        // Bucket the quads by strip: count, prefix-sum, fill.
        let strips = (height + MeshLattice.stripRows - 1) / MeshLattice.stripRows
        let stripStart = scratch.buffer(ScratchSlot.meshStripStart, count: strips + 1, of: Int32.self)
        stripStart.update(repeating: 0, count: strips + 1)
        @inline(__always) func stripRange(_ q: Int) -> ClosedRange<Int>? {
            let a = q % (nu - 1), b = q / (nu - 1)
            let p = (nodes[b * nu + a], nodes[b * nu + a + 1], nodes[(b + 1) * nu + a], nodes[(b + 1) * nu + a + 1])
            let lo = pointwiseMin(pointwiseMin(p.0, p.1), pointwiseMin(p.2, p.3))
            let hi = pointwiseMax(pointwiseMax(p.0, p.1), pointwiseMax(p.2, p.3))
            // Pixel centres c + 0.5 within the box (widened by a hair, as the
            // inside test is): rows ceil(lo - 0.5) ... floor(hi - 0.5).
            guard hi.x >= 0, lo.x <= Float(width), hi.y >= 0, lo.y <= Float(height) else { return nil }
            let y0 = max(0, Int((lo.y - 0.5 - 0.01).rounded(.up)))
            let y1 = min(height - 1, Int((hi.y - 0.5 + 0.01).rounded(.down)))
            guard y0 <= y1 else { return nil }
            return (y0 / MeshLattice.stripRows)...(y1 / MeshLattice.stripRows)
        }
        let quads = (nu - 1) * (nv - 1)
        for q in 0..<quads {
            guard let r = stripRange(q) else { continue }
            for k in r { stripStart[k + 1] += 1 }
        }
        for k in 0..<strips { stripStart[k + 1] += stripStart[k] }
        let stripQuads = scratch.buffer(ScratchSlot.meshStripQuads, count: max(1, Int(stripStart[strips])), of: Int32.self)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: strips) { fill in
            for k in 0..<strips { fill[k] = stripStart[k] }
            for q in 0..<quads {
                guard let r = stripRange(q) else { continue }
                for k in r { stripQuads[Int(fill[k])] = Int32(q); fill[k] += 1 }
            }
        }
        self.nu = nu; self.nv = nv; self.u = u; self.v = v; self.nodes = nodes; self.colors = colors
        self.strips = strips; self.stripStart = stripStart; self.stripQuads = stripQuads
    }

    /// The quads of strip k.
    @inline(__always)
    public func quads(ofStrip k: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: stripQuads + Int(stripStart[k]), count: Int(stripStart[k + 1] - stripStart[k]))
    }

    /// Rows of strip k in an image `height` rows tall.
    @inline(__always)
    public static func rows(ofStrip k: Int, height: Int) -> Range<Int> {
        k * stripRows ..< min((k + 1) * stripRows, height)
    }
}
