import CRasterOMP
import Foundation
import XCTest
import TestSupport
import RasterHarness
@testable import RasterKit

/// The simd backend's thread pool allocates nothing that a frame keeps, at
/// any thread count. A loop with workers boxes its closure once (WorkerPool
/// says why) and frees the box before it returns; and a call site's account
/// of contention, made whenever the site is first contended (any frame of
/// an animation), lives in a table whose room was made when the pool was:
/// otherwise the frame in which a site first meets contention keeps an
/// allocation, which the soak (SoakTests) counts as drawing that retains.
final class WorkerPoolAllocationTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MallocCounter.initialize()
    }

    /// Sixteen call sites never seen before are made contended one after
    /// another (a worker's item sleeps while the caller's spins, which the
    /// contention rules read as a worker held back; see WorkerPoolTests).
    /// Each site's first contended loop makes its account.
    ///
    /// Two checks. The table's room does not change: a first account, or
    /// the table growing for one, is an allocation (sixteen new accounts
    /// cross at least one of a dictionary's growth points had the room not
    /// been made when the pool was). And a loop with workers allocates once
    /// (the closure's box) and frees it: the counter sees every thread of
    /// the process, so an allocation elsewhere can land in one loop's count,
    /// and that is judged by most loops, not all.
    func testContendedSitesGetTheirAccountsWithoutAllocating() throws {
        try XCTSkipIf(!MallocCounter.isInterposing, "malloc-interposer is not interposing here")
        try XCTSkipIf(!BuildInfo.isOptimized, "-Onone code allocates for its iterators and generics")
        let pool = WorkerPool.shared(threads: 2)
        func spin(_ ns: UInt64) {
            let t0 = raster_now_ns()
            while raster_now_ns() - t0 < ns {}
        }
        pool.run(items: 2, line: 20_000) { _, _ in } // not the pool's first loop, which is not judged
        let room = pool.siteRoom
        XCTAssertGreaterThanOrEqual(room.capacity, WorkerPool.siteCapacity, "the pool did not make room for its sites")
        try XCTSkipIf(room.count + 16 > WorkerPool.siteCapacity, "this process already has \(room.count) sites; 16 more do not fit")
        var contendedSites = 0, teamLoops = 0, loopsAsExpected = 0
        for k in 0..<16 {
            let site = UInt(20_001 + k)
            for _ in 0..<4 * WorkerPool.balanceLoops {
                let before = WorkerPool.tally.team
                let counted = MallocCounter.count {
                    pool.run(items: 2, line: site) { p, _ in if p != 0 { usleep(5_000) } else { spin(1_000_000) } }
                }
                if WorkerPool.tally.team > before {
                    teamLoops += 1
                    if counted.mallocs == 1 && counted.frees == 1 { loopsAsExpected += 1 }
                }
                if pool.alone(line: site) { contendedSites += 1; break }
            }
        }
        XCTAssertGreaterThanOrEqual(contendedSites, 12, "too few sites were found contended for the test to mean anything")
        XCTAssertEqual(pool.siteRoom.capacity, room.capacity, "the table of sites grew: an account allocated")
        XCTAssertGreaterThanOrEqual(pool.siteRoom.count, room.count + contendedSites, "a site that runs alone has no account")
        XCTAssertGreaterThan(2 * loopsAsExpected, teamLoops,
                             "only \(loopsAsExpected) of \(teamLoops) loops with workers made exactly one allocation and freed it")
    }
}
