import CRasterOMP

extension OpenMPBackend {
    /// K4 in C: the path is flattened and clipped here (shared Swift, in
    /// Double), then the C target buckets, accumulates, applies the rule and
    /// composites (raster_omp_fill in fill.c) with OpenMP threads over strips.
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        let edges = FillEdges.prepare(fill, tolerance: variant.tolerance, width: dst.width, height: dst.height, scratch: scratch)
        if edges.count == 0 { return }
        let floats = UnsafeRawPointer(edges.edges).assumingMemoryBound(to: Float.self)
        var plan = raster_omp_fill_plan()
        let bytes = raster_omp_fill_prepare(floats, Int32(edges.count), Int32(dst.width), Int32(dst.height),
                                         Int32(variant.samplesPerAxis ?? 0), Int32(threads), &plan)
        if bytes == 0 { return }
        let memory = scratch.buffer(ScratchSlot.fillCells, count: bytes, of: UInt8.self)
        var color = fill.color.simd
        withUnsafePointer(to: &color) { c in
            c.withMemoryRebound(to: Float.self, capacity: 4) { c in
                raster_omp_fill(&plan, floats, Int32(edges.count), dst.base, Int32(dst.width), Int32(dst.height),
                                dst.stride, c, fill.rule == .evenodd ? 1 : 0, memory, Int32(threads))
            }
        }
    }
}
