/// Bilinear up-sampling by an integer factor, organised for vectors.
///
/// The source (sw x sh, four Float planes) is first stretched horizontally
/// to the full width, once per *source* row; every output row is then a
/// vertical blend of two stretched rows, which is contiguous lane-wise work
/// with no gathers. Sampling positions match `Bilinear` (scalar): target
/// centre x + 0.5 sits at source index (x + 0.5) / scale - 0.5, clamped.
struct PlanarUpsampler {
    let sw: Int, sh: Int, width: Int, height: Int, scale: Int
    /// Four planes of sw * sh source floats, then four of width * sh stretched.
    let source: UnsafeMutablePointer<Float>
    let stretched: UnsafeMutablePointer<Float>

    init(target: (Int, Int), scale: Int, scratch: Scratch) {
        width = target.0; height = target.1; self.scale = scale
        sw = (width + scale - 1) / scale
        sh = (height + scale - 1) / scale
        source = scratch.buffer(ScratchSlot.freeformSmall, count: 4 * sw * sh, of: Float.self)
        stretched = scratch.buffer(ScratchSlot.freeformRowWeights, count: 4 * width * sh, of: Float.self)
    }

    func sourceRow(_ y: Int, channel: Int) -> UnsafeMutablePointer<Float> {
        source + (channel * sh + y) * sw
    }

    func stretchedRow(_ y: Int, channel: Int) -> UnsafeMutablePointer<Float> {
        stretched + (channel * sh + y) * width
    }

    func run(into dst: ImageView, threads: Int) {
        RowBands.run(height: sh, threads: threads) { rows in
            for y in rows {
                for ch in 0..<4 {
                    let src = sourceRow(y, channel: ch), out = stretchedRow(y, channel: ch)
                    for x in 0..<width {
                        let (x0, fx) = Bilinear.tap(x, scale: scale, limit: sw)
                        let x1 = min(x0 + 1, sw - 1)
                        out[x] = src[x0] + (src[x1] - src[x0]) * fx
                    }
                }
            }
        }
        RowBands.run(height: height, threads: threads) { rows in
            for y in rows {
                let (y0, fy) = Bilinear.tap(y, scale: scale, limit: sh)
                let y1 = min(y0 + 1, sh - 1)
                let row = dst.row(y)
                var x = 0
                while x < width {
                    let n = min(Lanes.width, width - x)
                    var c = (FloatLanes(), FloatLanes(), FloatLanes(), FloatLanes())
                    for ch in 0..<4 {
                        let top = load(stretchedRow(y0, channel: ch) + x, n)
                        let bottom = load(stretchedRow(y1, channel: ch) + x, n)
                        let v = top + (bottom - top) * fy
                        switch ch { case 0: c.0 = v; case 1: c.1 = v; case 2: c.2 = v; default: c.3 = v }
                    }
                    Lanes.store(Lanes.packRGBA8(c.0, c.1, c.2, c.3), to: row + 4 * x, count: n)
                    x += Lanes.width
                }
            }
        }
    }

    @inline(__always)
    private func load(_ p: UnsafeMutablePointer<Float>, _ n: Int) -> FloatLanes {
        if n == Lanes.width { return UnsafeRawPointer(p).loadUnaligned(as: FloatLanes.self) }
        var v = FloatLanes()
        for i in 0..<n { v[i] = p[i] }
        return v
    }
}
