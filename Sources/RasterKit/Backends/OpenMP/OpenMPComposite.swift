import CRasterOMP

extension OpenMPBackend {
    public func composite(_ src: ImageView, onto dst: ImageView, opacity: Double) throws {
        try Composite.validate(opacity: opacity)
        try Composite.validateSizes(src, dst)
        raster_omp_composite(src.base, src.stride, dst.base, dst.stride, Int32(dst.width), Int32(dst.height),
                             Float(opacity), Int32(threads))
    }
}
