import CRasterOMP

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
        let rows = Int(top.rounded(.down)) ..< Int(bottom.rounded(.up))
        if rows.isEmpty { return nil }
        self.init(cells: Int(left.rounded(.down)) ..< Int(right.rounded(.down)) + 2, rows: rows)
    }

    /// Cells `cells` (canvas columns, guard cells included) of rows `rows`,
    /// widened to whole chunks.
    init(cells: Range<Int>, rows: Range<Int>) {
        let chunk = CellLayout.chunk
        origin = cells.lowerBound & ~(chunk - 1)
        stride = (cells.upperBound - origin + chunk - 1) & ~(chunk - 1)
        words = (stride / chunk + 63) / 64
        self.rows = rows
    }

    /// Cells per chunk (one bitmap bit), and log2 of it: raster_fill.h's
    /// RASTER_OMP_FILL_LANES and RASTER_OMP_FILL_LANE_SHIFT, which size the
    /// C sweep's vectors too. The simd schedule's lanes are one chunk wide
    /// (`FillLanes`).
    static let chunk = Int(RASTER_OMP_FILL_LANES)
    static let chunkShift = Int(RASTER_OMP_FILL_LANE_SHIFT)
}
