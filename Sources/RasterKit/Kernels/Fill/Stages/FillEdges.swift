/// K4's edges as one list: the path flattened at a variant's tolerances
/// and clipped to the canvas, as straight Float edges in path order -- the
/// naive schedule's input, and what the tests hold the banded schedules'
/// strip buckets (`FillStrips`, made from the same flattener and clipper)
/// against. `flattener` is the one every schedule uses.
///
/// The flattening is `Flattener` (FillFlatten.swift), the clip `EdgeClipper`
/// (FillClip.swift, which says why it keeps every pixel's winding exact).
struct FillEdges {
    /// (x0, y0, x1, y1) per edge; 0 <= x <= width, 0 <= y <= height and
    /// y0 != y1. The direction (down: y1 > y0) is the winding's sign.
    let edges: UnsafeMutablePointer<SIMD4<Float>>
    let count: Int
    /// Bounds of all edge end points (meaningless when `count == 0`).
    let minX: Float, minY: Float, maxX: Float, maxY: Float

    /// Rows any edge touches: floor(minY) ..< ceil(maxY), within the canvas.
    var rows: Range<Int> {
        count == 0 ? 0..<0 : Int(minY.rounded(.down)) ..< Int(maxY.rounded(.up))
    }

    /// Cells (pixel columns plus the guard cells width and width + 1) any
    /// edge writes: the cell of minX up to the one after maxX's.
    var cells: Range<Int> {
        count == 0 ? 0..<0 : Int(minX.rounded(.down)) ..< Int(maxX.rounded(.down)) + 2
    }

    /// Flattens and clips `fill.path` for a `width` x `height` canvas into
    /// one list (the naive schedule's input; the banded schedules bucket
    /// the edges as they are made, `FillStrips.prepare`); the edges live in
    /// `scratch` (slot `fillEdges`) until its next use.
    static func prepare(_ fill: PathFill, variant: FillVariant, width: Int, height: Int,
                        scratch: Scratch) -> FillEdges {
        let flattener = FillEdges.flattener(fill, variant: variant, width: width, rows: 0..<height, scratch: scratch)
        // Each segment clips into at most three edges (left of 0, inside,
        // right of W): the bound cannot overflow.
        return FillEdges.heldFirst(held: scratch.capacity(ScratchSlot.fillEdges, of: SIMD4<Float>.self),
                                   bound: { 3 * flattener.segmentCount(fill.path) }) { capacity in
            let buffer = scratch.buffer(ScratchSlot.fillEdges, count: max(1, capacity), of: SIMD4<Float>.self)
            var clipper = EdgeClipper(out: EdgeList(buffer, capacity: capacity), width: Double(width),
                                      height: Double(height), rows: (0, Double(height)))
            flattener.flatten(fill.path, into: &clipper)
            let list = clipper.out
            return list.overflowed ? nil
                : FillEdges(edges: buffer, count: list.count, minX: list.minX, minY: list.minY, maxX: list.maxX, maxY: list.maxY)
        }
    }

    /// `attempt(held)` when the memory a scratch slot already holds is
    /// enough (a frame of an animation needs about what the last one did),
    /// else `attempt(bound())` with a size that cannot overflow: counting
    /// the segments for that bound costs a second pass of the flattener's
    /// recursion, 1.5% of the blob's fill, so it is paid only on overrun.
    @inline(__always)
    static func heldFirst<Made>(held: Int, bound: () -> Int, _ attempt: (Int) -> Made?) -> Made {
        if held > 0, let made = attempt(held) { return made }
        return attempt(bound())!
    }

    /// The flattener of `fill` at `variant`'s tolerances for pixel rows
    /// `rows` of a canvas `width` wide: curves wholly above or below those
    /// rows become chords (see `Flattener`), so threads can each flatten
    /// their own band at once. What it emits for those rows is bit for bit
    /// what the whole canvas gets (clipping still uses the canvas, and a
    /// curve's subdivision -- its pieces and their tolerances too -- does
    /// not depend on what is culled), so the image does not depend on how
    /// rows are banded. The curve pieces are planned in the scratch's own
    /// object, whose arrays keep their capacity: no allocation once the
    /// first frame has run.
    static func flattener(_ fill: PathFill, variant: FillVariant, width: Int, rows: Range<Int>,
                          scratch: Scratch) -> Flattener {
        let pieces = variant.loneTolerance > variant.tolerance
            ? scratch.object(ScratchSlot.fillCurvePieces, make: { CurvePieces() }) : nil
        return Flattener(tolerance: variant.tolerance, loneTolerance: variant.loneTolerance, for: fill.path,
                         pieces: pieces.flatMap { $0.plan(fill.path) ? $0 : nil },
                         visible: (0, Double(rows.lowerBound), Double(width), Double(rows.upperBound)))
    }
}
