import Foundation
import XCTest
import RasterHarness
import RasterKit

/// What a comparison says it could resolve, rows whose rounds ran at two
/// speeds, and the Markdown, sorted and --changed forms of its table.
final class CompareResolutionTests: XCTestCase {
    func testRoundsNeededFollowTheSquareRootLaw() throws {
        let i = RatioInterval(ratio: 1, lower: 0.95, upper: 1.05, confidence: 0.95, baseRounds: 3, newRounds: 3, paired: false)
        XCTAssertEqual(i.halfWidth, 0.05, accuracy: 1e-12)
        // ±5% from 3 rounds: ±2% needs 3 x (5/2)^2 = 18.75, so 19.
        let n = try XCTUnwrap(i.roundsNeeded(for: 0.02, minRounds: 3))
        XCTAssertEqual(n.rounds, 19); XCTAssertFalse(n.atLeast)
        // Already finer than asked: never below the fewest rounds that can call a row.
        let fine = RatioInterval(ratio: 1, lower: 0.99, upper: 1.01, confidence: 0.95, baseRounds: 8, newRounds: 8, paired: false)
        XCTAssertEqual(fine.roundsNeeded(for: 0.02, minRounds: 3)?.rounds, 3)
        // One round a side knows only that process's jitter: the figure is a floor.
        let one = RatioInterval(ratio: 1, lower: 0.996, upper: 1.004, confidence: 0.95, baseRounds: 1, newRounds: 1, paired: false)
        XCTAssertEqual(one.roundsNeeded(for: 0.02, minRounds: 3)?.rounds, 3)
        XCTAssertEqual(one.roundsNeeded(for: 0.02, minRounds: 3)?.atLeast, true)
    }

    /// Rounds whose medians scatter normally with a known spread σ, each
    /// round one sample (no jitter within): the interval for the
    /// ratio of two medians of n rounds then has a half-width of about
    /// 1.96 · √2 · 1.2533 · σ / √n, and ±2% needs about n · (that / 2%)² rounds.
    func testResolutionOfSyntheticRoundsWhoseSpreadIsKnown() {
        let sigma = 0.04
        func rounds(_ n: Int, seed: UInt64) -> [[Double]] {
            var g = SeededGenerator(seed: seed)
            func u() -> Double { (Double(g.next() >> 11) + 0.5) / Double(1 << 53) }
            return (0..<n).map { _ in
                let z = (-2 * log(u())).squareRoot() * cos(2 * .pi * u())   // Box-Muller
                return [10 * (1 + sigma * z)]
            }
        }
        func meanHalfWidth(_ n: Int) -> (width: Double, rounds: Double) {
            var w = 0.0, r = 0.0
            let trials = 8
            for t in 0..<UInt64(trials) {
                let i = Bootstrap.ratioOfMedians(base: rounds(n, seed: 2 * t + 1), new: rounds(n, seed: 2 * t + 2), resamples: 300)
                w += i.halfWidth
                r += Double(i.roundsNeeded(for: 0.02, minRounds: 3)!.rounds)
            }
            return (w / Double(trials), r / Double(trials))
        }
        let expected = { (n: Int) in 1.96 * 2.0.squareRoot() * 1.2533 * sigma / Double(n).squareRoot() }
        let at16 = meanHalfWidth(16), at64 = meanHalfWidth(64)
        XCTAssertEqual(at16.width / expected(16), 1, accuracy: 0.35, "16 rounds: \(at16.width) against \(expected(16))")
        XCTAssertEqual(at64.width / expected(64), 1, accuracy: 0.35, "64 rounds: \(at64.width) against \(expected(64))")
        // Four times the rounds halve the interval; the rounds asked for stay about the same.
        XCTAssertEqual(at64.width / at16.width, 0.5, accuracy: 0.15)
        let needed = 16 * pow(expected(16) / 0.02, 2)   // about 48
        XCTAssertEqual(at16.rounds / needed, 1, accuracy: 0.6, "\(at16.rounds) rounds against \(needed)")
        XCTAssertEqual(at64.rounds / needed, 1, accuracy: 0.6, "\(at64.rounds) rounds against \(needed)")
    }

    func testTheTableSaysWhatAQuestionMarkCouldResolve() {
        // ±5%-ish round-to-round noise over 3 rounds: inconclusive at 2%.
        let base = [[10.0, 10.1, 9.9], [10.6, 10.5, 10.7], [9.5, 9.6, 9.4]]
        let new = base.map { $0.map { $0 * 1.01 } }.reversed().map { $0 }
        let c = Compare.reports(base: [CompareTests.row(rounds: base)], new: [CompareTests.row(rounds: new)], baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs[0].verdict, .unknown)
        let i = c.pairs[0].interval!
        let text = Compare.render(c)
        let line = text.split(separator: "\n").first { $0.hasPrefix("freeform/") }.map(String.init) ?? ""
        XCTAssertTrue(line.contains("±" + Human.percent(i.halfWidth)), line)
        XCTAssertTrue(line.contains(" \(i.roundsNeeded(for: 0.02, minRounds: 3)!.rounds)"), line)
        XCTAssertTrue(text.contains("To resolve ±2% on half of them: about") && text.contains("rasterbench run --rounds"), text)
        XCTAssertFalse(text.contains("p(U)"), "the pooled-sample U test is gone from the output")
    }

    func testBimodalRoundsAreFlaggedByName() throws {
        let steady = (0..<5).map { r in [10.0, 10.1, 9.9, 10.2, 10.0].map { $0 * (1 + 0.01 * Double(r - 2)) } }
        var busy = steady
        busy[2] = busy[2].map { $0 * 1.9 }   // round 3 ran on one core
        let noisy = (0..<4).map { r in [8.0, 12.0, 9.0, 13.0, 10.0, 11.5].map { $0 * (r == 1 ? 1.22 : 1) } }
        XCTAssertNil(BimodalRounds.find(CompareTests.row(rounds: steady)))
        let b = try XCTUnwrap(BimodalRounds.find(CompareTests.row(rounds: busy)))
        XCTAssertEqual(b.odd, [3]); XCTAssertTrue(b.oddAreSlower)
        XCTAssertEqual(b.factor, 1.9, accuracy: 0.05)
        XCTAssertNil(BimodalRounds.find(CompareTests.row(rounds: noisy)), "a jump within the rounds' own spread is no second speed")

        let c = Compare.reports(base: [CompareTests.row(rounds: steady), CompareTests.row(variant: "down4", rounds: steady)],
                                new: [CompareTests.row(rounds: busy), CompareTests.row(variant: "down4", rounds: steady)],
                                baseName: "a", newName: "b")
        let text = Compare.render(c)
        XCTAssertTrue(text.contains("bimodal rounds in 1 row(s)"), text)
        XCTAssertTrue(text.contains("freeform/full/simd t=2 750x1334 iphone-6: new round 3 at 1.9x the others' time"), text)
        XCTAssertFalse(text.contains("down4/simd t=2 750x1334 iphone-6: "), text)
    }

    /// A Markdown table: a header, a delimiter and one row per pair, every
    /// row with as many cells as the header, a pipe in a key escaped.
    func testMarkdownIsATable() {
        let a = [CompareTests.row(rounds: CompareTests.base), CompareTests.row(variant: "a|b", rounds: CompareTests.base)]
        let b = [CompareTests.row(rounds: CompareTests.scaled(0.8)), CompareTests.row(variant: "a|b", rounds: CompareTests.twin)]
        let text = Compare.render(Compare.reports(base: a, new: b, baseName: "x|y", newName: "b"), view: CompareView(format: .markdown))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        func cells(_ line: String) -> [String] {
            // Split on pipes not escaped by a backslash.
            var out: [String] = [], cur = "", escaped = false
            for ch in line {
                if escaped { cur.append(ch); escaped = false; continue }
                if ch == "\\" { escaped = true; cur.append(ch); continue }
                if ch == "|" { out.append(cur.trimmingCharacters(in: .whitespaces)); cur = ""; continue }
                cur.append(ch)
            }
            return Array(out.dropFirst())   // before the first pipe: nothing
        }
        XCTAssertEqual(table.count, 4, text)
        let header = cells(table.first!)
        XCTAssertEqual(header.first, "row")
        XCTAssertTrue(cells(Array(table)[1]).allSatisfy { $0 == "---" }, "delimiter row")
        for line in table { XCTAssertEqual(cells(line).count, header.count, line) }
        XCTAssertTrue(text.contains("a\\|b"), "a pipe in a cell is escaped")
        XCTAssertTrue(lines.contains { $0.hasPrefix("- verdicts: ") }, "the summary is a list under the table")
        XCTAssertTrue(text.contains("x\\|y"))
    }

    func testSortByChangeAndChangedOnly() {
        let a = ["full", "down4", "lut"].map { CompareTests.row(variant: $0, rounds: CompareTests.base) }
        let b = [CompareTests.row(variant: "full", rounds: CompareTests.scaled(0.9)),
                 CompareTests.row(variant: "down4", rounds: CompareTests.twin),
                 CompareTests.row(variant: "lut", rounds: CompareTests.scaled(1.5))]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        func order(_ view: CompareView) -> [String] {
            Compare.render(c, view: view).split(separator: "\n").compactMap { l in
                ["full", "down4", "lut"].first { l.hasPrefix("freeform/\($0)/") }
            }
        }
        XCTAssertEqual(order(CompareView()), ["down4", "full", "lut"], "by name")
        XCTAssertEqual(order(CompareView(sort: .change)), ["lut", "full", "down4"], "largest change first")
        XCTAssertEqual(order(CompareView(sort: .change, changedOnly: true)), ["lut", "full"])
        XCTAssertTrue(Compare.render(c, view: CompareView(changedOnly: true)).contains("table: 2 of 3 rows (faster or slower only)"))
    }
}
