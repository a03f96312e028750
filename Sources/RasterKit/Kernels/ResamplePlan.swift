/// The taps of one `resample` call (the simd and openmp schedules share
/// them, so both read the same source positions): per output column and
/// row the lower source index and the next one's weight (`BilinearAxis`),
/// and which source rows some output row reads, so that a down-sampling
/// stretches only those.
struct ResamplePlan {
    let tapIndex: UnsafeMutablePointer<Int32>, tapWeight: UnsafeMutablePointer<Float>
    let rowIndex: UnsafeMutablePointer<Int32>, rowWeight: UnsafeMutablePointer<Float>
    let rowsUsed: UnsafeMutablePointer<UInt8>

    init(_ src: ImageView, _ dst: ImageView, _ scratch: Scratch) {
        tapIndex = scratch.buffer(ScratchSlot.resampleTaps, count: dst.width, of: Int32.self)
        tapWeight = scratch.buffer(ScratchSlot.resampleTapWeights, count: dst.width, of: Float.self)
        rowIndex = scratch.buffer(ScratchSlot.resampleRowTaps, count: dst.height, of: Int32.self)
        rowWeight = scratch.buffer(ScratchSlot.resampleRowTapWeights, count: dst.height, of: Float.self)
        rowsUsed = scratch.buffer(ScratchSlot.resampleRowsUsed, count: src.height, of: UInt8.self)
        BilinearAxis(source: src.width, target: dst.width).fill(index: tapIndex, weight: tapWeight)
        BilinearAxis(source: src.height, target: dst.height).fill(index: rowIndex, weight: rowWeight)
        rowsUsed.update(repeating: 0, count: src.height)
        for y in 0..<dst.height {
            let y0 = Int(rowIndex[y])
            rowsUsed[y0] = 1
            rowsUsed[min(y0 + 1, src.height - 1)] = 1 // read (with weight 0 at the edge) by the blend
        }
    }
}
