import Foundation

/// A fixed set of threads that run one parallel loop at a time.
///
/// Why not `DispatchQueue.concurrentPerform`: on this Linux toolchain it
/// decides by itself how many workers join (measured here: 2 requested
/// threads ran no faster than 1 while the C backend's OpenMP team doubled
/// its speed), so "the thread count the caller sets" would be a wish rather
/// than a setting. Here `threads` means exactly that many threads: the
/// caller plus `threads - 1` parked workers, woken by a semaphore each.
final class WorkerPool: @unchecked Sendable {
    let threads: Int
    private var task: ((Int) -> Void)?
    private let wake: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    /// One parallel loop at a time per pool.
    private let exclusive = NSLock()

    private static let registry = NSLock()
    nonisolated(unsafe) private static var pools: [Int: WorkerPool] = [:]

    /// The pool with `threads` threads, created on first use and kept for
    /// the life of the process (so steady-state frames create no threads).
    static func shared(threads: Int) -> WorkerPool {
        registry.lock(); defer { registry.unlock() }
        if let pool = pools[threads] { return pool }
        let pool = WorkerPool(threads: threads)
        pools[threads] = pool
        return pool
    }

    private init(threads: Int) {
        self.threads = threads
        wake = (1..<max(threads, 1)).map { _ in DispatchSemaphore(value: 0) }
        for i in 1..<max(threads, 1) {
            let t = Thread { [unowned self] in self.work(index: i) }
            t.name = "rasterkit-worker-\(i)"
            t.stackSize = 1 << 20
            t.start()
        }
    }

    private func work(index: Int) {
        while true {
            wake[index - 1].wait()
            task!(index)
            finished.signal()
        }
    }

    /// Runs `body(0) ... body(count - 1)` on `count <= threads` threads, the
    /// caller taking index 0, and returns when all are done.
    func run(_ count: Int, _ body: (Int) -> Void) {
        precondition(count >= 1 && count <= threads)
        if count == 1 { body(0); return }
        exclusive.lock(); defer { exclusive.unlock() }
        withoutActuallyEscaping(body) { body in
            task = body
            for i in 1..<count { wake[i - 1].signal() }
            body(0)
            for _ in 1..<count { finished.wait() }
            task = nil
        }
    }
}
