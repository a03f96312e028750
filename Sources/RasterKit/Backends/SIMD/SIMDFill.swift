extension SIMDBackend {
    /// K4 as a sparse-scanline rasteriser (the scheme of FreeType's gray
    /// rasteriser, font-rs and Blend2D), banded for threads:
    ///
    /// 1. the path is flattened and clipped once (`FillEdges`) and its edges
    ///    bucketed by 32-row strip (`FillStrips`);
    /// 2. each thread takes a contiguous run of strips; per strip it adds
    ///    every edge's area differences into a strip-sized cell buffer and
    ///    marks the 16-cell chunks it touched in a bitmap;
    /// 3. each row is then swept chunk by marked chunk: a 16-lane prefix sum
    ///    gives the winding, the rule the coverage, and 16 pixels are
    ///    composited at once; between marked chunks the coverage is
    ///    constant and painted as a run (a plain store when solid).
    ///
    /// So only the rows and spans the path covers are touched, and the
    /// interior of a shape costs a store per pixel.
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        let edges = FillEdges.prepare(fill, tolerance: variant.tolerance, width: dst.width, height: dst.height, scratch: scratch)
        if edges.count == 0 { return }
        let samples = variant.samplesPerAxis ?? 0
        let strips = FillStrips(edges, samples: samples, scratch: scratch)

        let bands = min(threads, strips.count)
        let layout = CellLayout(edges: edges)
        let cellsPerBand = FillStrips.rows * layout.stride
        let wordsPerBand = FillStrips.rows * layout.words
        let subLines = FillStrips.rows * samples
        let memory = SIMDFillBand.Memory(
            cells: scratch.buffer(ScratchSlot.fillCells, count: bands * cellsPerBand, of: Float.self),
            bitmap: scratch.buffer(ScratchSlot.fillBitmap, count: bands * wordsPerBand, of: UInt64.self),
            crossings: scratch.buffer(ScratchSlot.fillCrossings, count: samples > 0 ? bands * max(1, strips.maxCrossings) : 1,
                                      of: SIMD2<Float>.self),
            starts: scratch.buffer(ScratchSlot.fillCrossingCounts, count: samples > 0 ? bands * (subLines + 1) : 1, of: Int32.self),
            lanes: scratch.buffer(ScratchSlot.fillLanes, count: 8 * bands, of: Float16Lanes.self))
        let painter = FillPainter(fill.color)
        let masks = scratch.buffer(ScratchSlot.fillPrefixMasks, count: FillLanes.width, of: Float16Lanes.self)
        PrefixMasks.write(masks)
        let evenOdd = fill.rule == .evenodd && samples == 0
        let work = { (band: Int) in
            let worker = SIMDFillBand(
                edges: edges, strips: strips, layout: layout, dst: dst, painter: painter, samples: samples,
                evenOddSamples: fill.rule == .evenodd,
                cells: memory.cells + band * cellsPerBand, bitmap: memory.bitmap + band * wordsPerBand,
                crossings: memory.crossings + band * max(1, strips.maxCrossings),
                starts: memory.starts + band * (subLines + 1), masks: masks, lanes: memory.lanes + 8 * band)
            let range = strips.count * band / bands ..< strips.count * (band + 1) / bands
            if evenOdd { worker.run(range, rule: EvenOddCoverage.self) } else { worker.run(range, rule: NonZeroCoverage.self) }
        }
        WorkerPool.shared(threads: threads).run(bands, work)
    }
}

/// Where a strip's cells sit: cells cover the pixel columns from `origin`
/// (the edges' first column, rounded down to a chunk) in rows of `stride`
/// floats (whole 16-cell chunks, including the two guard cells past the
/// edges' last column), with one bit per chunk in `words` words per row.
struct CellLayout {
    let origin: Int
    let stride: Int
    let words: Int

    init(edges: FillEdges) {
        let cells = edges.cells
        origin = cells.lowerBound & ~(FillLanes.width - 1)
        stride = (cells.upperBound - origin + FillLanes.width - 1) & ~(FillLanes.width - 1)
        words = (stride / FillLanes.width + 63) / 64
    }
}

/// One thread's share of a fill: a run of strips, with its own cells.
struct SIMDFillBand {
    struct Memory {
        let cells: UnsafeMutablePointer<Float>
        let bitmap: UnsafeMutablePointer<UInt64>
        let crossings: UnsafeMutablePointer<SIMD2<Float>>
        let starts: UnsafeMutablePointer<Int32>
        let lanes: UnsafeMutablePointer<Float16Lanes>
    }

    let edges: FillEdges
    let strips: FillStrips
    let layout: CellLayout
    let dst: ImageView
    let painter: FillPainter
    /// Samples per axis, 0 for exact area coverage.
    let samples: Int
    let evenOddSamples: Bool
    let cells: UnsafeMutablePointer<Float>
    let bitmap: UnsafeMutablePointer<UInt64>
    let crossings: UnsafeMutablePointer<SIMD2<Float>>
    let starts: UnsafeMutablePointer<Int32>
    let masks: UnsafeMutablePointer<Float16Lanes>
    /// Seven vectors of this band's own, for `addEdge`'s lane-by-lane scatter.
    let lanes: UnsafeMutablePointer<Float16Lanes>

    func run<Rule: CoverageRule>(_ range: Range<Int>, rule: Rule.Type) {
        if range.isEmpty { return }
        // The sweep leaves cells and bits zero, so clearing once per call suffices.
        cells.update(repeating: 0, count: FillStrips.rows * layout.stride)
        bitmap.update(repeating: 0, count: FillStrips.rows * layout.words)
        let ramp = FillLanes.ramp
        for s in range {
            let top = (strips.first + s) * FillStrips.rows
            let bottom = min(top + FillStrips.rows, dst.height)
            if samples == 0 {
                for j in strips.edges(of: s) { addEdge(edges.edges[Int(strips.indices[j])], top: top, bottom: bottom, ramp: ramp) }
            } else {
                sample(strip: s, top: top, bottom: bottom)
            }
            for y in top..<bottom { sweep(row: y, top: top, rule: rule) }
        }
    }

    /// Cells of pixel row `y` of the strip starting at `top`, indexed by absolute column.
    @inline(__always)
    func cellRow(_ y: Int, top: Int) -> UnsafeMutablePointer<Float> { cells + (y - top) * layout.stride - layout.origin }

    @inline(__always)
    func bitRow(_ y: Int, top: Int) -> UnsafeMutablePointer<UInt64> { bitmap + (y - top) * layout.words }

    /// Marks the chunks holding cells `from...to` (absolute columns).
    @inline(__always)
    func mark(_ bits: UnsafeMutablePointer<UInt64>, from: Int, to: Int) {
        let c0 = (from - layout.origin) >> 4, c1 = (to - layout.origin) >> 4
        let w0 = c0 >> 6, w1 = c1 >> 6
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

    /// One edge's area differences for the rows of this strip it crosses
    /// (font-rs' `draw_line`, the arithmetic of `NaiveBackend.accumulate`),
    /// sixteen rows at a time in lanes: every row's x range, cell span and
    /// the values it adds to its first, second, middle, second-last and last
    /// cells are computed as vectors (one division for 16 rows), then
    /// scattered row by row. x at each row boundary comes from the edge's
    /// end points, never from the previous row, so a strip's result does
    /// not depend on where its band begins.
    @inline(__always)
    func addEdge(_ e: SIMD4<Float>, top: Int, bottom: Int, ramp: Float16Lanes) {
        let dir: Float = e.w > e.y ? 1 : -1
        let (xt, yt, xb, yb) = e.w > e.y ? (e.x, e.y, e.z, e.w) : (e.z, e.w, e.x, e.y)
        let dxdy = (xb - xt) / (yb - yt)
        // Interpolated x may round past the end points; clamp to them so
        // that cell indices stay inside the clipped canvas.
        let xMin = Float16Lanes(repeating: min(xt, xb)), xMax = Float16Lanes(repeating: max(xt, xb))
        let first = max(top, FillLanes.floorInt(yt)), end = min(bottom, FillLanes.ceilInt(yb))
        let one = Float16Lanes(repeating: 1)
        var y = first
        while y < end {
            let rows = ramp + Float(y)
            let ya = FillLanes.maximum(rows, Float16Lanes(repeating: yt))
            let yz = FillLanes.minimum(rows + 1, Float16Lanes(repeating: yb))
            let xa = FillLanes.minimum(FillLanes.maximum((ya - yt) * dxdy + xt, xMin), xMax)
            let xz = FillLanes.minimum(FillLanes.maximum((yz - yt) * dxdy + xt, xMin), xMax)
            let d = (yz - ya) * dir
            let lo = FillLanes.minimum(xa, xz), hi = FillLanes.maximum(xa, xz)
            let loFloor = lo.rounded(.down), hiCeil = hi.rounded(.up)
            let span = FillLanes.maximum(hiCeil - loFloor, one) // cells after the first
            // Within one column: the trapezoid's area right of the edge.
            let right = d * ((xa + xz) * 0.5 - loFloor)
            // Across columns: quadratic at the ends, linear in between.
            let s = one / FillLanes.maximum(hi - lo, Float16Lanes(repeating: 1e-30))
            let f0 = lo - loFloor, f1 = hi - hiCeil + 1
            let a0 = 0.5 * s * (1 - f0) * (1 - f0)
            let am = 0.5 * s * f1 * f1
            let a1 = s * (1.5 - f0)
            let a2 = a1 + (span - 3) * s
            let single = span .<= one
            let firstValue = (d * a0).replacing(with: d - right, where: single)
            let secondValue = (d * (a1 - a0)).replacing(with: d * (1 - a0 - am), where: span .== 2).replacing(with: right, where: single)
            let middle = d * s, penultimate = d * (1 - a2 - am), last = d * am
            // Through memory once: indexing a vector lane by lane makes LLVM
            // store the whole vector again for every lane.
            let raw = UnsafeMutableRawPointer(lanes)
            raw.storeBytes(of: firstValue, toByteOffset: 0, as: Float16Lanes.self)
            raw.storeBytes(of: secondValue, toByteOffset: 64, as: Float16Lanes.self)
            raw.storeBytes(of: middle, toByteOffset: 128, as: Float16Lanes.self)
            raw.storeBytes(of: penultimate, toByteOffset: 192, as: Float16Lanes.self)
            raw.storeBytes(of: last, toByteOffset: 256, as: Float16Lanes.self)
            raw.storeBytes(of: FillLanes.toInt(loFloor), toByteOffset: 320, as: Word16Lanes.self)
            raw.storeBytes(of: FillLanes.toInt(span), toByteOffset: 384, as: Word16Lanes.self)
            let value = UnsafePointer<Float>(OpaquePointer(lanes))
            let index = UnsafePointer<UInt32>(OpaquePointer(lanes + 5))
            for i in 0..<min(FillLanes.width, end - y) {
                let row = y + i
                let cell = cellRow(row, top: top)
                let c = Int(index[i]), n = Int(index[16 + i])
                cell[c] += value[i]
                cell[c + 1] += value[16 + i]
                if n > 1 {
                    if n > 2 {
                        let m = value[32 + i]
                        for x in (c + 2)..<(c + n - 1) { cell[x] += m }
                        cell[c + n - 1] += value[48 + i]
                    }
                    cell[c + n] += value[64 + i]
                }
                mark(bitRow(row, top: top), from: c, to: c + n)
            }
            y += FillLanes.width
        }
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
        var carry: Float = 0
        var done = layout.origin // pixels before this are painted
        for w in 0..<layout.words {
            var word = bits[w]
            if word == 0 { continue }
            bits[w] = 0
            repeat {
                let x0 = layout.origin + ((w << 6) + word.trailingZeroBitCount) << 4
                word &= word - 1
                if x0 > done && done < width {
                    painter.run(pixels + 4 * done, count: min(x0, width) - done, coverage: Rule.coverage(carry))
                }
                let local = prefix.prefixSum(cell + x0)
                UnsafeMutableRawPointer(cell + x0).storeBytes(of: Float16Lanes(), as: Float16Lanes.self)
                let a = local + carry
                carry += local[FillLanes.width - 1]
                if x0 < width {
                    painter.chunk(pixels + 4 * x0, count: min(FillLanes.width, width - x0), coverage: Rule.coverage(a))
                }
                done = x0 + FillLanes.width
            } while word != 0
        }
        if done < width { painter.run(pixels + 4 * done, count: width - done, coverage: Rule.coverage(carry)) }
    }
}
