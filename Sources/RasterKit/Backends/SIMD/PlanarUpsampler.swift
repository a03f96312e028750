import CRasterOMP

/// Bilinear up-sampling of K1's grid variants, organised for vectors.
///
/// The source (sw x sh, four Float planes) is first stretched horizontally
/// to the full width, once per *source* row, with taps computed once per
/// call; every output row is then a vertical blend of two stretched rows,
/// which is contiguous lane-wise work with no gathers. Sampling positions
/// are the grid's `BilinearAxis` taps, the same as `Bilinear` (scalar).
struct PlanarUpsampler: SwirlSink {
    let sw: Int, sh: Int, width: Int, height: Int
    let rows: BilinearAxis
    /// Source row pitch in floats: whole vectors plus one spare column, so
    /// the kernel can store full lanes and the right tap of the last column
    /// (whose weight is 0) reads memory `run` zeroes.
    let pitch: Int
    let source: UnsafeMutablePointer<Float>
    /// Per output column: left source index and right-hand weight.
    let tapIndex: UnsafeMutablePointer<Int32>
    let tapWeight: UnsafeMutablePointer<Float>
    /// Whether each block of eight columns reads within eight source
    /// columns (`raster_taps8_near`: loads and permutes, no gathers), as
    /// every up-sampling axis does.
    let near: Bool

    init(grid: FreeformGrid, columns: BilinearAxis, rows: BilinearAxis, scratch: Scratch) {
        width = columns.target; height = rows.target; self.rows = rows
        sw = grid.width
        sh = grid.height
        pitch = (sw + 1 + Lanes.width - 1) / Lanes.width * Lanes.width
        // Spare floats past the last row (raster_omp.h's RASTER_UPSAMPLE_PAD):
        // raster_taps8_near reads up to eight past a row's last used column.
        // Those past the spare column reach only unused lanes, so unlike the
        // openmp planes (no spare column) they need not be zeroed.
        source = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * pitch * sh + Int(RASTER_UPSAMPLE_PAD), of: Float.self)
        tapIndex = scratch.buffer(ScratchSlot.freeformTaps, count: width, of: Int32.self)
        tapWeight = scratch.buffer(ScratchSlot.freeformTapWeights, count: width, of: Float.self)
        columns.fill(index: tapIndex, weight: tapWeight)
        near = raster_taps8_all_near(tapIndex, Int32(width)) != 0
    }

    /// The vector at (x, y) of the source planes; `count` is not needed:
    /// full-lane stores are safe, as the pitch holds whole vectors.
    @inline(__always)
    func store(_ c: (FloatLanes, FloatLanes, FloatLanes, FloatLanes), x: Int, y: Int, count: Int) {
        let raw = UnsafeMutableRawPointer(source)
        let plane = pitch * sh
        raw.storeBytes(of: c.0, toByteOffset: 4 * (y * pitch + x), as: FloatLanes.self)
        raw.storeBytes(of: c.1, toByteOffset: 4 * (plane + y * pitch + x), as: FloatLanes.self)
        raw.storeBytes(of: c.2, toByteOffset: 4 * (2 * plane + y * pitch + x), as: FloatLanes.self)
        raw.storeBytes(of: c.3, toByteOffset: 4 * (3 * plane + y * pitch + x), as: FloatLanes.self)
    }

    func run(into dst: ImageView, threads: Int, scratch: Scratch) {
        // The spare column is read with weight 0 by the last column's tap;
        // when sw is a whole number of vectors no store reached it, and
        // 0 * (stale NaN or inf) is NaN. Set here, before the bands, since
        // two bands may stretch the same source row.
        for r in 0..<(4 * sh) { source[r * pitch + sw] = 0 }
        PlanarUpsampler.stream(into: dst, sh: sh, threads: threads, scratch: scratch, slot: .freeformStretched,
                               tap: { rows.tap($0) }) { y, out in
            let index = UnsafeRawPointer(tapIndex), weight = UnsafeRawPointer(tapWeight)
            for ch in 0..<4 {
                let src = source + (ch * sh + y) * pitch, plane = UnsafeMutableRawPointer(out + ch * width)
                var x = 0
                while x + Lanes.width <= width {
                    let i = index.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<Int32>.self)
                    let w = weight.loadUnaligned(fromByteOffset: 4 * x, as: FloatLanes.self)
                    // The same values either way (raster_taps8_near is raster_taps8 to the bit).
                    let v = near ? raster_taps8_near(src, tapIndex[x], i, w) : raster_taps8(src, i, w)
                    plane.storeBytes(of: v, toByteOffset: 4 * x, as: FloatLanes.self)
                    x += Lanes.width
                }
                while x < width {
                    let i = Int(tapIndex[x])
                    plane.storeBytes(of: src[i] + (src[i + 1] - src[i]) * tapWeight[x], toByteOffset: 4 * x, as: Float.self)
                    x += 1
                }
            }
        }
    }

    /// Every output row of `dst`, in bands: output row y blends stretched
    /// source rows y0 and y0 + 1 (clamped to `sh`) with weight fy, where
    /// (y0, fy) = tap(y). `stretch(r, out)` writes source row r stretched
    /// to the full width as four channel planes of `dst.width` floats; each
    /// band keeps the two rows it reads in a `StretchedRowPair` of its
    /// worker's scratch (`scratch` holds 8 * dst.width floats per worker).
    static func stream(into dst: ImageView, sh: Int, threads: Int, scratch: Scratch, slot: ScratchSlot,
                       tap: (Int) -> (Int, Float), stretch: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let width = dst.width
        let bands = RowBands(items: dst.height, threads: threads, minimum: RowBands.minimumRows)
        let memory = scratch.buffer(slot, count: 8 * width * bands.workers, of: Float.self)
        bands.run { worker, rows in
            var pair = StretchedRowPair(memory: memory + 8 * width * worker, floats: 4 * width)
            for y in rows {
                let (y0, fy) = tap(y)
                let y1 = min(y0 + 1, sh - 1)
                let top = pair.row(y0, keeping: y1, stretch)
                let bottom = pair.row(y1, keeping: y0, stretch)
                blendRow(top, bottom, fy: fy, into: dst.row(y), width: width)
            }
        }
    }

    /// One output row: `top` + (`bottom` - `top`) fy per channel, packed;
    /// both rows are four channel planes of `width` floats.
    @inline(__always)
    static func blendRow(_ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>, fy: Float,
                         into row: UnsafeMutablePointer<UInt8>, width: Int) {
        let t = UnsafeRawPointer(top), b = UnsafeRawPointer(bottom)
        var x = 0
        while x + Lanes.width <= width {
            @inline(__always) func blend(_ ch: Int) -> FloatLanes {
                let tv = t.loadUnaligned(fromByteOffset: 4 * (ch * width + x), as: FloatLanes.self)
                let bv = b.loadUnaligned(fromByteOffset: 4 * (ch * width + x), as: FloatLanes.self)
                return tv + (bv - tv) * fy
            }
            // The C kernels' pack (raster_k1_pack8, the bytes of
            // Lanes.packRGBA8): saturating packs, where Swift's per-channel
            // clamp, round and shift took about twice the instructions.
            Lanes.store(raster_k1_pack8(blend(0), blend(1), blend(2), blend(3)), to: row + 4 * x, count: Lanes.width)
            x += Lanes.width
        }
        // Row tail: the same arithmetic, lane by lane.
        while x < width {
            var c = SIMD4<Float>()
            for ch in 0..<4 {
                let tv = top[ch * width + x], bv = bottom[ch * width + x]
                c[ch] = tv + (bv - tv) * fy
            }
            Bilinear.store(c, to: row + 4 * x)
            x += 1
        }
    }
}
