extension SIMDBackend {
    /// K4 as a sparse-scanline rasteriser (the scheme of FreeType's gray
    /// rasteriser, font-rs and Blend2D), banded for threads:
    ///
    /// 1. the rows the path's control box covers are cut into 32-row strips
    ///    and each thread takes a contiguous run of them (a band);
    /// 2. each thread flattens and clips the path for its own rows
    ///    (`FillEdges`, curves outside them culled to chords) and buckets
    ///    the edges by strip (`FillStrips`) -- so no serial set-up;
    /// 3. per strip it adds every edge's area differences into a
    ///    strip-sized cell buffer -- sixteen row steps at a time
    ///    (SIMDFillAccumulate.swift) -- and marks the 16-cell chunks it
    ///    touched in a bitmap;
    /// 4. each row is then swept chunk by marked chunk: a 16-lane prefix sum
    ///    gives the winding, the rule the coverage, and 16 pixels are
    ///    composited at once; between marked chunks the coverage is
    ///    constant and painted as a run (a plain store when solid).
    ///
    /// So only the rows and spans the path covers are touched, and the
    /// interior of a shape costs a store per pixel. Strips, their edges (in
    /// path order) and the cell layout are the same whatever the banding,
    /// so the image does not depend on the thread count.
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        guard let layout = CellLayout(path: fill.path, width: dst.width, height: dst.height) else { return }
        let strips = FillStrips.covering(layout.rows)
        // One band per thread, taken as threads come free (`WorkerPool`: a
        // thread the scheduler holds back leaves its band to the caller).
        // (Tried: four or two bands per thread, for shapes whose rows cost
        // unevenly -- the blob's halves differ by ~25% -- but each band
        // flattens the path again, and the extra set-ups cost more.)
        let bands = min(threads, strips.count)
        scratch.reserveBands(bands)
        let painter = FillPainter(fill.color)
        // The masks never change: written once per scratch, not per frame.
        let masks = scratch.buffer(ScratchSlot.fillPrefixMasks, count: FillLanes.width, of: Word16Lanes.self, key: 0)
        if masks.fresh { PrefixMasks.write(masks.pointer) }
        let samples = variant.samplesPerAxis ?? 0
        let evenOdd = fill.rule == .evenodd && samples == 0
        // A closure literal straight into `run` (not a stored `let`): a stored
        // closure is escaping and costs a heap context per call.
        WorkerPool.shared(threads: threads).run(items: bands) { worker, band in
            let own = strips.lowerBound + strips.count * band / bands ..< strips.lowerBound + strips.count * (band + 1) / bands
            let rows = own.lowerBound * FillStrips.rows ..< min(own.upperBound * FillStrips.rows, dst.height)
            let scratch = scratch.band(worker)
            let edges = FillEdges.prepare(fill, tolerance: variant.tolerance, width: dst.width, height: dst.height,
                                          rows: rows, scratch: scratch)
            if edges.count == 0 { return }
            let strips = FillStrips(edges, samples: samples, range: own, scratch: scratch)
            let subLines = FillStrips.rows * samples
            // Cells and bits are zero between fills (every sweep clears what
            // it swept, and only swept chunks are written), so only new
            // memory is cleared.
            let cellCount = FillStrips.rows * layout.stride + SIMDFillBand.cellGuard, wordCount = FillStrips.rows * layout.words
            let cells = scratch.buffer(ScratchSlot.fillCells, count: cellCount, of: UInt32.self, key: 0)
            let bitmap = scratch.buffer(ScratchSlot.fillBitmap, count: wordCount, of: UInt64.self, key: 0)
            if cells.fresh { cells.pointer.update(repeating: 0, count: cellCount) }
            if bitmap.fresh { bitmap.pointer.update(repeating: 0, count: wordCount) }
            let worker = SIMDFillBand(
                edges: edges, strips: strips, layout: layout, dst: dst, painter: painter, samples: samples,
                evenOddSamples: fill.rule == .evenodd, cells: cells.pointer, bitmap: bitmap.pointer,
                crossings: scratch.buffer(ScratchSlot.fillCrossings, count: max(1, strips.maxCrossings), of: SIMD2<Float>.self),
                starts: scratch.buffer(ScratchSlot.fillCrossingCounts, count: samples > 0 ? subLines + 1 : 1, of: Int32.self),
                masks: masks.pointer,
                lanes: scratch.buffer(ScratchSlot.fillLanes, count: SIMDFillBand.laneVectors, of: Float16Lanes.self))
            if evenOdd { worker.run(0..<strips.count, rule: EvenOddCoverage.self) } else { worker.run(0..<strips.count, rule: NonZeroCoverage.self) }
        }
    }
}

/// One thread's share of a fill: a run of strips, with its own cells.
struct SIMDFillBand {
    let edges: FillEdges
    let strips: FillStrips
    let layout: CellLayout
    let dst: ImageView
    let painter: FillPainter
    /// Samples per axis, 0 for exact area coverage.
    let samples: Int
    let evenOddSamples: Bool
    /// Fixed-point winding differences (`FillFixed`), wrapping.
    let cells: UnsafeMutablePointer<UInt32>
    let bitmap: UnsafeMutablePointer<UInt64>
    let crossings: UnsafeMutablePointer<SIMD2<Float>>
    let starts: UnsafeMutablePointer<Int32>
    let masks: UnsafeMutablePointer<Word16Lanes>
    /// `laneVectors` vectors of this band's own: the row steps staged for
    /// the next batch and the batch's results (see SIMDFillAccumulate.swift).
    let lanes: UnsafeMutablePointer<Float16Lanes>

    func run<Rule: CoverageRule>(_ range: Range<Int>, rule: Rule.Type) {
        if range.isEmpty { return }
        for s in range {
            let top = (strips.first + s) * FillStrips.rows
            let bottom = min(top + FillStrips.rows, dst.height)
            if samples == 0 {
                var staged = 0
                for j in strips.edges(of: s) {
                    stage(edges.edges[Int(strips.indices[j])], top: top, bottom: bottom, staged: &staged)
                }
                if staged > 0 { flush(staged, top: top) }
            } else {
                sample(strip: s, top: top, bottom: bottom)
            }
            for y in top..<bottom { sweep(row: y, top: top, rule: rule) }
        }
    }

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

    /// Sweeps one row: marked chunks get a prefix sum and per-pixel
    /// coverage, the runs between them one constant coverage. Cells and
    /// bits are cleared on the way.
    @inline(__always)
    func sweep<Rule: CoverageRule>(row y: Int, top: Int, rule: Rule.Type) {
        let bits = bitRow(y, top: top)
        let cell = cellRow(y, top: top)
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
