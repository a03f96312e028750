import CRasterOMP

/// Splits rows [0, height) into contiguous bands that the threads take as
/// they come free (`WorkerPool`).
///
/// Bands, not interleaved rows: each thread then streams through its own
/// contiguous memory. Several bands per thread, so that a thread the
/// scheduler holds back (another process, the app's own threads) leaves
/// its bands to the others instead of making them wait; each band is
/// still long enough (`minimumRows`) that the hand-off is noise. Every
/// pixel is computed by the same arithmetic whichever band holds it, so
/// the image does not depend on the thread count. With one thread the body
/// runs inline on the caller, as one band, so a 1-thread measurement
/// carries no hand-off cost.
enum RowBands {
    /// Minimum rows per band, and bands per thread when there are enough
    /// rows: shared with the openmp backend (raster_omp.h says why).
    static let minimumRows = Int(RASTER_MIN_ROWS_PER_THREAD)
    static let bandsPerThread = Int(RASTER_BANDS_PER_THREAD)

    static func run(height: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        let bands = threads <= 1 ? 1 : max(1, min(threads * bandsPerThread, height / minimumRows))
        if bands == 1 { body(0..<height); return }
        WorkerPool.shared(threads: threads).run(items: bands) { _, i in
            body(height * i / bands ..< height * (i + 1) / bands)
        }
    }
}
