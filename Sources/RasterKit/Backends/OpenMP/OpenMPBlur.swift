import CRasterOMP

/// K3 in C: this wrapper turns the shared coefficients (`GaussianWeights`,
/// `ExtendedBox`, `DericheIIR`, `BlurResampling`) into the C filter
/// descriptions, hands out scratch memory, and calls `raster_omp_blur*`.
extension OpenMPBackend {
    public func blur(_ blur: GaussianBlur, variant: BlurVariant, image: ImageView, scratch: Scratch) throws {
        let f = variant.downscale
        if f == 1 {
            // Both directions' tap tables (exact only) share one slot.
            let nh = OpenMPBlurFilter.tableCount(blur, variant, length: image.width)
            let nv = OpenMPBlurFilter.tableCount(blur, variant, length: image.height)
            let table = scratch.buffer(BlurSlot.table, count: nh + nv, of: Float.self)
            var rows = OpenMPBlurFilter.make(blur, variant, length: image.width, table: table)
            var columns = OpenMPBlurFilter.make(blur, variant, length: image.height, table: table + nh)
            let (buffers, floats) = OpenMPBlurFilter.buffers(&rows, &columns, width: image.width, height: image.height,
                                                             threads: threads, scratch: scratch)
            let plane = scratch.buffer(BlurSlot.plane, count: OpenMPBlurFilter.stripPlaneCount(image.width, image.height), of: UInt16.self)
            raster_omp_blur(&rows, &columns, image.base, Int32(image.width), Int32(image.height), image.stride,
                            plane, buffers, floats, Int32(threads))
            return
        }
        let plan = try BlurResampling(blur, factor: f, width: image.width, height: image.height)
        let sw = plan.smallWidth, sh = plan.smallHeight
        var rows = OpenMPBlurFilter.make(plan.smallBlur, .iir, length: sw, table: nil)
        var columns = OpenMPBlurFilter.make(plan.smallBlur, .iir, length: sh, table: nil)
        let (buffers, floats) = OpenMPBlurFilter.buffers(&rows, &columns, width: sw, height: sh, threads: threads, scratch: scratch)
        let small = scratch.buffer(BlurSlot.small, count: sw * sh * 4, of: UInt16.self)
        let smallPlane = scratch.buffer(BlurSlot.smallPlane, count: OpenMPBlurFilter.stripPlaneCount(sw, sh), of: UInt16.self)
        let rowWorkers = max(1, min(threads, image.height))
        let rowFloats = 32 * ((image.width + 3) / 4) + 4 * (sw + 3)
        let rowBuffers = scratch.buffer(BlurSlot.resampleRows, count: rowWorkers * rowFloats, of: Float.self)
        raster_omp_blur_resampled(&rows, &columns, Int32(f), blur.edge.isClamp ? 1 : 0, image.base,
                                  Int32(image.width), Int32(image.height), image.stride,
                                  small, smallPlane, buffers, floats, rowBuffers, Int32(threads))
    }
}

/// Builds the C side's `raster_omp_blur_filter` for one direction.
enum OpenMPBlurFilter {
    static let firPad = 3

    /// UInt16 elements of the C side's strip-major plane: 16-pixel strips,
    /// 64 values per strip row (see raster_omp_blur).
    static func stripPlaneCount(_ width: Int, _ height: Int) -> Int { (width + 15) / 16 * height * 64 }

    /// Floats of tap table a filter of this length needs (0 unless exact).
    static func tableCount(_ blur: GaussianBlur, _ variant: BlurVariant, length: Int) -> Int {
        guard variant == .exact else { return 0 }
        let reach = min(blur.radius, length)
        return GaussianWeights.tableCount(reach: reach, pad: firPad)
    }

    /// `table` must hold `tableCount` floats for the exact variant.
    static func make(_ blur: GaussianBlur, _ variant: BlurVariant, length: Int,
                     table: UnsafeMutablePointer<Float>?) -> raster_omp_blur_filter {
        var f = raster_omp_blur_filter()
        f.length = Int32(length)
        f.clamp = blur.edge.isClamp ? 1 : 0
        switch variant {
        case .exact:
            let weights = GaussianWeights(blur)
            let reach = weights.reach(length: length)
            weights.fill(table!, length: length, pad: firPad)
            f.kind = Int32(RASTER_OMP_BLUR_FIR.rawValue)
            f.taps = UnsafePointer(table!)
            f.reach = Int32(reach)
            f.tail = Float(weights.tail(length: length))
        case .box3:
            let box = ExtendedBox(blur)
            f.kind = Int32(RASTER_OMP_BLUR_BOX.rawValue)
            f.box_radius = Int32(box.radius)
            f.box_alpha = Float(box.alpha)
            f.box_norm = Float(1 / box.width)
            f.box_grid = Float(box.grid)
        default:
            f.kind = Int32(RASTER_OMP_BLUR_IIR.rawValue)
            withUnsafeMutableBytes(of: &f.iir) { raw in
                DericheIIR(sigma: blur.sigma).write(to: raw.baseAddress!.assumingMemoryBound(to: Float.self))
            }
        }
        return f
    }

    /// Per-thread line buffers for both filters: (pointer, floats per buffer).
    static func buffers(_ rows: inout raster_omp_blur_filter, _ columns: inout raster_omp_blur_filter,
                        width: Int, height: Int, threads: Int, scratch: Scratch) -> (UnsafeMutablePointer<Float>, Int) {
        let samples = max(raster_omp_blur_samples(&rows), raster_omp_blur_samples(&columns))
        let floats = samples * 64
        let bands = (height + 15) / 16, strips = (width + 15) / 16
        let workers = max(1, min(threads, max(bands, strips)))
        return (scratch.buffer(BlurSlot.lines, count: workers * 2 * floats, of: Float.self), floats)
    }
}
