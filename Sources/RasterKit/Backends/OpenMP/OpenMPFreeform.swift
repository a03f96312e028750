import CRasterOMP

extension OpenMPBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let s = variant.downscale
        let g = s == 1 ? gradient : gradient.scaled(by: 1 / Double(s))
        let px = g.points.map { Float($0.position.x) }
        let py = g.points.map { Float($0.position.y) }
        let colors = g.points.flatMap { [Float($0.color.r), Float($0.color.g), Float($0.color.b), Float($0.color.a)] }
        let table = variant == .lut ? InfluenceTable(exponent: g.exponent).values : nil
        px.withUnsafeBufferPointer { px in
        py.withUnsafeBufferPointer { py in
        colors.withUnsafeBufferPointer { colors in
        withOptionalBuffer(table) { table in
            var params = raster_omp_freeform(
                count: Int32(g.points.count), px: px.baseAddress, py: py.baseAddress, colors: colors.baseAddress,
                inv_influence: Float(1 / g.influence), exponent: Float(g.exponent),
                whole_exponent: Int32(g.integerExponent ?? 0),
                table: table, table_intervals: Int32(InfluenceTable.intervals))
            if s == 1 {
                raster_omp_freeform_rgba8(&params, dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
                return
            }
            let sw = (dst.width + s - 1) / s, sh = (dst.height + s - 1) / s
            let planes = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * sw * sh, of: Float.self)
            let stretched = scratch.buffer(ScratchSlot.freeformRowWeights, count: 4 * dst.width * sh, of: Float.self)
            let tapIndex = scratch.buffer(ScratchSlot.freeformTaps, count: dst.width, of: Int32.self)
            let tapWeight = scratch.buffer(ScratchSlot.freeformTapWeights, count: dst.width, of: Float.self)
            raster_omp_freeform_planes(&params, planes, Int32(sw), Int32(sh), Int32(threads))
            raster_omp_upsample(planes, Int32(sw), Int32(sh), stretched, tapIndex, tapWeight, Int32(s),
                                dst.base, Int32(dst.width), Int32(dst.height), dst.stride, Int32(threads))
        }}}}
    }
}

/// Runs `body` with the array's base address, or nil for no array.
@inline(__always)
func withOptionalBuffer<T, R>(_ array: [T]?, _ body: (UnsafePointer<T>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}
