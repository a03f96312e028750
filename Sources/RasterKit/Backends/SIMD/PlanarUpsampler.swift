/// Bilinear up-sampling of K1's grid variants, organised for vectors.
///
/// The source (sw x sh, four Float planes) is first stretched horizontally
/// to the full width, once per *source* row, with taps computed once per
/// call; every output row is then a vertical blend of two stretched rows,
/// which is contiguous lane-wise work with no gathers. Sampling positions
/// are the grid's `BilinearAxis` taps, the same as `Bilinear` (scalar).
struct PlanarUpsampler {
    let sw: Int, sh: Int, width: Int, height: Int
    let rows: BilinearAxis
    /// Source row pitch in floats: whole vectors plus one spare column, so
    /// the kernel can store full lanes and the right tap of the last column
    /// (whose weight is 0) reads memory `run` zeroes.
    let pitch: Int
    let source: UnsafeMutablePointer<Float>
    let stretched: UnsafeMutablePointer<Float>
    /// Per output column: left source index and right-hand weight.
    let tapIndex: UnsafeMutablePointer<Int32>
    let tapWeight: UnsafeMutablePointer<Float>

    init(grid: FreeformGrid, columns: BilinearAxis, rows: BilinearAxis, scratch: Scratch) {
        width = columns.target; height = rows.target; self.rows = rows
        sw = grid.width
        sh = grid.height
        pitch = (sw + 1 + Lanes.width - 1) / Lanes.width * Lanes.width
        source = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * pitch * sh, of: Float.self)
        stretched = scratch.buffer(ScratchSlot.freeformStretched, count: 4 * width * sh, of: Float.self)
        tapIndex = scratch.buffer(ScratchSlot.freeformTaps, count: width, of: Int32.self)
        tapWeight = scratch.buffer(ScratchSlot.freeformTapWeights, count: width, of: Float.self)
        columns.fill(index: tapIndex, weight: tapWeight)
    }

    @inline(__always)
    func storeSource(_ c: (FloatLanes, FloatLanes, FloatLanes, FloatLanes), x: Int, y: Int, count: Int) {
        // Full-lane stores are safe: the pitch holds whole vectors.
        let raw = UnsafeMutableRawPointer(source)
        let plane = pitch * sh
        raw.storeBytes(of: c.0, toByteOffset: 4 * (y * pitch + x), as: FloatLanes.self)
        raw.storeBytes(of: c.1, toByteOffset: 4 * (plane + y * pitch + x), as: FloatLanes.self)
        raw.storeBytes(of: c.2, toByteOffset: 4 * (2 * plane + y * pitch + x), as: FloatLanes.self)
        raw.storeBytes(of: c.3, toByteOffset: 4 * (3 * plane + y * pitch + x), as: FloatLanes.self)
    }

    func run(into dst: ImageView, threads: Int) {
        RowBands.run(height: sh, threads: threads) { rows in
            for y in rows {
                for ch in 0..<4 {
                    let src = source + (ch * sh + y) * pitch, out = stretched + (ch * sh + y) * width
                    // The spare column is read with weight 0 by the last
                    // column's tap; when sw is a whole number of vectors no
                    // store reached it, and 0 * (stale NaN or inf) is NaN.
                    src[sw] = 0
                    for x in 0..<width {
                        let i = Int(tapIndex[x])
                        out[x] = src[i] + (src[i + 1] - src[i]) * tapWeight[x]
                    }
                }
            }
        }
        PlanarUpsampler.blend(stretched, sh: sh, into: dst, threads: threads) { rows.tap($0) }
    }

    /// The vertical pass: output row y blends stretched rows y0 and y0 + 1
    /// (clamped) with weight fy = tap(y).1. `stretched` holds four channel
    /// planes of sh rows of `dst.width` floats (channel-major).
    static func blend(_ stretched: UnsafeMutablePointer<Float>, sh: Int, into dst: ImageView, threads: Int,
                      tap: (Int) -> (Int, Float)) {
        let width = dst.width
        let plane = sh * width
        RowBands.run(height: dst.height, threads: threads) { rows in
            for y in rows {
                let (y0, fy) = tap(y)
                let y1 = min(y0 + 1, sh - 1)
                let top = UnsafeRawPointer(stretched + y0 * width), bottom = UnsafeRawPointer(stretched + y1 * width)
                let row = dst.row(y)
                var x = 0
                while x + Lanes.width <= width {
                    @inline(__always) func blend(_ ch: Int) -> FloatLanes {
                        let t = top.loadUnaligned(fromByteOffset: 4 * (ch * plane + x), as: FloatLanes.self)
                        let b = bottom.loadUnaligned(fromByteOffset: 4 * (ch * plane + x), as: FloatLanes.self)
                        return t + (b - t) * fy
                    }
                    Lanes.store(Lanes.packRGBA8(blend(0), blend(1), blend(2), blend(3)), to: row + 4 * x, count: Lanes.width)
                    x += Lanes.width
                }
                // Row tail: the same arithmetic, lane by lane.
                while x < width {
                    var c = SIMD4<Float>()
                    for ch in 0..<4 {
                        let t = stretched[y0 * width + ch * plane + x], b = stretched[y1 * width + ch * plane + x]
                        c[ch] = t + (b - t) * fy
                    }
                    Bilinear.store(c, to: row + 4 * x)
                    x += 1
                }
            }
        }
    }
}
