import Foundation
import CRasterOMP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Busy threads that compete with a measurement for the cores, as the app's
/// own threads do on a phone while its background renders: `run --contend N`
/// starts N of them after the copy-bandwidth probe and stops them when the
/// last row is measured, so rows at 1 and at 2 threads are measured under
/// the same contention and a schedule that waits for its slowest thread
/// shows it on any host (on a quiet host it would not).
///
/// Thread i spins on integer arithmetic (no memory traffic: it takes a
/// core, not bandwidth) pinned to core `cores - 1 - i mod cores`, the last
/// cores first, so that one contender on a 2-core host always holds the
/// same core and the measuring thread is left to the scheduler as usual.
/// Pinning is best effort (`sched_setaffinity`); where it is refused the
/// thread still spins, unpinned, and `pinned` says so.
public final class Contention: @unchecked Sendable {
    public let threads: Int
    private let stopFlag = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)
    private let pinnedCount = Atomic<Int>(0)
    private var handles: [Thread] = []

    /// The most contending threads `--contend` accepts.
    public static let maximum = 64

    /// Starts `threads` busy threads (0 starts none) and returns once all run.
    public init(threads: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        guard (0...Contention.maximum).contains(threads) else {
            throw HarnessError.invalidArgument(name: "contending threads", value: "\(threads)", accepted: "0...\(Contention.maximum)")
        }
        self.threads = threads
        for i in 0..<threads {
            let core = max(1, cores) - 1 - i % max(1, cores)
            let t = Thread { [self] in self.spin(core: core) }
            t.name = "rasterbench-contend-\(i)"
            t.stackSize = 1 << 16
            handles.append(t)
            t.start()
        }
        while running.load(ordering: .acquiring) < threads { sched_yield() }
    }

    /// How many of the threads the OS let us pin to their core.
    public var pinned: Int { pinnedCount.load(ordering: .acquiring) }

    /// Stops the threads and waits until every one has left its loop.
    public func stop() {
        stopFlag.store(true, ordering: .releasing)
        while running.load(ordering: .acquiring) > 0 { sched_yield() }
    }

    deinit { stop() }

    private func spin(core: Int) {
        if Contention.pin(to: core) { pinnedCount.add(1, ordering: .relaxed) }
        running.add(1, ordering: .releasing)
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        while !stopFlag.load(ordering: .relaxed) {
            for _ in 0..<1024 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        }
        // Keeps the loop from being optimised away.
        if x == 42 { print("", terminator: "") }
        running.subtract(1, ordering: .releasing)
    }

    /// Pins the calling thread to `core`; false where the OS refuses.
    static func pin(to core: Int) -> Bool { raster_pin_thread(Int32(core)) == 0 }
}
