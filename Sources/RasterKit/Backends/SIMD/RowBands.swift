/// Splits rows [0, height) into contiguous bands, one per thread.
///
/// Bands, not interleaved rows: each thread then streams through its own
/// contiguous memory. Every pixel is computed by the same arithmetic
/// whichever band holds it, so the image does not depend on the thread
/// count. With one band the body runs inline on the caller, so a 1-thread
/// measurement carries no hand-off cost.
enum RowBands {
    /// Minimum rows per band: below this the hand-off costs more than it saves.
    static let minimumRows = 8

    static func run(height: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        let bands = max(1, min(threads, height / minimumRows))
        if bands == 1 { body(0..<height); return }
        WorkerPool.shared(threads: threads).run(bands) { i in
            body(height * i / bands ..< height * (i + 1) / bands)
        }
    }
}
