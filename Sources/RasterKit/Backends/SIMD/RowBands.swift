import Dispatch

/// Splits rows [0, height) into contiguous bands and runs them on up to
/// `threads` threads. With one thread the body runs inline on the caller, so
/// a 1-thread measurement carries no dispatch overhead.
///
/// Bands, not interleaved rows: each thread then streams through its own
/// contiguous memory. The split depends only on (height, threads) and every
/// pixel is computed by the same arithmetic whichever band holds it, so the
/// image does not depend on the thread count. Dispatch caps the concurrency
/// at the host's active cores; asking for more threads than that yields more
/// bands, not more parallelism.
enum RowBands {
    /// Minimum rows per band: below this the hand-off costs more than it saves.
    static let minimumRows = 8

    static func run(height: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        let bands = max(1, min(threads, height / minimumRows))
        if bands == 1 { body(0..<height); return }
        DispatchQueue.concurrentPerform(iterations: bands) { i in
            body(height * i / bands ..< height * (i + 1) / bands)
        }
    }
}
