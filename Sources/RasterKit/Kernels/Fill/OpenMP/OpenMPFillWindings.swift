import CRasterOMP

extension OpenMPBackend {
    /// The C schedule's accumulation alone (`FillStages.windings`), through
    /// raster_fill.h's raster_omp_fill_windings: one band, the pixels and
    /// the two guard cells of every row, prefix-summed.
    static func fillWindings(_ edges: [SIMD4<Float>], width: Int, height: Int) -> [Int32] {
        var out = [Int32](repeating: 0, count: height * (width + 2))
        let bytes = raster_omp_fill_windings_bytes(Int32(width))
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { memory.deallocate() }
        edges.withUnsafeBytes { e in
            out.withUnsafeMutableBufferPointer { o in
                raster_omp_fill_windings(e.baseAddress?.assumingMemoryBound(to: Float.self), Int32(edges.count),
                                         Int32(width), Int32(height), memory, o.baseAddress)
            }
        }
        return out
    }
}
