import Foundation
import Synchronization
import CRasterOMP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of threads that run one parallel loop at a time.
///
/// Why not `DispatchQueue.concurrentPerform`: on this Linux toolchain it
/// decides by itself how many workers join (measured here: 2 requested
/// threads ran no faster than 1 while the C backend's OpenMP team doubled
/// its speed), so "the thread count the caller sets" would be a wish rather
/// than a setting. Here `threads` means exactly that many threads: the
/// caller plus `threads - 1` parked workers.
///
/// Hand-off: a finished worker spins on its ticket for `spinWindow` before
/// it sleeps on a semaphore, as libomp's workers do for KMP_BLOCKTIME (200
/// ms there). Waking a sleeping thread costs tens of microseconds on this
/// VM -- more than a whole 2-thread path fill -- so back-to-back kernels
/// (a frame's ops, a benchmark's samples) need hot workers. The window is
/// short so that an idle renderer between 60 Hz frames burns little; when
/// the pool has more threads than the host has cores, workers never spin
/// (a spinning thread would steal the core of one with work) but yield.
final class WorkerPool: @unchecked Sendable {
    let threads: Int
    private var task: ((Int) -> Void)?
    private let workers: [Worker]
    /// Workers still running the current loop.
    private let pending = Atomic<Int>(0)
    private var generation = 0
    /// Whether waiting threads may busy-wait (threads <= cores).
    private let spins: Bool
    /// One parallel loop at a time per pool.
    private let exclusive = NSLock()

    /// How long an idle worker stays hot after a loop (shared with the
    /// OpenMP backend's KMP_BLOCKTIME: raster_omp.h says why).
    static let spinWindow: Duration = .milliseconds(Int(RASTER_IDLE_SPIN_MS))

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
        workers = (1..<max(threads, 1)).map { _ in Worker() }
        spins = threads <= ProcessInfo.processInfo.activeProcessorCount
        for i in 1..<max(threads, 1) {
            let t = Thread { [unowned self] in self.work(index: i) }
            t.name = "rasterkit-worker-\(i)"
            t.stackSize = 1 << 20
            t.start()
        }
    }

    private func work(index: Int) {
        let w = index - 1
        var seen = 0
        while true {
            seen = awaitTicket(workers[w], after: seen)
            task!(index)
            pending.subtract(1, ordering: .releasing)
        }
    }

    /// Returns worker `w`'s next ticket: spinning for `spinWindow`, then
    /// asleep. The sleeping flag is a handshake: whoever clears it (the
    /// worker on seeing its ticket, or `run` after posting one) decides
    /// whether the semaphore is signalled, so no wake-up is lost or doubled.
    private func awaitTicket(_ w: Worker, after seen: Int) -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: WorkerPool.spinWindow)
        var polls = 0
        while true {
            let t = w.ticket.load(ordering: .acquiring)
            if t != seen { return t }
            polls += 1
            if !spins { sched_yield() }
            if polls & 255 == 0 && clock.now >= deadline { break }
        }
        w.sleeping.store(true, ordering: .sequentiallyConsistent)
        let t = w.ticket.load(ordering: .sequentiallyConsistent)
        if t != seen && w.sleeping.exchange(false, ordering: .sequentiallyConsistent) { return t }
        w.wake.wait() // `run` cleared the flag and signals (or has signalled)
        return w.ticket.load(ordering: .acquiring)
    }

    /// Runs `body(0) ... body(count - 1)` on `count <= threads` threads, the
    /// caller taking index 0, and returns when all are done.
    func run(_ count: Int, _ body: (Int) -> Void) {
        precondition(count >= 1 && count <= threads)
        if count == 1 { body(0); return }
        exclusive.lock(); defer { exclusive.unlock() }
        withoutActuallyEscaping(body) { body in
            task = body
            generation += 1
            pending.store(count - 1, ordering: .sequentiallyConsistent)
            for w in workers[0..<(count - 1)] {
                w.ticket.store(generation, ordering: .sequentiallyConsistent)
                if w.sleeping.exchange(false, ordering: .sequentiallyConsistent) { w.wake.signal() }
            }
            body(0)
            while pending.load(ordering: .acquiring) > 0 {
                if !spins { sched_yield() }
            }
            task = nil
        }
    }
}

/// One parked thread's hand-off state.
private final class Worker: Sendable {
    /// The generation of the last loop handed to this worker.
    let ticket = Atomic<Int>(0)
    /// Set while the worker sleeps (or is about to) on `wake`.
    let sleeping = Atomic<Bool>(false)
    let wake = DispatchSemaphore(value: 0)
}
