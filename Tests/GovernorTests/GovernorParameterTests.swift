import GovernorLab
import RasterKit
import XCTest

final class GovernorParameterTests: XCTestCase {
    let front = FrameTrace.syntheticFront

    func assertInvalid(_ name: String, _ change: (inout GovernorParameters) -> Void, line: UInt = #line) {
        var p = GovernorParameters(budgetMs: 4)
        change(&p)
        XCTAssertThrowsError(try Governor(front: front, parameters: p), line: line) { error in
            guard case let GovernorError.invalidParameter(got, _, _) = error else {
                return XCTFail("expected invalidParameter, got \(error)", line: line)
            }
            XCTAssertEqual(got, name, line: line)
        }
    }

    func testParametersAreValidated() {
        assertInvalid("budgetMs") { $0.budgetMs = 0 }
        assertInvalid("budgetMs") { $0.budgetMs = .nan }
        assertInvalid("budgetMs") { $0.budgetMs = .infinity }
        assertInvalid("overBudgetFrames") { $0.overBudgetFrames = 0 }
        assertInvalid("dwellFrames") { $0.dwellFrames = -1 }
        assertInvalid("minFramesBetweenChanges") { $0.minFramesBetweenChanges = 0 }
        assertInvalid("headroom") { $0.headroom = 1 }
        assertInvalid("headroom") { $0.headroom = -0.1 }
        assertInvalid("speedSmoothing") { $0.speedSmoothing = 0 }
        assertInvalid("speedSmoothing") { $0.speedSmoothing = 1.5 }
        XCTAssertNoThrow(try GovernorParameters(budgetMs: 4).validate())
    }

    func testDefaultsAreTheSpecs() {
        let p = GovernorParameters(budgetMs: 4)
        XCTAssertEqual(p.overBudgetFrames, 2)
        XCTAssertEqual(p.dwellFrames, 30)
        XCTAssertEqual(p.minFramesBetweenChanges, 8)
        XCTAssertEqual(p.targetMs, 3.6, accuracy: 1e-12)
    }

    func testFrontIsValidated() {
        let p = GovernorParameters(budgetMs: 4)
        XCTAssertThrowsError(try Governor(front: [], parameters: p)) { XCTAssertEqual($0 as? GovernorError, .emptyFront) }
        let a = GovernorLevel(id: 0, label: "a", predictedMs: 1, quality: 30)
        func rejects(_ levels: [GovernorLevel], index: Int, line: UInt = #line) {
            XCTAssertThrowsError(try Governor(front: levels, parameters: p), line: line) { error in
                guard case let GovernorError.notAFront(got, _) = error else { return XCTFail("\(error)", line: line) }
                XCTAssertEqual(got, index, line: line)
            }
        }
        rejects([a, GovernorLevel(id: 1, label: "b", predictedMs: 0.5, quality: 40)], index: 1) // cheaper after dearer
        rejects([a, GovernorLevel(id: 1, label: "b", predictedMs: 2, quality: 30)], index: 1) // dearer, no better
        rejects([GovernorLevel(id: 0, label: "a", predictedMs: 0, quality: 30)], index: 0)
        rejects([GovernorLevel(id: 0, label: "a", predictedMs: .nan, quality: 30)], index: 0)
        rejects([GovernorLevel(id: 0, label: "a", predictedMs: 1, quality: .nan)], index: 0)
        XCTAssertThrowsError(try Governor(front: [a], parameters: p, startLevel: 1))
    }

    func testBadFrameTimesThrowAndChangeNothing() throws {
        var g = try Governor(front: front, parameters: GovernorParameters(budgetMs: 4))
        for bad in [Double.nan, -1, .infinity] {
            XCTAssertThrowsError(try g.record(frameMs: bad)) { error in
                guard case .invalidFrameTime? = error as? GovernorError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(g.frames, 0)
        XCTAssertEqual(g.speed, 1)
    }

    /// The default start: the best level predicted within the budget less headroom.
    func testDefaultStartLevel() throws {
        let g = try Governor(front: front, parameters: GovernorParameters(budgetMs: 4)) // 3.6 ms target
        XCTAssertEqual(g.levelIndex, 4) // L4 is 3.6 ms
        let tight = try Governor(front: front, parameters: GovernorParameters(budgetMs: 0.5))
        XCTAssertEqual(tight.levelIndex, 0) // nothing fits: the cheapest
    }
}
