import CRasterOMP

/// The row sweep of the simd schedule: each row of the strip's cells is
/// walked chunk by marked chunk -- a 16-lane prefix sum gives the winding,
/// the rule the coverage, and the painter composites 16 pixels at once --
/// and between marked chunks the coverage is constant and painted as a run.
struct SIMDFillSweeper {
    let cells: SIMDFillCells
    let dst: ImageView
    let painter: FillPainter

    /// The C schedule's prefix sum (raster_fill.h's `raster_fill_prefix16`),
    /// compiled here for the host's vector ISA and inlined into the sweep:
    /// `a` gets carry + the running sum of the 16 cells at `q`; returns its
    /// last lane.
    @inline(__always)
    static func prefixSum(_ q: UnsafePointer<UInt32>, carry: UInt32, into a: inout Word16Lanes) -> UInt32 {
        withUnsafeMutableBytes(of: &a) { raster_fill_prefix16(q, carry, $0.baseAddress!.assumingMemoryBound(to: UInt32.self)) }
    }

    /// Sweeps one row: marked chunks get a prefix sum and per-pixel
    /// coverage, the runs between them one constant coverage. Cells and
    /// bits are cleared on the way.
    @inline(__always)
    func sweep<Rule: CoverageRule>(row y: Int, top: Int, rule: Rule.Type) {
        let layout = cells.layout
        let bits = cells.bitRow(y, top: top)
        let cell = cells.cellRow(y, top: top)
        let pixels = dst.row(y)
        let width = dst.width
        // The row below, whose chunks under this row's marked ones are
        // prefetched (raster_fill.h's `raster_fill_prefetch_chunk` says why).
        let below: UnsafeMutablePointer<UInt8>? = y + 1 < dst.height ? dst.row(y + 1) : nil
        let painter = self.painter
        // Whole chunks under an opaque whole-channel colour go from windings
        // to pixels in integers (`FillPainter.chunkOpaque`).
        let opaque = painter.opaque && painter.integral
        // A run under a zero winding paints nothing whatever the rule, so
        // `carry != 0` skips it in one integer test rather than through the
        // rule's coverage (a conversion, a multiply and a compare on the
        // prefix sum's critical path): outside the shape, the runs of most rows.
        var carry: UInt32 = 0
        var done = layout.origin // pixels before this are painted
        for w in 0..<layout.words {
            var word = bits[w]
            if word == 0 { continue }
            bits[w] = 0
            repeat {
                let x0 = layout.origin + ((w << 6) + word.trailingZeroBitCount) << FillLanes.shift
                word &= word - 1
                if x0 > done && done < width && carry != 0 {
                    painter.run(pixels + 4 * done, count: min(x0, width) - done, coverage: Rule.coverage(carry))
                }
                if let below, x0 + FillLanes.width <= width { raster_fill_prefetch_chunk(below + 4 * x0) }
                var a = Word16Lanes()
                carry = SIMDFillSweeper.prefixSum(cell + x0, carry: carry, into: &a)
                UnsafeMutableRawPointer(cell + x0).storeBytes(of: Word16Lanes(), as: Word16Lanes.self)
                if opaque && x0 + FillLanes.width <= width {
                    painter.chunkOpaque(pixels + 4 * x0, windings: a, evenOdd: Rule.evenOdd)
                } else if x0 < width {
                    painter.chunk(pixels + 4 * x0, count: min(FillLanes.width, width - x0), coverage: Rule.coverage(a))
                }
                done = x0 + FillLanes.width
            } while word != 0
        }
        if done < width && carry != 0 { painter.run(pixels + 4 * done, count: width - done, coverage: Rule.coverage(carry)) }
    }
}
