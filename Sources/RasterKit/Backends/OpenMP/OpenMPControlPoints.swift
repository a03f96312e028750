import CRasterOMP

extension OpenMPBackend {
    /// K5 in C (controlpoints.c): blocks of anchors across OpenMP threads,
    /// `#pragma omp simd` within a block.
    public func controlPoints(_ anchors: UnsafeBufferPointer<SIMD2<Float>>, into out: UnsafeMutableBufferPointer<SIMD2<Float>>) throws {
        try ControlPoints.validate(anchors: anchors.count, outCount: out.count)
        guard let a = anchors.baseAddress, let o = out.baseAddress else { return }
        raster_omp_control_points(UnsafeRawPointer(a).assumingMemoryBound(to: Float.self),
                                  UnsafeMutableRawPointer(o).assumingMemoryBound(to: Float.self),
                                  Int64(anchors.count), Int32(threads))
    }
}
