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

    /// A call site whose workers lose it time while contended runs on the
    /// caller alone for RASTER_CONTENDED_HOLD_MS; another site, whose
    /// workers gain, keeps them; after the hold the site tries its workers
    /// again. Here a worker's items sleep (the scheduler holding it back)
    /// while the caller's run: the caller waits for them, and the loops'
    /// CPU time, about one core's worth of their wall time, is what marks
    /// them contended (raster_team_judge). A loop of one item per
    /// participant is judged by itself (the OpenMP backend's rule).
    func testASiteOfOneItemPerThreadWhoseWorkersLoseGoesAloneForTheHold() {
        assertALosingSiteGoesAloneForTheHold(losingItems: 2, site: 9_002)
    }

    /// The same for a site of more items than threads, which goes alone
    /// once its workers lost most of WorkerPool.balanceLoops loops.
    func testASiteOfManyItemsWhoseWorkersLoseMostLoopsGoesAloneForTheHold() {
        assertALosingSiteGoesAloneForTheHold(losingItems: 4, site: 9_004)
    }

    /// Site A's losing loops have `losingItems` items on 2 threads: the
    /// caller's take 1 ms, a worker's sleep 5 ms. `site`: site A's line.
    private func assertALosingSiteGoesAloneForTheHold(losingItems: Int, site: UInt,
                                                      file: StaticString = #filePath, line: UInt = #line) {
        let pool = WorkerPool.shared(threads: 2)
        let runners = UnsafeMutableBufferPointer<Int>.allocate(capacity: 8)
        defer { runners.deallocate() }
        func spin(_ ns: UInt64) {
            let t0 = raster_now_ns()
            while raster_now_ns() - t0 < ns {}
        }
        /// One loop at site A, whose workers lose or gain (8 items busy for
        /// 0.3 ms whoever runs them); returns who ran the items.
        func siteA(losing: Bool) -> [Int] {
            let items = losing ? losingItems : 8
            runners.initialize(repeating: -1)
            pool.run(items: items, line: site) { p, i in
                runners[i] = p
                if losing && p != 0 { usleep(5_000) } else { spin(losing ? 1_000_000 : 300_000) }
            }
            return Array(runners.prefix(items))
        }
        /// One loop at site B, whose workers gain.
        func siteB() -> [Int] {
            runners.initialize(repeating: -1)
            pool.run(items: 8, line: site + 100) { p, i in runners[i] = p; spin(300_000) }
            return Array(runners)
        }
        /// Whether some loop of `tries` used a worker (a loaded host may
        /// leave the worker unscheduled through one loop).
        func usesAWorker(_ loop: () -> [Int]) -> Bool {
            (0..<WorkerPool.balanceLoops - 1).contains { _ in loop().contains { $0 != 0 } }
        }
        _ = siteB() // not the pool's first loop, which is not judged
        let before = WorkerPool.tally
        // A verdict comes after one loop or WorkerPool.balanceLoops
        // contended loops (a loop whose worker slept through it may not
        // count as contended).
        // On a loaded host the worker may start late in the first loop and
        // find no item left: the late start alone sends the site alone,
        // and the loops of interest (a worker that takes an item and
        // loses) never ran. Then the hold is waited out and site A tried
        // again, up to five times.
        var workerRan = false, wentAlone = false
        for attempt in 0..<5 where !workerRan {
            if attempt > 0 { usleep(UInt32(RASTER_CONTENDED_HOLD_MS) * 1_000 + 20_000) }
            wentAlone = false
            for _ in 0..<4 * WorkerPool.balanceLoops where !wentAlone {
                workerRan = siteA(losing: true).contains { $0 != 0 } || workerRan
                // What RowBands asks before it cuts bands (it then runs them whole).
                wentAlone = pool.alone(line: site)
            }
        }
        XCTAssertTrue(workerRan, "no worker took part in site A's loops in five tries", file: file, line: line)
        XCTAssertTrue(wentAlone, "site A kept its workers", file: file, line: line)
        XCTAssertEqual(siteA(losing: true), [Int](repeating: 0, count: losingItems), "site A kept its workers",
                       file: file, line: line)
        XCTAssertEqual(siteA(losing: false), [Int](repeating: 0, count: 8), "site A kept its workers",
                       file: file, line: line)
        XCTAssertFalse(pool.alone(line: site + 1000), file: file, line: line)
        XCTAssertTrue(usesAWorker(siteB), "site B lost its workers", file: file, line: line)
        XCTAssertGreaterThanOrEqual(WorkerPool.tally.solo - before.solo, 2, file: file, line: line)
        usleep(UInt32(RASTER_CONTENDED_HOLD_MS) * 1_000 + 20_000)
        XCTAssertTrue(usesAWorker { siteA(losing: false) }, "site A still runs alone after the hold",
                      file: file, line: line)
    }
}

/// The contention rules of a call site's account (`WorkerPool.Balance`),
/// on made-up loops: each rule sends the site alone, and none does for
/// loops its workers won or uncontended ones.
final class WorkerPoolBalanceTests: XCTestCase {
    private let hold = UInt64(RASTER_CONTENDED_HOLD_MS) * 1_000_000

    /// A loop at `t` ns of `wall` µs whose caller did its share in
    /// `callerWall` µs, busy for `callerCPU` ns, with workers busy for
    /// `helperCPU` µs.
    private func loop(at t: UInt64, wall: UInt64, callerWall: UInt64, callerCPU: UInt64,
                      helperCPU: UInt64) -> raster_team_region {
        raster_team_region(fork_ns: t, caller_done_ns: t + callerWall * 1_000, join_ns: t + wall * 1_000,
                           cpu_ns: callerCPU + helperCPU * 1_000, helper_cpu_ns: helperCPU * 1_000,
                           late: 0, useless: 0)
    }

    /// A one-item-per-participant loop is one sample: the second handed-off
    /// loop in a row sends the site alone, not one after a loop it won.
    func testTwoHandedOffLoopsInARowSendAOneItemPerThreadSiteAlone() {
        var b = WorkerPool.Balance()
        let l = loop(at: 1_000_000, wall: 80, callerWall: 79, callerCPU: 300, helperCPU: 75)
        let m = loop(at: 2_000_000, wall: 80, callerWall: 79, callerCPU: 300, helperCPU: 75)
        let won = loop(at: 3_000_000, wall: 80, callerWall: 40, callerCPU: 40_000, helperCPU: 40)
        b.add(l, contended: true, handedOff: true, judged: 0)
        XCTAssertEqual(b.soloUntil, 0, "one handed-off loop")
        b.add(won, contended: true, handedOff: false, judged: 0)
        b.add(m, contended: true, handedOff: true, judged: 0)
        XCTAssertEqual(b.soloUntil, 0, "a handed-off loop after one the workers won")
        b.add(l, contended: true, handedOff: true, judged: 0)
        XCTAssertEqual(b.soloUntil, l.join_ns + hold)
    }

    func testTheJudgesVerdictsInARowSendAOneItemPerThreadSiteAlone() {
        var b = WorkerPool.Balance()
        let l = loop(at: 1_000_000, wall: 300, callerWall: 150, callerCPU: 150_000, helperCPU: 80)
        let m = loop(at: 2_000_000, wall: 300, callerWall: 150, callerCPU: 150_000, helperCPU: 80)
        b.add(l, contended: true, handedOff: false, judged: l.join_ns + hold)
        XCTAssertEqual(b.soloUntil, 0, "one verdict")
        b.add(m, contended: true, handedOff: false, judged: m.join_ns + hold)
        XCTAssertEqual(b.soloUntil, m.join_ns + hold)
        var won = WorkerPool.Balance()
        won.add(l, contended: true, handedOff: false, judged: 0)
        won.add(m, contended: true, handedOff: false, judged: 0)
        XCTAssertEqual(won.soloUntil, 0, "loops the judge let keep their workers")
        var calm = WorkerPool.Balance()
        calm.add(l, contended: true, handedOff: false, judged: l.join_ns + hold)
        calm.add(m, contended: false, handedOff: false, judged: 0)
        calm.add(l, contended: true, handedOff: false, judged: l.join_ns + hold)
        XCTAssertEqual(calm.soloUntil, 0, "an uncontended loop between two verdicts")
    }

    func testHandedOffLoopsCountAsLostForASiteOfManyItems() {
        var b = WorkerPool.Balance()
        var t: UInt64 = 1_000_000
        for i in 0..<WorkerPool.balanceLoops {
            // A loop the workers won (alone: 200 µs of work > 120 µs wall)
            // every third time, else handed off: the caller busy for 300 ns
            // (as traced), which the rate estimate alone would read as a
            // caller too slow to do the loop sooner.
            let handedOff = i % 3 != 0
            let l = handedOff ? loop(at: t, wall: 210, callerWall: 209, callerCPU: 300, helperCPU: 200)
                : loop(at: t, wall: 120, callerWall: 100, callerCPU: 100_000, helperCPU: 100)
            b.add(l, contended: true, handedOff: handedOff, judged: nil)
            XCTAssertEqual(b.soloUntil, i + 1 < WorkerPool.balanceLoops ? 0 : l.join_ns + hold, "loop \(i)")
            t += 1_000_000
        }
    }

    func testASiteOfManyItemsWhoseWorkersWinOrThatIsUncontendedKeepsThem() {
        var won = WorkerPool.Balance(), calm = WorkerPool.Balance()
        var t: UInt64 = 1_000_000
        for _ in 0..<4 * WorkerPool.balanceLoops {
            won.add(loop(at: t, wall: 120, callerWall: 100, callerCPU: 100_000, helperCPU: 100),
                    contended: true, handedOff: false, judged: nil)
            calm.add(loop(at: t, wall: 210, callerWall: 209, callerCPU: 300, helperCPU: 200),
                     contended: false, handedOff: true, judged: 0)
            t += 1_000_000
        }
        XCTAssertEqual(won.soloUntil, 0)
        XCTAssertEqual(calm.soloUntil, 0)
    }
}
