/// The inclusive prefix sum of 16 fixed-point cells, as 16 adds of a
/// broadcast cell ANDed with an all-ones step mask (lanes >= j): on
/// AVX-512 a vpandd with an embedded broadcast and a vpaddd each, off the
/// running sum's critical path; exact (wrapping) integer sums. The masks come from memory filled at run
/// time on purpose: shuffle-based scans (Hillis-Steele, Blelloch) and
/// compile-time constant masks are both "optimised" by LLVM into ~60
/// scattered 128-bit shuffles on this toolchain.
struct PrefixMasks {
    let m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15: Word16Lanes

    /// Loads the 16 masks written by `PrefixMasks.write`.
    @_transparent
    init(_ p: UnsafePointer<Word16Lanes>) {
        m0 = p[0]; m1 = p[1]; m2 = p[2]; m3 = p[3]; m4 = p[4]; m5 = p[5]; m6 = p[6]; m7 = p[7]
        m8 = p[8]; m9 = p[9]; m10 = p[10]; m11 = p[11]; m12 = p[12]; m13 = p[13]; m14 = p[14]; m15 = p[15]
    }

    /// Mask j has ones in lanes j... Kept out of line so its stores are not
    /// forwarded to the loads as constants.
    @inline(never)
    static func write(_ p: UnsafeMutablePointer<Word16Lanes>) {
        for j in 0..<FillLanes.width {
            var v = Word16Lanes()
            for i in j..<FillLanes.width { v[i] = ~0 }
            p[j] = v
        }
    }

    /// a_i = sum of q[0...i].
    @_transparent
    func prefixSum(_ q: UnsafePointer<UInt32>) -> Word16Lanes {
        @_transparent func b(_ i: Int) -> Word16Lanes { Word16Lanes(repeating: q[i]) }
        var a0 = m0 & b(0), a1 = m1 & b(1), a2 = m2 & b(2), a3 = m3 & b(3)
        a0 &+= m4 & b(4); a1 &+= m5 & b(5); a2 &+= m6 & b(6); a3 &+= m7 & b(7)
        a0 &+= m8 & b(8); a1 &+= m9 & b(9); a2 &+= m10 & b(10); a3 &+= m11 & b(11)
        a0 &+= m12 & b(12); a1 &+= m13 & b(13); a2 &+= m14 & b(14); a3 &+= m15 & b(15)
        return (a0 &+ a1) &+ (a2 &+ a3)
    }
}

/// The row sweep of the simd schedule: each row of the strip's cells is
/// walked chunk by marked chunk -- a 16-lane prefix sum gives the winding,
/// the rule the coverage, and the painter composites 16 pixels at once --
/// and between marked chunks the coverage is constant and painted as a run.
struct SIMDFillSweeper {
    let cells: SIMDFillCells
    let dst: ImageView
    let painter: FillPainter
    /// The prefix sum's step masks (`PrefixMasks.write`).
    let masks: UnsafeMutablePointer<Word16Lanes>

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
        let painter = self.painter
        let prefix = PrefixMasks(masks)
        var carry: UInt32 = 0
        var done = layout.origin // pixels before this are painted
        for w in 0..<layout.words {
            var word = bits[w]
            if word == 0 { continue }
            bits[w] = 0
            repeat {
                let x0 = layout.origin + ((w << 6) + word.trailingZeroBitCount) << FillLanes.shift
                word &= word - 1
                if x0 > done && done < width {
                    painter.run(pixels + 4 * done, count: min(x0, width) - done, coverage: Rule.coverage(carry))
                }
                let local = prefix.prefixSum(cell + x0)
                UnsafeMutableRawPointer(cell + x0).storeBytes(of: Word16Lanes(), as: Word16Lanes.self)
                let a = local &+ carry
                carry &+= local[FillLanes.width - 1]
                if x0 < width {
                    painter.chunk(pixels + 4 * x0, count: min(FillLanes.width, width - x0), coverage: Rule.coverage(a))
                }
                done = x0 + FillLanes.width
            } while word != 0
        }
        if done < width { painter.run(pixels + 4 * done, count: width - done, coverage: Rule.coverage(carry)) }
    }
}
