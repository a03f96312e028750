extension SIMDBackend {
    /// K7 strip by strip: each band of threads takes a contiguous run of
    /// `MeshLattice.stripRows`-row strips; per strip it rasterises the
    /// strip's quads into (u, v) planes of its own (cache-resident), then
    /// shades the strip's rows a vector of pixels at a time. The lattice and
    /// the strips are the same whatever the banding, and each pixel's value
    /// comes from its triangle and its vector (whose columns start at 0 in
    /// every row), so the image does not depend on the thread count.
    public func mesh(_ mesh: MeshGradient, variant: MeshVariant, onto dst: ImageView, scratch: Scratch) throws {
        let gouraud = variant.interpolatesColor
        let lattice = MeshLattice(mesh, tolerance: variant.tolerance, width: dst.width, height: dst.height,
                                  scratch: scratch, nodeColors: gouraud)
        // Several bands of strips per thread (`RowBands`); each strip sets
        // up its own planes, so a band costs no more set-up than its strips.
        let bands = RowBands(items: lattice.strips, threads: threads)
        scratch.reserveBands(bands.workers)
        let width = dst.width, height = dst.height
        // One vector of slack: the shading reads whole vectors past the row's end.
        let planeCount = width * MeshLattice.stripRows + Lanes.width
        let cc = mesh.cellColumns, cr = mesh.cellRows
        mesh.coefficients.withUnsafeBufferPointer { coeff in mesh.withNewtonCells(variant) { newton in
            let shader = SIMDMeshShader(coefficients: coeff.baseAddress!, cc: cc, cr: cr, newton: newton)
            bands.run { worker, strips in
                let own = scratch.band(worker)
                let planeU = own.buffer(ScratchSlot.meshWinnerU, count: planeCount, of: Float.self)
                let planeV = own.buffer(ScratchSlot.meshWinnerV, count: planeCount, of: Float.self)
                let planeC = gouraud ? own.buffer(ScratchSlot.meshColorPlanes, count: 4 * planeCount, of: Float.self) : nil
                for k in strips {
                    let quads = lattice.quads(ofStrip: k)
                    if quads.isEmpty { continue }
                    let rows = MeshLattice.rows(ofStrip: k, height: height)
                    planeV.update(repeating: MeshRaster.empty, count: rows.count * width + Lanes.width)
                    let raster = MeshRaster(lattice: lattice, width: width, originRow: rows.lowerBound,
                                            planeU: planeU, planeV: planeV, planeC: planeC, planeStride: planeCount)
                    for q in quads { raster.quad(Int(q), rows: rows) }
                    for y in rows {
                        let off = (y - rows.lowerBound) * width
                        if let planeC {
                            SIMDMeshShader.composite(planeC + off, planeStride: planeCount, v: planeV + off, dst: dst.row(y), width: width)
                        } else {
                            shader.row(u: planeU + off, v: planeV + off, y: y, dst: dst.row(y), width: width)
                        }
                    }
                }
            }
        } }
    }
}

/// K7's second pass over one row, `Lanes.width` pixels at a time: where a
/// vector's covered pixels share one cell (nearly always: a row crosses a
/// cell border only C - 1 times), the cell's coefficients are broadcast and
/// the Newton step and bicubic colour run as vector arithmetic; otherwise
/// each covered pixel takes the scalar path (`MeshShade.pixel`).
struct SIMDMeshShader {
    let coefficients: UnsafePointer<Float>
    let cc: Int, cr: Int
    /// Per-cell Newton flags (nil: none), see `MeshGradient.newtonCells`.
    let newton: UnsafePointer<UInt8>?

    /// One channel's value and its partial derivatives in s and t.
    @inline(__always)
    static func channel(_ a: UnsafePointer<Float>, _ s: FloatLanes, _ t: FloatLanes)
        -> (FloatLanes, FloatLanes, FloatLanes) {
        @inline(__always) func row(_ l: Int) -> (FloatLanes, FloatLanes) {
            let c = a + 4 * l
            let c0 = FloatLanes(repeating: c[0]), c1 = FloatLanes(repeating: c[1])
            let c2 = FloatLanes(repeating: c[2]), c3 = FloatLanes(repeating: c[3])
            let v = ((c3 * s + c2) * s + c1) * s + c0
            let d = (3 * c3 * s + 2 * c2) * s + c1
            return (v, d)
        }
        let (r0, d0) = row(0), (r1, d1) = row(1), (r2, d2) = row(2), (r3, d3) = row(3)
        return (((r3 * t + r2) * t + r1) * t + r0,
                ((d3 * t + d2) * t + d1) * t + d0,
                (3 * r3 * t + 2 * r2) * t + r1)
    }

    @inline(__always)
    static func value(_ a: UnsafePointer<Float>, _ s: FloatLanes, _ t: FloatLanes) -> FloatLanes {
        @inline(__always) func row(_ l: Int) -> FloatLanes {
            let c = a + 4 * l
            return ((FloatLanes(repeating: c[3]) * s + FloatLanes(repeating: c[2])) * s
                    + FloatLanes(repeating: c[1])) * s + FloatLanes(repeating: c[0])
        }
        return ((row(3) * t + row(2)) * t + row(1)) * t + row(0)
    }

    /// The `coarse` variant's second pass: the raster's interpolated colours
    /// (four planes `planeStride` apart), source-over where covered.
    @inline(__always)
    static func composite(_ c: UnsafeMutablePointer<Float>, planeStride: Int, v: UnsafeMutablePointer<Float>,
                          dst: UnsafeMutablePointer<UInt8>, width: Int) {
        // A plain loop without nested functions: the allocation test saw a
        // heap context per vector on worker threads with nested closures here.
        var x = 0
        while x < width {
            let n = min(Lanes.width, width - x)
            var covered = UnsafeRawPointer(v + x).loadUnaligned(as: FloatLanes.self) .>= 0
            if n < Lanes.width { covered = covered .& (Lanes.ramp .< Float(n)) }
            if any(covered) {
                let zero = FloatLanes()
                let sa = Lanes.clamp(UnsafeRawPointer(c + 3 * planeStride + x).loadUnaligned(as: FloatLanes.self), 0, 255)
                    .replacing(with: zero, where: .!covered)
                var r = Lanes.positivePart(UnsafeRawPointer(c + x).loadUnaligned(as: FloatLanes.self))
                var g = Lanes.positivePart(UnsafeRawPointer(c + planeStride + x).loadUnaligned(as: FloatLanes.self))
                var b = Lanes.positivePart(UnsafeRawPointer(c + 2 * planeStride + x).loadUnaligned(as: FloatLanes.self))
                r = r.replacing(with: sa, where: r .> sa).replacing(with: zero, where: .!covered)
                g = g.replacing(with: sa, where: g .> sa).replacing(with: zero, where: .!covered)
                b = b.replacing(with: sa, where: b .> sa).replacing(with: zero, where: .!covered)
                let p = dst + 4 * x
                let (dr, dg, db, da) = Lanes.load(p, count: n)
                let keep = 1 - sa * (1 / 255)
                Lanes.store(Lanes.packRGBA8(r + dr * keep, g + dg * keep, b + db * keep, sa + da * keep), to: p, count: n)
            }
            x += Lanes.width
        }
    }

    @inline(__always)
    func row(u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>, y: Int,
             dst: UnsafeMutablePointer<UInt8>, width: Int) {
        let qy = FloatLanes(repeating: Float(y) + 0.5)
        var x = 0
        while x < width {
            let n = min(Lanes.width, width - x)
            defer { x += Lanes.width }
            var vu = UnsafeRawPointer(u + x).loadUnaligned(as: FloatLanes.self)
            var vv = UnsafeRawPointer(v + x).loadUnaligned(as: FloatLanes.self)
            var covered = vv .>= 0
            if n < Lanes.width { covered = covered .& (Lanes.ramp .< Float(n)) }
            if !any(covered) { continue }
            // The cell of the first covered pixel; uncovered lanes borrow its (u, v).
            var first = 0
            while !covered[first] { first += 1 }
            let (i, _) = MeshShade.cell(vu[first], cc), (j, _) = MeshShade.cell(vv[first], cr)
            vu.replace(with: vu[first], where: .!covered)
            vv.replace(with: vv[first], where: .!covered)
            let fi = Float(i), fj = Float(j)
            // The far border of the last cell belongs to it (MeshShade.cell).
            let uBelow = i == cc - 1 ? vu .<= fi + 1 : vu .< fi + 1
            let vBelow = j == cr - 1 ? vv .<= fj + 1 : vv .< fj + 1
            let inside = (vu .>= fi) .& (vv .>= fj) .& uBelow .& vBelow
            guard all(inside) else {
                for k in 0..<n where covered[k] {
                    let c = MeshShade.pixel(coefficients, cc: cc, cr: cr, u: vu[k], v: vv[k],
                                            q: SIMD2(Float(x + k) + 0.5, Float(y) + 0.5), newton: newton)
                    MeshShade.over(c, dst + 4 * (x + k))
                }
                continue
            }
            let cell = coefficients + (j * cc + i) * MeshPatches.stride
            var s = vu - fi, t = vv - fj
            if let newton, newton[j * cc + i] != 0 {
                let qx = Lanes.ramp + (Float(x) + 0.5)
                let (px, xs, xt) = SIMDMeshShader.channel(cell, s, t)
                let (py, ys, yt) = SIMDMeshShader.channel(cell + 16, s, t)
                let ex = px - qx, ey = py - qy
                let det = xs * yt - xt * ys
                let singular = det .== 0
                let inv = 1 / det.replacing(with: 1, where: singular)
                let s1 = s - (yt * ex - xt * ey) * inv
                let t1 = t - (xs * ey - ys * ex) * inv
                // As MeshShade.refine: within the domain and one cell of this one.
                s = Lanes.clamp(s1, max(-fi, -1), min(Float(cc - i), 2)).replacing(with: s, where: singular)
                t = Lanes.clamp(t1, max(-fj, -1), min(Float(cr - j), 2)).replacing(with: t, where: singular)
            }
            let a = Lanes.clamp(SIMDMeshShader.value(cell + 80, s, t), 0, 255)
            @inline(__always) func colour(_ ch: Int) -> FloatLanes {
                let c = SIMDMeshShader.value(cell + 16 * ch, s, t)
                return Lanes.positivePart(c).replacing(with: a, where: c .> a)
            }
            let zero = FloatLanes()
            let sa = a.replacing(with: zero, where: .!covered)
            let sr = colour(2).replacing(with: zero, where: .!covered)
            let sg = colour(3).replacing(with: zero, where: .!covered)
            let sb = colour(4).replacing(with: zero, where: .!covered)
            let p = dst + 4 * x
            let (dr, dg, db, da) = Lanes.load(p, count: n)
            let k = 1 - sa * (1 / 255)
            Lanes.store(Lanes.packRGBA8(sr + dr * k, sg + dg * k, sb + db * k, sa + da * k), to: p, count: n)
        }
    }
}
