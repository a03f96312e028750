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
    /// Each site's first contended loop makes its account. Over all their
    /// loops: every allocation is freed within its loop, and there is no
    /// more than one per loop with workers (the closure's box), so neither
    /// a first account nor the table growing for one allocated. Sixteen
    /// new accounts would cross at least one of the table's growth points
    /// (1, 3, 6, 12, 24 ... entries) had its room not been made.
    func testContendedSitesGetTheirAccountsWithoutAllocating() throws {
        try XCTSkipIf(!MallocCounter.isInterposing, "malloc-interposer is not interposing here")
        try XCTSkipIf(!BuildInfo.isOptimized, "-Onone code allocates for its iterators and generics")
        let pool = WorkerPool.shared(threads: 2)
        func spin(_ ns: UInt64) {
            let t0 = raster_now_ns()
            while raster_now_ns() - t0 < ns {}
        }
        pool.run(items: 2, line: 20_000) { _, _ in } // not the pool's first loop, which is not judged
        var contendedSites = 0, mallocs = 0, frees = 0
        var teamLoops: UInt64 = 0
        for k in 0..<16 {
            let site = UInt(20_001 + k)
            for _ in 0..<4 * WorkerPool.balanceLoops {
                let before = WorkerPool.tally.team
                let counted = MallocCounter.count {
                    pool.run(items: 2, line: site) { p, _ in if p != 0 { usleep(5_000) } else { spin(1_000_000) } }
                }
                teamLoops += WorkerPool.tally.team - before
                mallocs += counted.mallocs
                frees += counted.frees
                if pool.alone(line: site) { contendedSites += 1; break }
            }
        }
        XCTAssertGreaterThanOrEqual(contendedSites, 12, "too few sites were found contended for the test to mean anything")
        XCTAssertEqual(mallocs, frees, "the pool kept \(mallocs - frees) allocations of its loops")
        XCTAssertLessThanOrEqual(mallocs, Int(teamLoops), "\(mallocs) allocations in \(teamLoops) loops with workers")
    }
}
