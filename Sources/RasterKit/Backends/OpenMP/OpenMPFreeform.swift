import CRasterOMP

extension OpenMPBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        // TODO(K1 unit space): not implemented yet in this backend.
        guard gradient.space == .pixels else {
            throw RasterError.unsupported(backend: kind.rawValue, kernel: "freeform (unit space)", variant: variant.rawValue)
        }
        let s = variant.downscale
        let table = variant == .lut ? scratch.influenceTable(exponent: gradient.exponent) : nil
        gradient.withPoints(scaledBy: 1 / Double(s)) { points in
            points.colors.withMemoryRebound(to: Float.self) { colors in
                var params = raster_omp_freeform(
                    count: Int32(points.count), px: points.x.baseAddress, py: points.y.baseAddress,
                    colors: colors.baseAddress, inv_influence: Float(1 / points.influence),
                    exponent: Float(gradient.exponent), whole_exponent: Int32(gradient.integerExponent ?? 0),
                    table: table, table_intervals: Int32(InfluenceTable.intervals))
                if s == 1 {
                    raster_omp_freeform_rgba8(&params, dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
                    return
                }
                let sw = (dst.width + s - 1) / s, sh = (dst.height + s - 1) / s
                let planes = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * sw * sh, of: Float.self)
                let stretched = scratch.buffer(ScratchSlot.freeformStretched, count: 4 * dst.width * sh, of: Float.self)
                let tapIndex = scratch.buffer(ScratchSlot.freeformTaps, count: dst.width, of: Int32.self)
                let tapWeight = scratch.buffer(ScratchSlot.freeformTapWeights, count: dst.width, of: Float.self)
                raster_omp_freeform_planes(&params, planes, Int32(sw), Int32(sh), Int32(threads))
                raster_omp_upsample(planes, Int32(sw), Int32(sh), stretched, tapIndex, tapWeight, Int32(s),
                                    dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
            }
        }
    }
}
