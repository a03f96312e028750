import GovernorLab
import RasterKit
import XCTest

/// The governor against the Unreal-style reference on the synthetic traces
/// (synthetic front L0...L5 = 0.8, 1.2, 1.8, 2.6, 3.6, 5.0 ms;
/// budget 4.17 ms, so "fits with 10% headroom" means <= 3.75 ms).
final class GovernorTraceTests: XCTestCase {
    let front = FrameTrace.syntheticFront
    let budget = FrameTrace.syntheticBudgetMs

    func compare(_ name: String) throws -> (governor: SimulationResult, reference: SimulationResult) {
        let trace = try XCTUnwrap(try FrameTrace.synthetic(front: front).first { $0.name == name })
        return try GovernorSimulator.compare(trace: trace, front: front, budgetMs: budget)
    }

    /// Both start at L4 (3.6 ms fits at the front's speed) but the load is
    /// 1.25x: L4 takes 4.5 ms > 4.17, so frames 0 and 1 miss; after k = 2 the
    /// governor jumps to the best level within 3.75 / 1.25 = 3.0 ms: L3 (3.25
    /// ms), and stays: L4 never fits again.
    func testSteadySettlesAfterOneSwitch() throws {
        let (g, r) = try compare("steady")
        XCTAssertEqual(g.overBudget, 2)
        XCTAssertEqual(g.switches, 1)
        XCTAssertEqual(g.lastSwitch, 1)
        XCTAssertEqual(Set(g.levels.dropFirst(2)), [3])
        XCTAssertLessThanOrEqual(g.overBudget, r.overBudget)
        XCTAssertGreaterThanOrEqual(g.meanQuality, r.meanQuality)
    }

    /// 1.0x then 1.5x from frame 200: L4 goes from 3.6 to 5.4 ms, frames 200
    /// and 201 miss, then straight to the best level within 3.75 / 1.5 = 2.5:
    /// L2 (2.7 ms). L3 would take 3.9 > 3.75, so it never steps back up.
    /// The reference sits at L4 with only 4% margin under its 3.75 ms target,
    /// so its weighted history already drops it to L3 (3.9 ms, under the
    /// budget) after the first miss: one miss fewer and a little more
    /// quality. A genuine trade-off of k = 2, asserted so a change shows.
    func testStepDropsStraightToTheFittingLevel() throws {
        let (g, r) = try compare("step")
        XCTAssertEqual(g.overBudget, 2)
        XCTAssertEqual(g.switches, 1)
        XCTAssertEqual(g.lastSwitch, 201)
        XCTAssertEqual(g.levels[202], 2)
        XCTAssertEqual(Set(g.levels.dropFirst(202)), [2])
        XCTAssertEqual(r.overBudget, 1)
        XCTAssertGreaterThan(r.meanQuality, g.meanQuality)
        XCTAssertLessThan(g.switches, r.switches)
    }

    /// At 1.6x, L3 takes 4.16 ms: 99.8% of the budget. The reference's
    /// weighted history drops to L3 after one missed frame and happens to sit
    /// just under the edge; the governor needs k = 2 misses and keeps its
    /// headroom (L2). The known trade-off, asserted so a change shows.
    func testStepToTheBudgetEdgeIsATradeOff() throws {
        let (g, r) = try compare("step1.6")
        XCTAssertEqual(g.overBudget, 2)
        XCTAssertEqual(r.overBudget, 1)
        XCTAssertLessThan(g.meanQuality, r.meanQuality)
    }

    /// One 4x frame at 300 (13 ms): one miss, and no level change for it.
    func testSpikeCostsOneFrameAndNoSwitch() throws {
        let (g, r) = try compare("spike")
        XCTAssertEqual(g.overBudget, 3) // frames 0, 1 (start, as steady) and 300
        XCTAssertEqual(g.switches, 1)
        XCTAssertEqual(g.lastSwitch, 1)
        XCTAssertLessThanOrEqual(g.overBudget, r.overBudget)
        XCTAssertGreaterThanOrEqual(g.meanQuality, r.meanQuality - 1e-9)
    }

    func testNoisyNoWorseThanReference() throws {
        let (g, r) = try compare("noisy")
        XCTAssertLessThanOrEqual(g.overBudget, r.overBudget)
        XCTAssertGreaterThanOrEqual(g.meanQuality, r.meanQuality - 1e-9)
        XCTAssertLessThanOrEqual(g.switches, r.switches)
    }

    /// 1.0x to 1.3x over 3600 frames: L4 (3.6 ms) leaves its headroom
    /// (3.96 ms, 95% of the budget) at 1.1x and is left early, before any
    /// frame misses; the reference also misses none but drops sooner.
    func testThermalRampStepsDownBeforeMissing() throws {
        let (g, r) = try compare("thermal")
        XCTAssertEqual(g.overBudget, 0)
        XCTAssertEqual(g.switches, 1)
        XCTAssertLessThanOrEqual(g.overBudget, r.overBudget)
        XCTAssertGreaterThan(g.meanQuality, r.meanQuality)
    }

    /// No oscillation: on a steady load anywhere from 0.3x to 2.5x, from any
    /// start level, the governor never returns to a level it left, and makes
    /// no change in the last 3/4 of the run.
    func testSteadyLoadNeverOscillates() throws {
        for step in 0...44 {
            let load = 0.3 + 0.05 * Double(step)
            let trace = FrameTrace.load("steady", "", front: front, frames: 800) { _ in load }
            for start in front.indices {
                var governor = try Governor(front: front, parameters: GovernorParameters(budgetMs: budget), startLevel: start)
                let r = try GovernorSimulator.run(&governor, trace: trace, front: front, budgetMs: budget)
                XCTAssertLessThan(r.lastSwitch, 200, "load \(load) start \(start)")
                var left = Set<Int>()
                for i in 1..<r.levels.count where r.levels[i] != r.levels[i - 1] {
                    left.insert(r.levels[i - 1])
                    XCTAssertFalse(left.contains(r.levels[i]), "load \(load) start \(start): returned to L\(r.levels[i]) at \(i)")
                }
            }
        }
    }

    /// Steps up one level at a time, each after the 30-frame dwell: load 0.5
    /// from L0, speed converges to 0.5 at once (every frame's ratio is 0.5...
    /// after the first from 1.0); L5 at 0.5x is 2.5 ms and fits.
    func testStepsUpOneLevelPerDwell() throws {
        let trace = FrameTrace.load("light", "", front: front, frames: 400) { _ in 0.5 }
        var governor = try Governor(front: front, parameters: GovernorParameters(budgetMs: budget), startLevel: 0)
        let r = try GovernorSimulator.run(&governor, trace: trace, front: front, budgetMs: budget)
        XCTAssertEqual(r.switches, 5)
        XCTAssertEqual(r.levels.last, 5)
        var changes: [Int] = []
        for i in 1..<r.levels.count where r.levels[i] != r.levels[i - 1] {
            XCTAssertEqual(r.levels[i], r.levels[i - 1] + 1)
            changes.append(i)
        }
        for (a, b) in zip(changes, changes.dropFirst()) { XCTAssertGreaterThanOrEqual(b - a, 30) }
        XCTAssertEqual(r.overBudget, 0)
    }
}
