import CRasterOMP
import Foundation
import XCTest
@testable import RasterKit

/// The simd backend's thread pool on its own, for ThreadSanitizer
/// (scripts/sanitize.sh runs it under TSan): every item of every loop runs
/// exactly once, on a participant below min(threads, items), its writes are
/// visible to the caller when `run` returns, and two callers sharing a pool
/// take turns.
final class WorkerPoolTests: XCTestCase {
    func testEveryItemRunsOnceOnAValidParticipantAndItsWritesAreVisible() {
        for threads in [2, 3, 7] {
            let pool = WorkerPool.shared(threads: threads)
            let capacity = 4 * threads + 3
            let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: capacity)
            let runners = UnsafeMutableBufferPointer<Int>.allocate(capacity: capacity)
            defer { slots.deallocate(); runners.deallocate() }
            for round in 0..<300 {
                let items = 1 + round % capacity
                slots.initialize(repeating: 0)
                runners.initialize(repeating: -1)
                pool.run(items: items) { participant, i in
                    slots[i] += round + i
                    runners[i] = participant
                }
                for i in 0..<capacity {
                    XCTAssertEqual(slots[i], i < items ? round + i : 0, "threads \(threads) round \(round) item \(i)")
                    if i < items {
                        XCTAssert((0..<min(threads, items)).contains(runners[i]),
                                  "threads \(threads) round \(round) item \(i) ran on participant \(runners[i])")
                    }
                }
            }
        }
    }

    /// Per-participant state (how the kernels use scratch) is never shared:
    /// no two items run at once on the same participant.
    func testAParticipantRunsOneItemAtATime() {
        let threads = 3
        let pool = WorkerPool.shared(threads: threads)
        let busy = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
        defer { busy.deallocate() }
        busy.initialize(repeating: 0)
        var overlaps = 0
        let lock = NSLock()
        for _ in 0..<100 {
            pool.run(items: 20) { p, _ in
                busy[p] += 1
                if busy[p] != 1 { lock.lock(); overlaps += 1; lock.unlock() }
                for _ in 0..<50 { _ = busy[p] }
                busy[p] -= 1
            }
        }
        XCTAssertEqual(overlaps, 0)
    }

    func testTwoCallersShareOnePool() {
        let pool = WorkerPool.shared(threads: 2)
        let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4)
        defer { sums.deallocate() }
        sums.initialize(repeating: 0)
        // Each caller owns two slots; the pool serialises their loops.
        DispatchQueue.concurrentPerform(iterations: 2) { caller in
            for _ in 0..<200 { pool.run(items: 2) { _, i in sums[caller * 2 + i] += 1 } }
        }
        XCTAssertEqual(Array(sums), [200, 200, 200, 200])
    }

    /// A loop whose threads ran on about one core between them (here: items
    /// that sleep, so their CPU time is far below the wall time) sends its
    /// call site to the caller alone for RASTER_CONTENDED_HOLD_MS, by the
    /// OpenMP backend's rule (raster_team_judge); another site keeps its
    /// workers, and after the hold the site tries them again.
    func testALoopOnAboutOneCoreSendsItsSiteAloneForTheHold() {
        let pool = WorkerPool.shared(threads: 2)
        let runners = UnsafeMutableBufferPointer<Int>.allocate(capacity: 8)
        defer { runners.deallocate() }
        /// Runs 8 items at site `sleepy` (each sleeping 2 ms) or at another
        /// site (each busy for 0.3 ms) and returns who ran them.
        func loop(sleepy: Bool) -> [Int] {
            runners.initialize(repeating: -1)
            if sleepy {
                pool.run(items: 8) { p, i in runners[i] = p; usleep(2_000) }
            } else {
                pool.run(items: 8) { p, i in
                    runners[i] = p
                    let t0 = raster_now_ns()
                    while raster_now_ns() - t0 < 300_000 {}
                }
            }
            return Array(runners)
        }
        /// Whether some loop of `tries` used a worker (a loaded host may
        /// leave the worker unscheduled through one loop).
        func usesAWorker(sleepy: Bool, tries: Int = 20) -> Bool {
            (0..<tries).contains { _ in loop(sleepy: sleepy).contains { $0 != 0 } }
        }
        _ = loop(sleepy: false) // not the pool's first loop, which is not judged
        let before = WorkerPool.tally
        _ = loop(sleepy: true)  // about one core's CPU time: alone from now
        XCTAssertEqual(loop(sleepy: true), [Int](repeating: 0, count: 8))
        XCTAssertTrue(usesAWorker(sleepy: false), "another site lost its workers")
        let after = WorkerPool.tally
        XCTAssertGreaterThanOrEqual(after.solo - before.solo, 1)
        usleep(UInt32(RASTER_CONTENDED_HOLD_MS) * 1_000 + 20_000)
        // Expired: the site's next loop hands out to its workers again (a
        // worker has 14 ms of sleeping items to claim one from).
        XCTAssertTrue(loop(sleepy: true).contains { $0 != 0 }, "the site still runs alone after the hold")
    }
}
