import CRasterOMP

extension OpenMPBackend {
    /// K7: the lattice and its strip buckets from the shared Swift set-up
    /// (`MeshLattice`), rasterising and shading in C (raster_omp_mesh_rgba8).
    public func mesh(_ mesh: MeshGradient, variant: MeshVariant, onto dst: ImageView, scratch: Scratch) throws {
        let gouraud = variant.interpolatesColor
        let lattice = MeshLattice(mesh, tolerance: variant.tolerance, width: dst.width, height: dst.height,
                                  scratch: scratch, nodeColors: gouraud)
        let team = max(1, min(threads, lattice.strips))
        let planeCount = Int(gouraud ? RASTER_MESH_PLANES_GOURAUD : RASTER_MESH_PLANES_UV) * team * dst.width * MeshLattice.stripRows
        let planes = scratch.buffer(ScratchSlot.meshPlanes, count: planeCount, of: Float.self)
        mesh.coefficients.withUnsafeBufferPointer { coeff in mesh.withNewtonCells(variant) { newton in
            UnsafeRawPointer(lattice.nodes).withMemoryRebound(to: Float.self, capacity: 2 * lattice.nu * lattice.nv) { nodes in
                var m = raster_omp_mesh(
                    cell_columns: Int32(mesh.cellColumns), cell_rows: Int32(mesh.cellRows), coefficients: coeff.baseAddress,
                    nu: Int32(lattice.nu), nv: Int32(lattice.nv), lattice_u: lattice.u, lattice_v: lattice.v, nodes: nodes,
                    strip_start: lattice.stripStart, strip_quads: lattice.stripQuads, strips: Int32(lattice.strips),
                    refine: newton, node_colors: lattice.colors.map { UnsafeRawPointer($0).assumingMemoryBound(to: Float.self) })
                raster_omp_mesh_rgba8(&m, planes, dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(team))
            }
        } }
    }
}
