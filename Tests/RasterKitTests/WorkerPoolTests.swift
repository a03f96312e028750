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

    /// A call site whose workers lose it time on balance while contended
    /// runs on the caller alone for RASTER_CONTENDED_HOLD_MS; another site,
    /// whose workers gain, keeps them; after the hold the site tries its
    /// workers again. Here a worker's items sleep (the scheduler holding it
    /// back) while the caller's run: the caller waits for them, and the
    /// loops' CPU time, about one core's worth of their wall time, is
    /// what marks them contended (raster_team_judge).
    func testASiteWhoseWorkersLoseGoesAloneForTheHold() {
        let pool = WorkerPool.shared(threads: 2)
        let runners = UnsafeMutableBufferPointer<Int>.allocate(capacity: 8)
        defer { runners.deallocate() }
        func spin(_ ns: UInt64) {
            let t0 = raster_now_ns()
            while raster_now_ns() - t0 < ns {}
        }
        var siteALine: UInt = 0
        /// One loop at site A, whose workers lose (2 items: the caller's
        /// take 1 ms, a worker's sleep 3 ms) or gain (8 items busy for
        /// 0.3 ms whoever runs them); returns who ran the items.
        func siteA(losing: Bool) -> [Int] {
            runners.initialize(repeating: -1)
            siteALine = #line + 1
            pool.run(items: losing ? 2 : 8) { p, i in
                runners[i] = p
                if losing && p != 0 { usleep(3_000) } else { spin(losing ? 1_000_000 : 300_000) }
            }
            return Array(runners.prefix(losing ? 2 : 8))
        }
        /// One loop at site B, whose workers gain.
        func siteB() -> [Int] {
            runners.initialize(repeating: -1)
            pool.run(items: 8) { p, i in runners[i] = p; spin(300_000) }
            return Array(runners)
        }
        /// Whether some loop of `tries` used a worker (a loaded host may
        /// leave the worker unscheduled through one loop).
        func usesAWorker(_ loop: () -> [Int]) -> Bool {
            (0..<WorkerPool.balanceLoops - 1).contains { _ in loop().contains { $0 != 0 } }
        }
        _ = siteB() // not the pool's first loop, which is not judged
        let before = WorkerPool.tally
        // A verdict comes after WorkerPool.balanceLoops contended loops (a
        // loop whose worker slept through it may not count as contended).
        var workerRan = false, wentAlone = false
        for _ in 0..<4 * WorkerPool.balanceLoops where !wentAlone {
            workerRan = siteA(losing: true).contains { $0 != 0 } || workerRan
            // What RowBands asks before it cuts bands (it then runs them whole).
            wentAlone = pool.alone(file: #fileID, line: siteALine)
        }
        XCTAssertTrue(workerRan, "no worker took part in site A's loops")
        XCTAssertTrue(wentAlone, "site A kept its workers")
        XCTAssertEqual(siteA(losing: true), [0, 0], "site A kept its workers")
        XCTAssertEqual(siteA(losing: false), [Int](repeating: 0, count: 8), "site A kept its workers")
        XCTAssertFalse(pool.alone(file: #fileID, line: siteALine + 1000))
        XCTAssertTrue(usesAWorker(siteB), "site B lost its workers")
        XCTAssertGreaterThanOrEqual(WorkerPool.tally.solo - before.solo, 2)
        usleep(UInt32(RASTER_CONTENDED_HOLD_MS) * 1_000 + 20_000)
        XCTAssertTrue(usesAWorker { siteA(losing: false) }, "site A still runs alone after the hold")
    }
}
