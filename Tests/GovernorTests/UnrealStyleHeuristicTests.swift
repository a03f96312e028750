import GovernorLab
import RasterKit
import XCTest

/// The reference heuristic behaves as the Unreal code it models.
final class UnrealStyleHeuristicTests: XCTestCase {
    let front = FrameTrace.syntheticFront
    let budget = FrameTrace.syntheticBudgetMs // 4.17 ms, target 3.75

    /// A load doubling from frame 21: the first 7.2 ms frame at L4 pulls the
    /// weighted history (16 frames, 0.9^k) to (1.875 + 3.75 x 7.18) / 8.18 =
    /// 3.52 ms < 3.6, so it already drops to L3 (the change period has
    /// passed); L3 then takes 5.2 ms: the second frame over budget in a row is
    /// a panic, applied at once: 2.6 x 3.75 / 5.2 = 1.875 -> L2 (1.8 ms).
    func testOneFrameMovesTheHistoryAndTwoPanic() throws {
        var h = try UnrealStyleHeuristic(front: front, budgetMs: budget, startLevel: 4)
        try h.observe(frameMs: 3.6) // ignored (first frame after a reset)
        for _ in 0..<20 { try h.observe(frameMs: front[h.levelIndex].predictedMs) }
        XCTAssertEqual(h.levelIndex, 4)
        try h.observe(frameMs: front[h.levelIndex].predictedMs * 2)
        XCTAssertEqual(h.levelIndex, 3)
        try h.observe(frameMs: front[h.levelIndex].predictedMs * 2)
        XCTAssertEqual(h.levelIndex, 2)
    }

    /// Increases wait for 8 frames since the last change and are blended:
    /// cost = current + 0.9 x (suggested - current).
    func testIncreaseWaitsForChangePeriod() throws {
        var h = try UnrealStyleHeuristic(front: front, budgetMs: budget, startLevel: 0)
        try h.observe(frameMs: 0.4) // ignored
        var levels: [Int] = []
        for _ in 0..<40 {
            try h.observe(frameMs: front[h.levelIndex].predictedMs * 0.5)
            levels.append(h.levelIndex)
        }
        var changes: [Int] = []
        for i in 1..<levels.count where levels[i] != levels[i - 1] { changes.append(i) }
        XCTAssertFalse(changes.isEmpty)
        for (a, b) in zip(changes, changes.dropFirst()) { XCTAssertGreaterThanOrEqual(b - a, 9) }
        XCTAssertEqual(levels.last, 5)
    }

    func testBadInput() throws {
        XCTAssertThrowsError(try UnrealStyleHeuristic(front: [], budgetMs: 4, startLevel: 0))
        XCTAssertThrowsError(try UnrealStyleHeuristic(front: front, budgetMs: 0, startLevel: 0))
        XCTAssertThrowsError(try UnrealStyleHeuristic(front: front, budgetMs: 4, startLevel: 6))
        var h = try UnrealStyleHeuristic(front: front, budgetMs: 4, startLevel: 0)
        XCTAssertThrowsError(try h.observe(frameMs: .nan))
    }
}
