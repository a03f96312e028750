import GovernorLab
import RasterKit
import XCTest

/// The governor against the Unreal-style reference on the synthetic traces
/// of issue 11 (synthetic front, iPhone 6 class budget of 4.17 ms).
final class GovernorTraceTests: XCTestCase {
    let front = FrameTrace.syntheticFront
    let budget = FrameTrace.syntheticBudgetMs

    func rows() throws -> [GovernorReport.Row] {
        try GovernorReport.evaluate(traces: FrameTrace.synthetic(front: front), front: front, budgetMs: budget)
    }

    func testPrintTables() throws {
        let rows = try rows()
        print(GovernorReport.comparisonTable(rows))
        print(GovernorReport.bufferTable(rows, fps: 60))
    }
}
