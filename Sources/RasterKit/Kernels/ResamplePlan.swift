/// The taps of one `resample` call (the simd and openmp schedules share
/// them, so both read the same source positions): per output column and
/// row the lower source index and the next one's weight (`BilinearAxis`).
struct ResamplePlan {
    let tapIndex: UnsafeMutablePointer<Int32>, tapWeight: UnsafeMutablePointer<Float>
    let rowIndex: UnsafeMutablePointer<Int32>, rowWeight: UnsafeMutablePointer<Float>

    init(_ src: ImageView, _ dst: ImageView, _ scratch: Scratch) {
        tapIndex = scratch.buffer(ScratchSlot.resampleTaps, count: dst.width, of: Int32.self)
        tapWeight = scratch.buffer(ScratchSlot.resampleTapWeights, count: dst.width, of: Float.self)
        rowIndex = scratch.buffer(ScratchSlot.resampleRowTaps, count: dst.height, of: Int32.self)
        rowWeight = scratch.buffer(ScratchSlot.resampleRowTapWeights, count: dst.height, of: Float.self)
        BilinearAxis(source: src.width, target: dst.width).fill(index: tapIndex, weight: tapWeight)
        BilinearAxis(source: src.height, target: dst.height).fill(index: rowIndex, weight: rowWeight)
    }
}
