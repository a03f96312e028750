/// K4's common input to every backend: the path flattened at a variant's
/// tolerances and clipped to the canvas, as straight Float edges in path
/// order. The rasterisers (each backend's own schedule) start from here.
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

    /// Flattens and clips `fill.path` for a `width` x `height` canvas; the
    /// edges live in `scratch` (slot `fillEdges`) until its next use.
    ///
    /// With `rows`, only the edges touching those pixel rows are kept, and
    /// curves wholly above or below them become chords (see `Flattener`), so
    /// threads can each prepare their own band at once. The edges kept are
    /// bit for bit those of the whole canvas (clipping still uses the
    /// canvas, and a curve's subdivision -- its pieces and their
    /// tolerances too -- does not depend on what is culled), so the image
    /// does not depend on how rows are banded.
    static func prepare(_ fill: PathFill, variant: FillVariant, width: Int, height: Int, rows: Range<Int>? = nil,
                        scratch: Scratch) -> FillEdges {
        let w = Double(width), h = Double(height)
        let band = rows.map { (Double($0.lowerBound), Double($0.upperBound)) } ?? (0, h)
        // The pieces are planned in the band's own scratch, whose arrays keep
        // their capacity: no allocation once the first frame has run.
        let pieces = variant.loneTolerance > variant.tolerance
            ? scratch.object(ScratchSlot.fillCurvePieces, make: { CurvePieces() }) : nil
        let flattener = Flattener(tolerance: variant.tolerance, loneTolerance: variant.loneTolerance, for: fill.path,
                                  pieces: pieces.flatMap { $0.plan(fill.path) ? $0 : nil },
                                  visible: (0, band.0, w, band.1))
        // First into the memory the slot already holds (a frame of an
        // animation needs about what the last one did): counting the
        // segments first costs a second pass of the flattener's recursion,
        // 1.5% of the blob's fill.
        let held = scratch.capacity(ScratchSlot.fillEdges, of: SIMD4<Float>.self)
        if held > 0 {
            let edges = clip(flattener, fill.path, capacity: held, width: w, height: h, band: band, scratch: scratch)
            if let edges { return edges }
        }
        // Each segment clips into at most three edges (left of 0, inside,
        // right of W): this size cannot overflow.
        let capacity = 3 * flattener.segmentCount(fill.path)
        return clip(flattener, fill.path, capacity: capacity, width: w, height: h, band: band, scratch: scratch)!
    }

    /// The path flattened and clipped into `capacity` edges of the slot's
    /// memory, or nil if they did not fit.
    @inline(__always)
    private static func clip(_ flattener: Flattener, _ path: Path, capacity: Int, width: Double, height: Double,
                             band: (Double, Double), scratch: Scratch) -> FillEdges? {
        let buffer = scratch.buffer(ScratchSlot.fillEdges, count: max(1, capacity), of: SIMD4<Float>.self)
        var clipper = EdgeClipper(out: buffer, capacity: capacity, width: width, height: height, rows: band)
        flattener.flatten(path, into: &clipper)
        if clipper.overflowed { return nil }
        return FillEdges(edges: buffer, count: clipper.count,
                         minX: clipper.minX, minY: clipper.minY, maxX: clipper.maxX, maxY: clipper.maxY)
    }
}
