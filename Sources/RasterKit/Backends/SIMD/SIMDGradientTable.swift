import CRasterOMP

/// K2's `lut` variant on the SIMD backend: rows read `GradientTable`.
/// The rows are the C ones the openmp backend draws too
/// (raster_gradient_lut_item): eight entry indices on vector lanes and their
/// colours by one permute of a window of the table or a gather, which
/// Swift's SIMD types cannot express (a table read per lane was the
/// variant's whole cost), so both backends write the same bytes.
struct TableRows {
    let words: [UInt32]
    let size: Int32
    let extend: Int32
    let pixel: GradientPixelGeometry

    init(_ table: GradientTable, _ pixel: GradientPixelGeometry) {
        words = table.words; size = Int32(table.size); extend = pixel.extend; self.pixel = pixel
    }

    func run(_ dst: ImageView, threads: Int) {
        withUnsafeBytes(of: pixel.values) { values in
            let geometry = values.bindMemory(to: Double.self).baseAddress!
            let plan = pixel.rowPlan(height: dst.height)
            RowBands.run(height: Int(plan.items), threads: threads) { items in
                words.withUnsafeBufferPointer { lut in
                    for i in items {
                        raster_gradient_lut_item(dst.base, dst.stride, Int32(dst.width), plan, Int32(i), pixel.shape,
                                                 geometry, lut.baseAddress, size, extend)
                    }
                }
            }
        }
    }
}
