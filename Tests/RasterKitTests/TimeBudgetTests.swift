import Foundation
import RasterKit
import XCTest

/// A renderer with a time budget stops before the next op once the deadline
/// has passed, with a typed error naming the limit; no time is measured
/// (a budget of 1 ns has passed by the first op).
final class TimeBudgetTests: XCTestCase {
    func testARendererStopsBeforeAnOpOnceItsBudgetHasPassed() throws {
        let here = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        let job = try Job.decode(Data(##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":1},{"op":"blur","sigma":2}]}"##.utf8),
                                 baseDirectory: here)
        let renderer = Renderer(backend: NaiveBackend())
        renderer.timeBudget = try TimeBudget(seconds: 1e-9)
        XCTAssertThrowsError(try renderer.render(job)) { e in
            guard case let RasterError.invalidArgument(name, value, accepted) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(name, "--max-seconds")
            XCTAssertTrue(value.hasPrefix("still rendering after"), value)
            XCTAssertTrue(accepted.contains("raise --max-seconds"), accepted)
        }
        // A job without ops has nothing to stop; no budget, no limit.
        XCTAssertNoThrow(try renderer.render(try Job(width: 8, height: 8, background: .transparent, ops: [])))
        renderer.timeBudget = nil
        XCTAssertNoThrow(try renderer.render(job))
        // A budget below or at zero, or beyond a day, is not one.
        for bad in [0, -1, .infinity, .nan, TimeBudget.maxSeconds * 2] {
            XCTAssertThrowsError(try TimeBudget(seconds: bad), "\(bad)")
        }
    }
}
