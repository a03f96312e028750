import CRasterOMP

/// The simd backend's one way to split work across threads: a run of
/// independent items (rows; or the blur's 16-row bands and 16-column
/// strips; the fill's and the mesh's row strips) cut into contiguous bands
/// that the threads of a `WorkerPool` take as they come free.
///
/// (This folder holds the threading, beside and apart from the lanes in
/// `Wide/`: every simd kernel runs through this one runner, so how rows are
/// shared is read, tuned and tested here and nowhere else.)
///
/// Bands, not interleaved items: each thread then streams through its own
/// contiguous memory. Several bands per thread, so that a thread the
/// scheduler holds back (another process, the app's own threads) leaves
/// its bands to the others instead of making them wait; each band is
/// still long enough (`minimum` items) that the hand-off is noise. The
/// defaults are shared with the openmp backend (raster_omp.h says why).
/// Every item is computed by the same arithmetic whichever band holds it,
/// so the output does not depend on the thread count. With one thread (or
/// too few items for two bands) the body runs inline on the caller, as one
/// band, so a 1-thread measurement carries no hand-off cost.
///
/// The body gets its band and the index of the worker running it (below
/// `workers`, 0 on the caller), for callers that keep scratch per worker.
struct RowBands {
    /// Minimum rows per band, and bands per thread when there are enough
    /// rows (raster_omp.h, read by the openmp backend too).
    static let minimumRows = Int(RASTER_MIN_ROWS_PER_THREAD)
    static let bandsPerThread = Int(RASTER_BANDS_PER_THREAD)

    let items: Int
    let threads: Int
    /// How many bands `items` is cut into.
    let count: Int
    /// Worker indices passed to the body are below this: per-worker
    /// scratch needs this many slots.
    var workers: Int { min(threads, count) }

    /// `minimum`: fewest items worth a band of their own; `perThread`:
    /// bands per thread when there are enough items.
    init(items: Int, threads: Int, minimum: Int = 1, perThread: Int = RowBands.bandsPerThread) {
        precondition(items >= 0 && minimum >= 1 && perThread >= 1)
        self.items = items
        self.threads = max(threads, 1)
        count = threads <= 1 ? 1 : max(1, min(threads * perThread, items / minimum, WorkerPool.maximumItems))
    }

    /// Items of band `band`: the bands tile 0..<items in order, their sizes
    /// differing by at most one.
    @inline(__always)
    func range(_ band: Int) -> Range<Int> { items * band / count ..< items * (band + 1) / count }

    /// Runs `body(worker, band)` once for every band and returns when all
    /// are done, their writes visible. (The body is passed straight
    /// through, never stored: a stored closure would escape and cost a heap
    /// context per call. Not forced inline: the body then stays one
    /// function whichever way it is called, inline or by a worker.) The
    /// caller's source location names the call site for the pool's
    /// contention rules; while they have it run on the caller alone, the
    /// items run as one band, exactly as on one thread.
    func run(file: StaticString = #fileID, line: UInt = #line, _ body: (_ worker: Int, _ items: Range<Int>) -> Void) {
        if count == 1 { body(0, 0..<items); return }
        let pool = WorkerPool.shared(threads: threads)
        if pool.alone(file: file, line: line) { body(0, 0..<items); return }
        pool.run(items: count, file: file, line: line) { worker, band in body(worker, range(band)) }
    }

    /// Rows 0..<height in bands of at least `minimumRows`, for bodies that
    /// keep no per-worker state.
    static func run(height: Int, threads: Int, file: StaticString = #fileID, line: UInt = #line,
                    _ body: (_ rows: Range<Int>) -> Void) {
        RowBands(items: height, threads: threads, minimum: minimumRows).run(file: file, line: line) { _, rows in body(rows) }
    }
}
