/// Where a strip's cells sit: cells cover the pixel columns from `origin`
/// (the path's first column, rounded down to a chunk) in rows of `stride`
/// floats (whole 16-cell chunks, including the two guard cells past the
/// path's last column), with one bit per chunk in `words` words per row.
///
/// It comes from the path's control box (which holds its curves) clipped to
/// the canvas, not from the flattened edges, so every band of a banded fill
/// shares it before any thread flattens; the prefix sums' grouping, and so
/// the image, cannot depend on the banding. The simd and openmp backends
/// both use it (the C side as `raster_omp_fill_plan`).
struct CellLayout {
    let origin: Int
    let stride: Int
    let words: Int
    /// The canvas rows the path's control box covers.
    let rows: Range<Int>

    /// Nil when the path covers no pixel of the canvas.
    init?(path: Path, width: Int, height: Int) {
        guard let box = path.controlBounds else { return nil }
        let w = Double(width), h = Double(height)
        let top = min(max(box.min.y, 0), h), bottom = min(max(box.max.y, 0), h)
        // Edges left of the canvas become vertical edges at x = 0, those
        // right of it at x = W: the cells span [0, W + 2) at most.
        let left = min(max(box.min.x, 0), w), right = min(max(box.max.x, 0), w)
        rows = Int(top.rounded(.down)) ..< Int(bottom.rounded(.up))
        if rows.isEmpty { return nil }
        let cells = Int(left.rounded(.down)) ..< Int(right.rounded(.down)) + 2
        origin = cells.lowerBound & ~(FillLanes.width - 1)
        stride = (cells.upperBound - origin + FillLanes.width - 1) & ~(FillLanes.width - 1)
        words = (stride / FillLanes.width + 63) / 64
    }
}
