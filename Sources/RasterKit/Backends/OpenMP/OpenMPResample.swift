import CRasterOMP

extension OpenMPBackend {
    public func resample(_ src: ImageView, into dst: ImageView, scratch: Scratch) throws {
        let plan = ResamplePlan(src, dst, scratch)
        raster_omp_resample(src.base, Int32(src.width), Int32(src.height), src.stride,
                            scratch.buffer(ScratchSlot.resampleStretched, count: 8 * dst.width * threads, of: Float.self),
                            plan.tapIndex, plan.tapWeight, plan.rowIndex, plan.rowWeight,
                            dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
    }
}
