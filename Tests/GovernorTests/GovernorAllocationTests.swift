import GovernorLab
import TestSupport
import RasterKit
import XCTest

/// `Governor.record` allocates nothing per frame (malloc-interposer counts).
final class GovernorAllocationTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MallocCounter.initialize()
    }

    func mallocs(_ body: () throws -> Void) rethrows -> Int { try MallocCounter.mallocs(body) }

    func testRecordAllocatesNothing() throws {
        try XCTSkipIf(!MallocCounter.isInterposing, "malloc-interposer is not interposing here")
        let front = FrameTrace.syntheticFront
        var g = try Governor(front: front, parameters: GovernorParameters(budgetMs: FrameTrace.syntheticBudgetMs))
        // Loads that make it step down, dwell and step up inside the counted loop.
        let times = (0..<2000).map { i in front[2].predictedMs * (i % 400 < 200 ? 0.6 : 2.2) }
        var counts: [Int] = []
        for _ in 0..<3 {
            counts.append(try mallocs {
                // (indexing: a `for t in times` loop here counted a malloc per element in the debug test build)
                for i in 0..<times.count { try g.record(frameMs: times[i]) }
            })
        }
        XCTAssertGreaterThan(g.switches, 4)
        XCTAssertEqual(counts.min(), 0)
    }
}
