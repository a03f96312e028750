import CRasterOMP

extension OpenMPBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let grid = FreeformGrid(gradient, variant: variant, width: dst.width, height: dst.height)
        let table = variant == .lut ? scratch.influenceTable(exponent: gradient.exponent) : nil
        gradient.withPoints(scaledBy: grid.pointScale) { points in
            points.colors.withMemoryRebound(to: Float.self) { colors in
                let chunk = Int(RASTER_OMP_FREEFORM_CHUNK)
                let pitch = (grid.width + chunk - 1) / chunk * chunk
                let columns = scratch.buffer(ScratchSlot.freeformColumns, count: points.count * pitch, of: Float.self)
                let uniformAlpha = points.colors.allSatisfy { $0.w == points.colors[0].w }
                var params = raster_omp_freeform(
                    count: Int32(points.count), px: points.x.baseAddress, py: points.y.baseAddress,
                    colors: colors.baseAddress, inv_influence: Float(1 / points.influence),
                    exponent: Float(gradient.exponent), whole_exponent: Int32(gradient.integerExponent ?? 0),
                    table: table, table_intervals: Int32(InfluenceTable.intervals),
                    sample_x: Float(grid.sampleX), sample_y: Float(grid.sampleY), swirl: Float(gradient.swirl),
                    columns: columns, pitch: Int32(pitch), uniform_alpha: uniformAlpha ? 1 : 0)
                guard let columns = grid.columns, let rows = grid.rows else {
                    raster_omp_freeform_rgba8(&params, dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
                    return
                }
                let sw = grid.width, sh = grid.height
                let pad = Int(RASTER_UPSAMPLE_PAD)
                let planes = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * sw * sh + pad, of: Float.self)
                (planes + 4 * sw * sh).update(repeating: 0, count: pad)
                let stretched = scratch.buffer(ScratchSlot.freeformStretched, count: 8 * dst.width * threads, of: Float.self)
                let tapIndex = scratch.buffer(ScratchSlot.freeformTaps, count: dst.width, of: Int32.self)
                let tapWeight = scratch.buffer(ScratchSlot.freeformTapWeights, count: dst.width, of: Float.self)
                let rowIndex = scratch.buffer(ScratchSlot.freeformRowTaps, count: dst.height, of: Int32.self)
                let rowWeight = scratch.buffer(ScratchSlot.freeformRowTapWeights, count: dst.height, of: Float.self)
                columns.fill(index: tapIndex, weight: tapWeight)
                rows.fill(index: rowIndex, weight: rowWeight)
                raster_omp_freeform_planes(&params, planes, Int32(sw), Int32(sh), Int32(threads))
                raster_omp_upsample(planes, Int32(sw), Int32(sh), stretched, tapIndex, tapWeight, rowIndex, rowWeight,
                                    dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
            }
        }
    }
}
