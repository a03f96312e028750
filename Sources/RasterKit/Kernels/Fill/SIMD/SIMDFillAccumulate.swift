import CRasterOMP

/// K4's area accumulation in the SIMD backend: font-rs' `draw_line`
/// (the arithmetic of `NaiveBackend.accumulate`) on sixteen row steps at a
/// time.
///
/// A row step is one edge crossing one pixel row. The steps of a strip's
/// edges are staged in path order, edge after edge, as their row and their
/// edge's four floats (two stores a step), so a batch fills all sixteen
/// lanes whatever the edges' lengths -- a finely flattened curve has many
/// edges of one or two rows each. A full batch turns its edges into lanes,
/// orients them and computes, for every step, the cells it touches and the
/// values it adds to its first, second, middle, second-last and last cell
/// as vectors (one division for sixteen steps), then scatters them step by
/// step, still in path order. Each step's x comes from its edge's end
/// points, never from the previous row, so a strip's cells do not depend
/// on where its band begins: the image does not depend on the thread count.
///
/// The values are computed in Float and rounded once to fixed point
/// (`FillFixed`), the first cell taking the step's exact winding minus the
/// others, so the cells' integer sums are exact and order-free.
struct SIMDFillAccumulator {
    let cells: SIMDFillCells
    /// `laneVectors` vectors of this band's own: the row steps staged for
    /// the next batch and the batch's results.
    let lanes: UnsafeMutablePointer<Float16Lanes>

    /// Vectors staged (the rows, then four of edges) and computed per batch
    /// (9 results, then 4 of the first four cells' values, as rows),
    /// raster_fill.h's RASTER_OMP_FILL_STAGE_VECTORS.
    static let laneVectors = Int(RASTER_OMP_FILL_STAGE_VECTORS)

    /// An edge with at least this many rows in a strip is computed straight
    /// from registers, sixteen of its rows at a time, skipping the staging
    /// stores and the store-forwarding stall of reloading them as vectors
    /// (raster_fill.h's RASTER_OMP_FILL_DIRECT_ROWS says why).
    static let directRows = Int(RASTER_OMP_FILL_DIRECT_ROWS)

    /// Cells past a band's last row of cells (RASTER_OMP_FILL_CELL_GUARD).
    static let cellGuard = Int(RASTER_OMP_FILL_CELL_GUARD)

    /// Adds the steps of strip `s`'s edges (rows [top, bottom)), the
    /// walk's next strip, and moves the walk on.
    @inline(__always)
    func add(_ walk: inout FillStripWalk, strip s: Int, top: Int, bottom: Int) {
        var staged = 0
        walk.forEachEdge(ofStrip: s, carryingBelow: bottom) { stage($0, top: top, bottom: bottom, staged: &staged) }
        if staged > 0 { flush(staged, top: top) }
    }

    /// Stages the steps of edge `e` within rows [top, bottom), flushing
    /// every full batch; `staged` is the batch's fill level. A step is its
    /// row and its edge as the bucket holds it: the batch works out the
    /// rest (`flush`).
    @inline(__always)
    func stage(_ e: SIMD4<Float>, top: Int, bottom: Int, staged: inout Int) {
        let down = e.w > e.y
        let first = max(top, Lanes.floorInt(down ? e.y : e.w)), end = min(bottom, Lanes.ceilInt(down ? e.w : e.y))
        let w = FillLanes.width
        if end - first >= SIMDFillAccumulator.directRows {
            // Path order: the batch so far goes first.
            if staged > 0 { flush(staged, top: top); staged = 0 }
            let dir: Float = down ? 1 : -1
            let (xt, yt, xb, yb) = down ? (e.x, e.y, e.z, e.w) : (e.z, e.w, e.x, e.y)
            direct(SIMD8(xt, yt, yb, (xb - xt) / (yb - yt), dir, min(xt, xb), max(xt, xb), 0), rows: first..<end, top: top)
            return
        }
        // Wrapping index arithmetic: k < w by construction, and the checked
        // adds cost an overflow branch per store (objdump showed a `jo`
        // after each).
        let v = UnsafeMutableRawPointer(lanes)
        let rows = v.assumingMemoryBound(to: Float.self)
        let edges = (v + MemoryLayout<Float16Lanes>.stride).assumingMemoryBound(to: SIMD4<Float>.self)
        var k = staged
        var row = first
        while row < end {
            rows[k] = Float(row)
            edges[k] = e
            k &+= 1
            if k == w { flush(w, top: top); k = 0 }
            row &+= 1
        }
        staged = k
    }

    /// Computes and adds the steps of one edge's `rows` (in this strip);
    /// `e` holds (xt, yt, yb, dx/dy, direction, xMin, xMax) as `stage` sets them.
    @inline(never)
    func direct(_ e: SIMD8<Float>, rows: Range<Int>, top: Int) {
        var row = rows.lowerBound
        while row < rows.upperBound {
            let n = min(FillLanes.width, rows.upperBound - row)
            compute(rows: Float16Lanes(repeating: Float(row)) + Lanes.ramp16,
                    xt: Float16Lanes(repeating: e[0]), yt: Float16Lanes(repeating: e[1]),
                    yb: Float16Lanes(repeating: e[2]), dxdy: Float16Lanes(repeating: e[3]),
                    dir: Float16Lanes(repeating: e[4]), xMin: Float16Lanes(repeating: e[5]),
                    xMax: Float16Lanes(repeating: e[6]))
            scatter(n, top: top)
            row += n
        }
    }

    /// Computes the `count` staged steps and adds them to the cells: the
    /// edges turned into lanes (raster_fill.h's
    /// `raster_fill_edges_to_lanes`), each lane's edge oriented top to
    /// bottom, its slope and x range, then `compute` -- the values `direct`
    /// computes for a long edge, operation for operation.
    @inline(never)
    func flush(_ count: Int, top: Int) {
        let v = UnsafeMutableRawPointer(lanes)
        let size = MemoryLayout<Float16Lanes>.stride
        raster_fill_edges_to_lanes((v + size).assumingMemoryBound(to: Float.self))
        @inline(__always) func load(_ i: Int) -> Float16Lanes { v.load(fromByteOffset: i * size, as: Float16Lanes.self) }
        let x0 = load(1), y0 = load(2), x1 = load(3), y1 = load(4)
        let down = y0 .< y1
        let xt = x1.replacing(with: x0, where: down), yt = y1.replacing(with: y0, where: down)
        let xb = x0.replacing(with: x1, where: down), yb = y0.replacing(with: y1, where: down)
        compute(rows: load(0), xt: xt, yt: yt, yb: yb, dxdy: (xb - xt) / (yb - yt),
                dir: Float16Lanes(repeating: -1).replacing(with: 1, where: down),
                xMin: Lanes.minimum(xt, xb), xMax: Lanes.maximum(xt, xb))
        scatter(count, top: top)
    }

    /// The cells sixteen row steps touch and the values they add to their
    /// first, second, middle, second-last and last cell, stored in lane
    /// vectors 5...13 for `scatter`.
    @inline(__always)
    func compute(rows: Float16Lanes, xt: Float16Lanes, yt: Float16Lanes, yb: Float16Lanes, dxdy: Float16Lanes,
                 dir: Float16Lanes, xMin: Float16Lanes, xMax: Float16Lanes) {
        let v = UnsafeMutableRawPointer(lanes)
        let size = MemoryLayout<Float16Lanes>.stride
        let one = Float16Lanes(repeating: 1)
        let ya = Lanes.maximum(rows, yt), yz = Lanes.minimum(rows + 1, yb)
        let xa = Lanes.minimum(Lanes.maximum((ya - yt) * dxdy + xt, xMin), xMax)
        let xz = Lanes.minimum(Lanes.maximum((yz - yt) * dxdy + xt, xMin), xMax)
        let d = (yz - ya) * dir
        let lo = Lanes.minimum(xa, xz), hi = Lanes.maximum(xa, xz)
        let loFloor = lo.rounded(.down), hiCeil = hi.rounded(.up)
        let span = Lanes.maximum(hiCeil - loFloor, one) // cells after the first
        // Within one column: the trapezoid's area right of the edge.
        let right = d * ((xa + xz) * 0.5 - loFloor)
        // Across columns: quadratic at the ends, linear in between.
        let s = one / Lanes.maximum(hi - lo, Float16Lanes(repeating: 1e-30))
        let f0 = lo - loFloor, f1 = hi - hiCeil + 1
        let a0 = 0.5 * s * (1 - f0) * (1 - f0)
        let am = 0.5 * s * f1 * f1
        let a1 = s * (1.5 - f0)
        let a2 = a1 + (span - 3) * s
        let single = span .<= one
        let secondValue = (d * (a1 - a0)).replacing(with: d * (1 - a0 - am), where: span .== 2)
            .replacing(with: right, where: single)
        // Unused values are zero, so `scatter` adds all five without
        // branching on the span (it alternates between two lengths along a
        // slanted edge, and a branch on it mispredicts every other row):
        // the middle value to cell 2 only when it is a middle cell (span > 3),
        // the second-last only when it is not the second (span > 2), the
        // last only when it is not the second (span > 1).
        // Fixed point (`FillFixed`): each cell gets round(U_j) - round(U_j+1),
        // U_j the step's winding in cells j and after (in units), summed
        // from the right -- last, + penultimate (`base`), + the middle
        // cells (`scatter` walks them), + second -- and the first cell the
        // step's exact winding less the rounded rest. Unused values are 0.
        let zero = Float16Lanes(), scale = FillFixed.scale
        let last = (d * am * scale).replacing(with: zero, where: single)
        let base = last + (d * (1 - a2 - am) * scale).replacing(with: zero, where: span .<= 2)
        let middle = (d * s * scale).replacing(with: zero, where: span .<= 3)
        let middles = base + (span - 3) * middle // span - 3 < 0 only where middle is 0
        let roundedMiddles = FillLanes.round(units: middles)
        let suffix = FillLanes.round(units: middles + secondValue * scale)
        let roundedLast = FillLanes.round(units: last)
        let spanInt = Lanes.toInt(span)
        let up = FillLanes.quantise(yz - rows) &- FillLanes.quantise(ya - rows)
        let total = up.replacing(with: 0 &- up, where: dir .< 0)
        // Through memory once: indexing a vector lane by lane makes LLVM
        // store the whole vector again for every lane.
        v.storeBytes(of: total &- suffix, toByteOffset: 5 * size, as: Word16Lanes.self)
        v.storeBytes(of: suffix &- roundedMiddles, toByteOffset: 6 * size, as: Word16Lanes.self)
        v.storeBytes(of: middle, toByteOffset: 7 * size, as: Float16Lanes.self)
        let penultimate = FillLanes.round(units: base) &- roundedLast
        v.storeBytes(of: penultimate, toByteOffset: 8 * size, as: Word16Lanes.self)
        v.storeBytes(of: roundedLast, toByteOffset: 9 * size, as: Word16Lanes.self)
        v.storeBytes(of: base, toByteOffset: 13 * size, as: Float16Lanes.self)
        v.storeBytes(of: Lanes.toInt(loFloor), toByteOffset: 10 * size, as: Word16Lanes.self)
        v.storeBytes(of: spanInt, toByteOffset: 11 * size, as: Word16Lanes.self)
        v.storeBytes(of: Lanes.toInt(rows), toByteOffset: 12 * size, as: Word16Lanes.self)
        // A step of span 3 or less adds its first four cells at once (the
        // values the general scatter adds there, as rows: raster_fill.h's
        // `raster_fill_lanes_to_rows`): the first, the second, the
        // penultimate (0 unless span 3) plus the last if span 2, and the last
        // if span 3. Span 1's penultimate and last are 0.
        let lastBits = unsafeBitCast(roundedLast, to: Float16Lanes.self)
        let lastIfTwo = unsafeBitCast(zero.replacing(with: lastBits, where: span .<= 2), to: Word16Lanes.self)
        let lastIfThree = unsafeBitCast(lastBits.replacing(with: zero, where: span .<= 2), to: Word16Lanes.self)
        v.storeBytes(of: total &- suffix, toByteOffset: 14 * size, as: Word16Lanes.self)
        v.storeBytes(of: suffix &- roundedMiddles, toByteOffset: 15 * size, as: Word16Lanes.self)
        v.storeBytes(of: penultimate &+ lastIfTwo, toByteOffset: 16 * size, as: Word16Lanes.self)
        v.storeBytes(of: lastIfThree, toByteOffset: 17 * size, as: Word16Lanes.self)
        raster_fill_lanes_to_rows((v + 14 * size).assumingMemoryBound(to: UInt32.self))
    }

    /// Adds the `count` computed steps to the cells, in lane (path) order.
    @inline(__always)
    func scatter(_ count: Int, top: Int) {
        let v = UnsafeMutableRawPointer(lanes)
        let size = MemoryLayout<Float16Lanes>.stride
        let w = FillLanes.width
        let value = v.assumingMemoryBound(to: UInt32.self) + 5 * w
        let index = UnsafeRawPointer(v + 10 * size).assumingMemoryBound(to: UInt32.self)
        let rows = UnsafeRawPointer(v + 14 * size) // four cells' values a step
        // Wrapping arithmetic: the indices are in the strip's cells by
        // construction (clipped edges), and Swift's overflow checks cost a
        // branch per add here.
        var i = 0
        while i < count {
            let row = Int(index[2 &* w &+ i])
            let cell = cells.cellRow(row, top: top)
            let c = Int(index[i]), n = Int(index[w &+ i])
            if n <= 3 {
                // All but about 1% of a smooth outline's steps: one 16-byte add.
                let four = UnsafeMutableRawPointer(cell + c)
                four.storeBytes(of: four.loadUnaligned(as: SIMD4<UInt32>.self)
                                    &+ rows.load(fromByteOffset: 16 &* i, as: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
                cells.mark(cells.bitRow(row, top: top), from: c, to: c &+ n)
                i &+= 1
                continue
            }
            cell[c] &+= value[i]
            cell[c &+ 1] &+= value[w &+ i]
            // Span 4 needs no branch: see `compute` (cell c + 2 gets 0
            // unless it is a middle cell). Middle cell c + 2 + i gets
            // round(U) - round(U') with U = base + (n - 3 - i) middle, as
            // `compute` rounded them.
            let m = Float(bitPattern: value[2 &* w &+ i]), b = Float(bitPattern: value[8 &* w &+ i])
            var k = Float(n &- 3)
            var previous = UInt32(bitPattern: FillFixed.round(units: b + k * m))
            k -= 1
            var next = UInt32(bitPattern: FillFixed.round(units: b + k * m))
            cell[c &+ 2] &+= previous &- next
            if n > 4 {
                var x = c &+ 3
                while x < c &+ n &- 1 {
                    previous = next
                    k -= 1
                    next = UInt32(bitPattern: FillFixed.round(units: b + k * m))
                    cell[x] &+= previous &- next
                    x &+= 1
                }
            }
            cell[c &+ n &- 1] &+= value[3 &* w &+ i]
            cell[c &+ n] &+= value[4 &* w &+ i]
            cells.mark(cells.bitRow(row, top: top), from: c, to: c &+ n)
            i &+= 1
        }
    }
}
