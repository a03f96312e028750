extension NaiveBackend {
    /// K4 the straightforward way: one fixed-point cell (`FillFixed`) per
    /// pixel of the edges' bounding box, every edge's area differences
    /// added in (font-rs' accumulation, FreeType's integer cells), then each
    /// row prefix-summed, the rule applied and the
    /// covered pixels blended one channel at a time. Supersampled variants
    /// fill the cells with sample counts from per-sub-scanline crossing lists.
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        let edges = FillEdges.prepare(fill, variant: variant, width: dst.width, height: dst.height, scratch: scratch)
        if edges.count == 0 { return }
        let rows = edges.rows, cells = edges.cells
        let grid = CellGrid(
            base: scratch.buffer(ScratchSlot.fillCells, count: rows.count * cells.count, of: Int32.self),
            rows: rows, cells: cells)
        grid.base.update(repeating: 0, count: rows.count * cells.count)
        if let samples = variant.samplesPerAxis {
            NaiveSupersampler(samples: samples, rule: fill.rule).run(edges, into: grid, scratch: scratch)
            compositeCoverage(grid, prefixSum: false, rule: .nonzero, color: fill.color, onto: dst)
        } else {
            for i in 0..<edges.count { NaiveBackend.accumulate(edges.edges[i], into: grid) }
            compositeCoverage(grid, prefixSum: true, rule: fill.rule, color: fill.color, onto: dst)
        }
    }

    /// Adds one edge's exact area contribution, as differences along x, to
    /// every row it crosses (font-rs' `draw_line`): after a prefix sum along
    /// the row, cell x holds the signed area of pixel x right of the edge.
    /// The values are computed in Float (in fixed-point units) and written
    /// as differences of rounded suffix sums (`FillFixed.round(units:)`):
    /// the first cell takes the step's exact winding less the rounded rest,
    /// so every step adds exactly its `FillFixed.winding` to the row and
    /// leaves every pixel within half a unit.
    static func accumulate(_ e: SIMD4<Float>, into grid: CellGrid) {
        let dir: Float = e.w > e.y ? 1 : -1
        let (xt, yt, xb, yb) = e.w > e.y ? (e.x, e.y, e.z, e.w) : (e.z, e.w, e.x, e.y)
        let dxdy = (xb - xt) / (yb - yt)
        for row in Int(yt.rounded(.down))..<Int(yb.rounded(.up)) {
            let ya = max(yt, Float(row)), yz = min(yb, Float(row + 1))
            let dy = yz - ya
            if dy <= 0 { continue }
            // Clamped to the edge's own x range: interpolation may round past it.
            let xa = min(max(xt + (ya - yt) * dxdy, min(xt, xb)), max(xt, xb))
            let xz = min(max(xt + (yz - yt) * dxdy, min(xt, xb)), max(xt, xb))
            let d = dy * dir
            let total = FillFixed.winding(row: Float(row), ya: ya, yz: yz, down: dir > 0)
            @inline(__always) func r(_ units: Float) -> Int32 { FillFixed.round(units: units) }
            let scale = FillFixed.scale
            let lo = min(xa, xz), hi = max(xa, xz)
            let loFloor = lo.rounded(.down), hiCeil = hi.rounded(.up)
            let i0 = Int(loFloor), i1 = Int(hiCeil)
            let cell = grid.row(row) - grid.cells.lowerBound
            if i1 <= i0 + 1 {
                // Within one pixel column: the trapezoid's area right of it.
                let mid = 0.5 * (xa + xz) - loFloor
                let right = r(d * mid * scale)
                cell[i0] &+= total &- right
                cell[i0 + 1] &+= right
            } else {
                // Across columns: the area right of the edge in each column
                // is a quadratic in x at the ends and linear in between.
                let s = 1 / (hi - lo)
                let f0 = lo - loFloor
                let a0 = 0.5 * s * (1 - f0) * (1 - f0)
                let f1 = hi - hiCeil + 1
                let am = 0.5 * s * f1 * f1
                // Suffix sums from the right: last, + penultimate, + each
                // middle cell, + second; the first cell gets the rest.
                let last = d * am * scale
                let suffix: Int32
                if i1 == i0 + 2 {
                    suffix = r(last + d * (1 - a0 - am) * scale)
                    cell[i0 + 1] &+= suffix &- r(last)
                } else {
                    let a1 = s * (1.5 - f0)
                    let count = i1 - i0 - 3
                    let a2 = a1 + Float(count) * s
                    let base = last + d * (1 - a2 - am) * scale, middle = d * s * scale
                    cell[i1 - 1] &+= r(base) &- r(last)
                    // Middle cell i0 + 2 + i: U = base + (count - i) middle.
                    var k = Float(count)
                    var previous = r(base + k * middle)
                    suffix = r(base + k * middle + d * (a1 - a0) * scale)
                    cell[i0 + 1] &+= suffix &- previous
                    for x in (i0 + 2)..<(i1 - 1) {
                        k -= 1
                        let next = r(base + k * middle)
                        cell[x] &+= previous &- next
                        previous = next
                    }
                }
                cell[i0] &+= total &- suffix
                cell[i1] &+= r(last)
            }
        }
    }

    /// Turns each row of cells into coverage (a running sum when
    /// `prefixSum`, else the cells are coverage already), applies the rule
    /// and blends the colour into every pixel with coverage.
    func compositeCoverage(_ grid: CellGrid, prefixSum: Bool, rule: FillRule, color: Color, onto dst: ImageView) {
        let c = color.simd
        let alpha = c.w / 255
        let first = max(0, grid.cells.lowerBound), last = min(dst.width, grid.cells.upperBound)
        for y in grid.rows {
            let cell = grid.row(y) - grid.cells.lowerBound
            let pixels = dst.row(y)
            var winding: Int32 = 0
            for x in first..<last {
                winding = prefixSum ? winding &+ cell[x] : cell[x]
                let m = FillCoverage.coverage(winding, evenOdd: rule == .evenodd)
                if m <= 0 { continue }
                let inverse = 1 - m * alpha
                for ch in 0..<4 {
                    let v = c[ch] * m + Float(pixels[4 * x + ch]) * inverse
                    pixels[4 * x + ch] = UInt8(min(255, max(0, v)) + 0.5)
                }
            }
        }
    }

}

/// A rows x cells window of fixed-point cells (`FillFixed`; one per pixel
/// column plus guard cells), row-major, addressed by absolute row and cell index.
struct CellGrid {
    let base: UnsafeMutablePointer<Int32>
    let rows: Range<Int>
    let cells: Range<Int>

    /// The start of row `y`'s cells (index it with cell - cells.lowerBound).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<Int32> { base + (y - rows.lowerBound) * cells.count }
}

/// Supersampling the classic way: for each sub-scanline, the x where every
/// edge crosses it, sorted; walking them with a winding count gives the
/// inside spans, and every sample centre inside a span adds 1/S^2 to its
/// pixel's cell.
struct NaiveSupersampler {
    let samples: Int
    let rule: FillRule

    func run(_ edges: FillEdges, into grid: CellGrid, scratch: Scratch) {
        let s = Float(samples)
        // Sub-scanline k samples y = (k + 0.5) / S; an edge from yt to yb
        // crosses those with yt <= y < yb, i.e. k in [ceil(yt S - 0.5), ceil(yb S - 0.5)).
        func firstSub(_ y: Float) -> Int { Int((y * s - 0.5).rounded(.up)) }
        let k0 = grid.rows.lowerBound * samples, lines = grid.rows.count * samples
        let starts = scratch.buffer(ScratchSlot.fillCrossingCounts, count: lines + 1, of: Int.self)
        starts.update(repeating: 0, count: lines + 1)
        for i in 0..<edges.count {
            let e = edges.edges[i]
            for k in firstSub(min(e.y, e.w))..<firstSub(max(e.y, e.w)) { starts[k - k0 + 1] += 1 }
        }
        for k in 0..<lines { starts[k + 1] += starts[k] }
        let crossings = scratch.buffer(ScratchSlot.fillCrossings, count: max(1, starts[lines]), of: SIMD2<Float>.self)
        // Filling advances starts[k] to the end of list k (= the start of k + 1).
        for i in 0..<edges.count {
            let e = edges.edges[i]
            let dir: Float = e.w > e.y ? 1 : -1
            let dxdy = (e.z - e.x) / (e.w - e.y)
            for k in firstSub(min(e.y, e.w))..<firstSub(max(e.y, e.w)) {
                let y = (Float(k) + 0.5) / s
                crossings[starts[k - k0]] = SIMD2(e.x + (y - e.y) * dxdy, dir)
                starts[k - k0] += 1
            }
        }
        // 1 / S^2 of a pixel: exact in fixed point (S^2 divides `one`).
        let weight = FillFixed.one / Int32(samples * samples)
        for k in 0..<lines {
            let begin = k == 0 ? 0 : starts[k - 1]
            let list = UnsafeMutableBufferPointer(start: crossings + begin, count: starts[k] - begin)
            CrossingSort.byX(list)
            let cell = grid.row((k + k0) / samples) - grid.cells.lowerBound
            var winding = 0
            for j in 0..<list.count {
                winding += Int(list[j].y)
                let inside = FillCoverage.inside(winding, evenOdd: rule == .evenodd)
                guard inside, j + 1 < list.count else { continue }
                // Samples with centre (n + 0.5) / S in [x_j, x_{j+1}).
                let from = Int((list[j].x * s - 0.5).rounded(.up))
                let to = Int((list[j + 1].x * s - 0.5).rounded(.up))
                if from < to {
                    for n in from..<to { cell[n / samples] &+= weight }
                }
            }
        }
    }
}
