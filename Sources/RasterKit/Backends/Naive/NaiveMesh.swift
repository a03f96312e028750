extension NaiveBackend {
    /// K7 the obvious way: every lattice quad rasterised into (u, v) planes
    /// the size of the image, then every covered pixel shaded (or, for
    /// `coarse`, composited from the colour the raster interpolated).
    public func mesh(_ mesh: MeshGradient, variant: MeshVariant, onto dst: ImageView, scratch: Scratch) throws {
        let gouraud = variant.interpolatesColor
        let lattice = MeshLattice(mesh, tolerance: variant.tolerance, width: dst.width, height: dst.height,
                                  scratch: scratch, nodeColors: gouraud)
        let n = dst.width * dst.height
        let planeU = scratch.buffer(ScratchSlot.meshWinnerU, count: n, of: Float.self)
        let planeV = scratch.buffer(ScratchSlot.meshWinnerV, count: n, of: Float.self)
        let planeC = gouraud ? scratch.buffer(ScratchSlot.meshColorPlanes, count: 4 * n, of: Float.self) : nil
        planeV.update(repeating: MeshRaster.empty, count: n)
        let raster = MeshRaster(lattice: lattice, width: dst.width, originRow: 0, planeU: planeU, planeV: planeV,
                                planeC: planeC, planeStride: n)
        for q in 0..<((lattice.nu - 1) * (lattice.nv - 1)) { raster.quad(q, rows: 0..<dst.height) }
        let cc = mesh.cellColumns, cr = mesh.cellRows
        mesh.coefficients.withUnsafeBufferPointer { coeff in mesh.withNewtonCells(variant) { newton in
            for y in 0..<dst.height {
                let row = dst.row(y)
                for x in 0..<dst.width {
                    let k = y * dst.width + x
                    guard planeV[k] >= 0 else { continue }
                    if let planeC {
                        MeshShade.over(SIMD4(planeC[k], planeC[n + k], planeC[2 * n + k], planeC[3 * n + k]), row + 4 * x)
                        continue
                    }
                    let c = MeshShade.pixel(coeff.baseAddress!, cc: cc, cr: cr, u: planeU[k], v: planeV[k],
                                            q: SIMD2(Float(x) + 0.5, Float(y) + 0.5), newton: newton)
                    MeshShade.over(c, row + 4 * x)
                }
            }
        } }
    }
}
