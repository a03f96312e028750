/// A band's cell store in the simd schedule: one strip's fixed-point
/// winding differences (`FillFixed`, wrapping) laid out by `CellLayout`,
/// and a bitmap with one bit per chunk of `FillLanes.width` cells that some
/// step touched. The accumulator and the sampler write it; the sweeper
/// reads it and clears what it read, so it is all zero between strips.
struct SIMDFillCells {
    let layout: CellLayout
    let cells: UnsafeMutablePointer<UInt32>
    let bitmap: UnsafeMutablePointer<UInt64>

    /// Cells of pixel row `y` of the strip starting at `top`, indexed by absolute column.
    @inline(__always)
    func cellRow(_ y: Int, top: Int) -> UnsafeMutablePointer<UInt32> { cells + ((y &- top) &* layout.stride &- layout.origin) }

    @inline(__always)
    func bitRow(_ y: Int, top: Int) -> UnsafeMutablePointer<UInt64> { bitmap + (y &- top) &* layout.words }

    /// Marks the chunks holding cells `from...to` (absolute columns).
    @inline(__always)
    func mark(_ bits: UnsafeMutablePointer<UInt64>, from: Int, to: Int) {
        let c0 = (from &- layout.origin) &>> FillLanes.shift, c1 = (to &- layout.origin) &>> FillLanes.shift
        let w0 = c0 &>> 6, w1 = c1 &>> 6
        if w0 == w1 {
            bits[w0] |= (~0 &<< UInt64(c0 & 63)) & (~0 &>> UInt64(63 - (c1 & 63)))
        } else {
            markWords(bits, c0, c1)
        }
    }

    @inline(never)
    func markWords(_ bits: UnsafeMutablePointer<UInt64>, _ c0: Int, _ c1: Int) {
        let w0 = c0 >> 6, w1 = c1 >> 6
        bits[w0] |= ~0 &<< UInt64(c0 & 63)
        for w in (w0 + 1)..<w1 { bits[w] = ~0 }
        bits[w1] |= ~0 &>> UInt64(63 - (c1 & 63))
    }
}
