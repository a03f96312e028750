/// Bilinear up-sampling by an integer factor, organised for vectors.
///
/// The source (sw x sh, four Float planes) is first stretched horizontally
/// to the full width, once per *source* row, with taps computed once per
/// call; every output row is then a vertical blend of two stretched rows,
/// which is contiguous lane-wise work with no gathers. Sampling positions
/// match `Bilinear` (scalar): target centre x + 0.5 sits at source index
/// (x + 0.5) / scale - 0.5, clamped to the outermost source centres.
struct PlanarUpsampler {
    let sw: Int, sh: Int, width: Int, height: Int, scale: Int
    /// Source row pitch in floats: whole vectors plus one spare column, so
    /// the kernel can store full lanes and the right tap of the last column
    /// (whose weight is 0) reads finite memory.
    let pitch: Int
    let source: UnsafeMutablePointer<Float>
    let stretched: UnsafeMutablePointer<Float>
    /// Per output column: left source index and right-hand weight.
    let tapIndex: UnsafeMutablePointer<Int32>
    let tapWeight: UnsafeMutablePointer<Float>

    init(target: (Int, Int), scale: Int, scratch: Scratch) {
        width = target.0; height = target.1; self.scale = scale
        sw = (width + scale - 1) / scale
        sh = (height + scale - 1) / scale
        pitch = (sw + 1 + Lanes.width - 1) / Lanes.width * Lanes.width
        source = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * pitch * sh, of: Float.self)
        stretched = scratch.buffer(ScratchSlot.freeformStretched, count: 4 * width * sh, of: Float.self)
        tapIndex = scratch.buffer(ScratchSlot.freeformTaps, count: width, of: Int32.self)
        tapWeight = scratch.buffer(ScratchSlot.freeformTapWeights, count: width, of: Float.self)
        for x in 0..<width {
            let (i, w) = Bilinear.tap(x, scale: scale, limit: sw)
            tapIndex[x] = Int32(i)
            tapWeight[x] = w
        }
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
                    for x in 0..<width {
                        let i = Int(tapIndex[x])
                        out[x] = src[i] + (src[i + 1] - src[i]) * tapWeight[x]
                    }
                }
            }
        }
        let plane = sh * width
        RowBands.run(height: height, threads: threads) { rows in
            for y in rows {
                let (y0, fy) = Bilinear.tap(y, scale: scale, limit: sh)
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
