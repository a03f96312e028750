import Foundation
import GovernorLab
import RasterHarness
import RasterKit
import XCTest

/// Extreme finite values (and NaN, infinities) in every number the
/// governor command reads: the trace's fields, the budget, the simulators'
/// parameters. Each is refused with an error or simulated exactly; none may
/// trap (a trap ends this test process, so it fails the run).
final class GovernorInputBoundsTests: XCTestCase {
    static let extremes: [Double] = [
        0, -0.0, 5e-324, .leastNormalMagnitude, 1e-300, 1e-9, 1, 1e6, 1e15, 1e300, 1e308, .greatestFiniteMagnitude,
        -1, -1e308, .infinity, -.infinity, .nan,
    ]

    var dir: URL!
    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("governor-bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func testBufferSimulatorRefusesOrSimulatesEveryExtreme() throws {
        var refused = 0
        for ms in Self.extremes {
            for period in Self.extremes {
                for buffer in [0, 2, 10, -1, BufferSimulator.maxBuffer + 1, Int.max] {
                    do {
                        let r = try BufferSimulator.simulate(frameMs: [ms, ms, 1, ms], periodMs: period, buffer: buffer)
                        XCTAssertGreaterThanOrEqual(r.missed, 0)
                        XCTAssertEqual(r.shownAt.count, 4)
                    } catch is GovernorError {
                        refused += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(refused, 0)
        // The cases that trapped: a 1e308 ms frame, a 1e-300 or 5e-324 ms period.
        XCTAssertThrowsError(try BufferSimulator.simulate(frameMs: [1e308], periodMs: 4, buffer: 2))
        XCTAssertThrowsError(try BufferSimulator.simulate(frameMs: [4], periodMs: 1e-300, buffer: 2))
        XCTAssertThrowsError(try BufferSimulator.simulate(frameMs: [4], periodMs: 5e-324, buffer: 0))
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: [1], periodMs: 1e308, buffer: 0).missed, 0)
    }

    func testBudgetBoundsAreDocumentedAndEnforced() throws {
        for budget in Self.extremes {
            let inRange = budget.isFinite && RecordedTrace.budgetRange.contains(budget)
            if inRange {
                XCTAssertNoThrow(try RecordedTrace.checkBudget(budget, name: "--trace-budget-ms"), "\(budget)")
            } else {
                XCTAssertThrowsError(try RecordedTrace.checkBudget(budget, name: "--trace-budget-ms"), "\(budget)") { error in
                    XCTAssertTrue("\(error)".contains("--trace-budget-ms"), "\(error)")
                }
            }
        }
    }

    func trace(_ rows: [String], name: String = "t.csv") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try ("frame,level,label,psnr_db,ms\n" + rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// 20 frames at two levels; frame 5 of level 1 gets `field` = `value`.
    func trace(field: Int, value: String) throws -> String {
        var rows: [String] = []
        for f in 0..<20 {
            rows.append("\(f),0,cheap,30,2")
            var fields = ["\(f)", "1", "dear", "40", "3.5"]
            if f == 5 { fields[field] = value }
            rows.append(fields.joined(separator: ","))
        }
        return try trace(rows)
    }

    /// Every numeric field of a trace at every extreme: refused with the
    /// file and line, or accepted; an accepted trace is then simulated at
    /// the budget's bounds and must not trap there either.
    func testEveryTraceFieldAtEveryExtreme() throws {
        let texts = Self.extremes.map { "\($0)" } + ["99999999999999999999", "1e999", "-1e999", "0x10", String(repeating: "9", count: 400)]
        var accepted = 0
        for field in [0, 1, 3, 4] {
            for text in texts {
                let path = try trace(field: field, value: text)
                let loaded: (FrameTrace, [GovernorLevel])
                do {
                    loaded = try RecordedTrace.load(path)
                } catch let HarnessError.malformedReport(_, line, _, _) {
                    XCTAssertEqual(line, 13, "field \(field) = \(text)")
                    continue
                }
                accepted += 1
                if field == 4 {
                    let ms = try XCTUnwrap(Double(text))
                    XCTAssertTrue(RecordedTrace.msRange.contains(ms), "ms \(text) accepted")
                }
                for budget in [RecordedTrace.budgetRange.lowerBound, 1, RecordedTrace.budgetRange.upperBound] {
                    do {
                        _ = try GovernorReport.evaluate(traces: [loaded.0], front: loaded.1, budgetMs: budget)
                    } catch is GovernorError {}
                }
            }
        }
        XCTAssertGreaterThan(accepted, 0)
        // The largest accepted time at the smallest accepted budget, for a
        // long trace, stays within BufferSimulator's exact range.
        var rows: [String] = []
        for f in 0..<1000 { rows += ["\(f),0,a,30,\(Int(RecordedTrace.msRange.upperBound))", "\(f),1,b,40,\(Int(RecordedTrace.msRange.upperBound))"] }
        let (t, front) = try RecordedTrace.load(try trace(rows, name: "slow.csv"))
        XCTAssertNoThrow(try GovernorReport.evaluate(traces: [t], front: front, budgetMs: RecordedTrace.budgetRange.lowerBound))
    }

    /// A recorded trace's front is the chooser's Pareto front of its levels
    /// (median time against PSNR): a slower, worse level is left out, and of
    /// two levels equally fast the better one stays.
    func testTheTraceFrontIsTheParetoFrontOfItsLevels() throws {
        let levels: [(ms: Double, psnr: String)] = [(10, "30"), (20, "25"), (30, "40"), (30, "45"), (40, "inf")]
        var rows: [String] = []
        for f in 0..<9 {
            for (i, l) in levels.enumerated() { rows.append("\(f),\(i),L\(i),\(l.psnr),\(l.ms + Double(f % 3) - 1)") }
        }
        let (_, front) = try RecordedTrace.load(try trace(rows, name: "front.csv"))
        XCTAssertEqual(front.map(\.id), [0, 3, 4])
        XCTAssertEqual(front.map(\.predictedMs), [10, 30, 40], "each level's median")
        XCTAssertEqual(front.map(\.label), ["L0", "L3", "L4"])
    }

    /// More rows than the limit: refused at the first row past it, so that a
    /// huge file is neither read whole nor held.
    func testRowLimitIsEnforcedWhileReading() throws {
        let path = try trace(field: 4, value: "3")
        XCTAssertNoThrow(try RecordedTrace.load(path, maxRows: 40))
        XCTAssertThrowsError(try RecordedTrace.load(path, maxRows: 39)) { error in
            guard case let HarnessError.malformedReport(_, line, _, reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(line, 41)
            XCTAssertTrue(reason.contains("more than 39 rows"), reason)
        }
    }

    /// Rows split across the reader's chunks keep their line numbers.
    func testLineNumbersAcrossChunks() throws {
        var rows: [String] = []
        for f in 0..<40_000 { rows += ["\(f),0,a,30,2", "\(f),1,b,40,3"] }
        rows[70_000] = "35000,0,a,30,nope"
        XCTAssertThrowsError(try RecordedTrace.load(try trace(rows, name: "long.csv"))) { error in
            guard case let HarnessError.malformedReport(_, line, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(line, 70_002)
        }
    }

    func testSyntheticTracesRefuseExtremeRates() {
        for fps in Self.extremes where !(fps.isFinite && (1...1000).contains(fps)) {
            XCTAssertThrowsError(try FrameTrace.synthetic(front: FrameTrace.syntheticFront, fps: fps), "\(fps)")
        }
    }
}
