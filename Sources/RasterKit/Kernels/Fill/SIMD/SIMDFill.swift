extension SIMDBackend {
    /// K4 as a sparse-scanline rasteriser (the scheme of FreeType's gray
    /// rasteriser, font-rs and Blend2D), banded for threads:
    ///
    /// 1. the rows the path's control box covers are cut into 32-row strips
    ///    and each thread takes a contiguous run of them (a band);
    /// 2. each thread flattens and clips the path for its own rows (curves
    ///    outside them culled to chords), each edge appended to its first
    ///    strip's bucket as it is made (`FillStrips`) -- so no serial set-up;
    /// 3. per strip, its edges (its bucket's and those carried from the
    ///    strip above, `FillStripWalk`), it adds every edge's area differences into a
    ///    strip-sized cell buffer -- sixteen row steps at a time
    ///    (SIMDFillAccumulate.swift) -- and marks the 16-cell chunks it
    ///    touched in a bitmap;
    /// 4. each row is then swept chunk by marked chunk: a 16-lane prefix sum
    ///    gives the winding, the rule the coverage, and 16 pixels are
    ///    composited at once; between marked chunks the coverage is
    ///    constant and painted as a run (a plain store when solid).
    ///
    /// So only the rows and spans the path covers are touched, and the
    /// interior of a shape costs a store per pixel. Strips, their edges and
    /// the cell layout are the same whatever the banding, so the image does
    /// not depend on the thread count.
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        guard let layout = CellLayout(path: fill.path, width: dst.width, height: dst.height) else { return }
        let strips = FillStrips.covering(layout.rows)
        // One band of strips per thread (`FillStrips.bands`), taken as
        // threads come free (`RowBands`: a thread the scheduler holds back
        // leaves its band to the caller).
        let bands = FillStrips.bands(strips, threads: threads)
        scratch.reserveBands(bands.workers)
        let painter = FillPainter(fill.color)
        let samples = variant.samplesPerAxis ?? 0
        let evenOdd = fill.rule == .evenodd && samples == 0
        // A closure literal straight into `run` (not a stored `let`): a stored
        // closure is escaping and costs a heap context per call.
        bands.run { worker, band in
            let own = strips.lowerBound + band.lowerBound ..< strips.lowerBound + band.upperBound
            let scratch = scratch.band(worker)
            let strips = FillStrips.prepare(fill, variant: variant, width: dst.width, height: dst.height,
                                            range: own, scratch: scratch)
            if strips.isEmpty { return }
            let subLines = FillStrips.rows * samples
            // Cells and bits are zero between fills (every sweep clears what
            // it swept, and only swept chunks are written), so only new
            // memory is cleared -- all of it, not just this layout's part:
            // a later fill with a wider layout takes the rest as zero, and
            // memory another schedule used (keyed otherwise, so `fresh`
            // here) holds anything.
            let cellCount = FillStrips.rows * layout.stride + SIMDFillAccumulator.cellGuard, wordCount = FillStrips.rows * layout.words
            let cells = scratch.buffer(ScratchSlot.fillCells, count: cellCount, of: UInt32.self, key: 0)
            let bitmap = scratch.buffer(ScratchSlot.fillBitmap, count: wordCount, of: UInt64.self, key: 0)
            if cells.fresh {
                cells.pointer.update(repeating: 0, count: scratch.capacity(ScratchSlot.fillCells, of: UInt32.self))
            }
            if bitmap.fresh {
                bitmap.pointer.update(repeating: 0, count: scratch.capacity(ScratchSlot.fillBitmap, of: UInt64.self))
            }
            let store = SIMDFillCells(layout: layout, cells: cells.pointer, bitmap: bitmap.pointer)
            let worker = SIMDFillBand(
                walk: FillStripWalk(strips, scratch: scratch),
                accumulator: SIMDFillAccumulator(
                    cells: store,
                    lanes: scratch.buffer(ScratchSlot.fillLanes, count: SIMDFillAccumulator.laneVectors, of: Float16Lanes.self)),
                sampler: SIMDFillSampler(
                    cells: store, samples: samples, evenOdd: fill.rule == .evenodd,
                    crossings: scratch.buffer(ScratchSlot.fillCrossings, count: max(1, strips.maxCrossings), of: SIMD2<Float>.self),
                    starts: scratch.buffer(ScratchSlot.fillCrossingCounts, count: samples > 0 ? subLines + 1 : 1, of: Int32.self)),
                sweeper: SIMDFillSweeper(cells: store, dst: dst, painter: painter))
            if evenOdd { worker.run(rule: EvenOddCoverage.self) } else { worker.run(rule: NonZeroCoverage.self) }
        }
    }
}

/// One thread's share of a fill: a run of strips, each accumulated (or
/// sampled) into the band's own cells and then swept row by row. The
/// stages' state is theirs: the band only composes them.
struct SIMDFillBand {
    /// The band's edges bucketed by strip, walked from its first strip.
    let walk: FillStripWalk
    /// Exact area coverage: row steps into the cells.
    let accumulator: SIMDFillAccumulator
    /// Supersampled coverage: sample-exact spans into the same cells.
    let sampler: SIMDFillSampler
    /// Prefix sums, the rule and the paint, row by row.
    let sweeper: SIMDFillSweeper

    /// Rasterises the band's strips, first to last.
    func run<Rule: CoverageRule>(rule: Rule.Type) {
        var walk = self.walk
        for s in 0..<walk.strips.count {
            let top = (walk.strips.first + s) * FillStrips.rows
            let bottom = min(top + FillStrips.rows, sweeper.dst.height)
            if sampler.samples == 0 {
                accumulator.add(&walk, strip: s, top: top, bottom: bottom)
            } else {
                sampler.sample(&walk, strip: s, top: top, bottom: bottom)
            }
            for y in top..<bottom { sweeper.sweep(row: y, top: top, rule: rule) }
        }
    }
}
