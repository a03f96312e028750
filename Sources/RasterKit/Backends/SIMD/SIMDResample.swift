extension SIMDBackend {
    /// Two passes, as `PlanarUpsampler`: each source row some output row
    /// reads is stretched once to the target width into four Float channel
    /// planes, then every output row is a vector blend of two stretched rows.
    public func resample(_ src: ImageView, into dst: ImageView, scratch: Scratch) throws {
        let plan = ResamplePlan(src, dst, scratch)
        let width = dst.width, sw = src.width, sh = src.height
        let plane = sh * width
        let stretched = scratch.buffer(ScratchSlot.resampleStretched, count: 4 * plane, of: Float.self)
        RowBands.run(height: sh, threads: threads) { rows in
            for y in rows where plan.rowsUsed[y] != 0 {
                let row = src.row(y)
                let out = stretched + y * width
                for x in 0..<width {
                    let i = Int(plan.tapIndex[x]), j = min(i + 1, sw - 1), w = plan.tapWeight[x]
                    for ch in 0..<4 {
                        let a = Float(row[4 * i + ch]), b = Float(row[4 * j + ch])
                        out[ch * plane + x] = a + (b - a) * w
                    }
                }
            }
        }
        PlanarUpsampler.blend(stretched, sh: sh, into: dst, threads: threads) { (Int(plan.rowIndex[$0]), plan.rowWeight[$0]) }
    }
}
