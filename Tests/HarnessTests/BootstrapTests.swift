import XCTest
import RasterHarness
import RasterKit

/// The interval and the verdict rule on synthetic rounds, each seeded: a
/// round is `samples` timings around `median * roundFactor`, with a
/// multiplicative jitter, as a process on a shared host gives them.
final class BootstrapTests: XCTestCase {
    static func rounds(median: Double, factors: [Double], samples: Int = 20, jitter: Double = 0.02, seed: UInt64) -> [[Double]] {
        var g = SeededGenerator(seed: seed)
        return factors.map { f in
            (0..<samples).map { _ in median * f * (1 + jitter * (Double(g.below(2001)) / 1000 - 1)) }
        }
    }

    /// Round-to-round factors within ±0.4%: a quiet host.
    static let quiet = [1.0, 1.004, 0.997, 1.002, 0.996]

    func verdict(_ base: [[Double]], _ new: [[Double]], paired: Bool = false) -> (Comparison.Verdict, RatioInterval) {
        let ci = Bootstrap.ratioOfMedians(base: base, new: new, paired: paired)
        return (VerdictRule().verdict(ci), ci)
    }

    func testPlantedTenPercentShiftIsSlower() {
        let base = BootstrapTests.rounds(median: 10, factors: BootstrapTests.quiet, seed: 1)
        let new = BootstrapTests.rounds(median: 11, factors: BootstrapTests.quiet.reversed(), seed: 2)
        let (v, ci) = verdict(base, new)
        XCTAssertEqual(v, .slower, "\(ci)")
        XCTAssertTrue(ci.lower < 1.1 && ci.upper > 1.1, "the interval holds the planted ratio: \(ci)")
        XCTAssertEqual(ci.ratio, 1.1, accuracy: 0.01)
        // And the other way round.
        XCTAssertEqual(verdict(new, base).0, .faster)
    }

    func testIdenticalDistributionsAreTheSame() {
        let base = BootstrapTests.rounds(median: 10, factors: BootstrapTests.quiet, seed: 3)
        let new = BootstrapTests.rounds(median: 10, factors: BootstrapTests.quiet.shuffled(using: &SplitMixBox.g), seed: 4)
        let (v, ci) = verdict(base, new)
        XCTAssertEqual(v, .same, "\(ci)")
        XCTAssertTrue(ci.lower < 1 && ci.upper > 1, "\(ci)")
    }

    func testTooFewRoundsAreInconclusive() {
        // A 10% shift, but one round a side: one process's jitter only. The
        // interval may well exclude 1; the verdict still says "run more".
        for n in [1, 2] {
            let base = BootstrapTests.rounds(median: 10, factors: Array(BootstrapTests.quiet.prefix(n)), seed: 5)
            let new = BootstrapTests.rounds(median: 11, factors: Array(BootstrapTests.quiet.prefix(n)), seed: 6)
            let (v, ci) = verdict(base, new)
            XCTAssertEqual(v, .unknown, "\(n) rounds: \(ci)")
            XCTAssertEqual(ci.baseRounds, n)
        }
        // An old report without raw samples has no interval at all.
        var row = ReportRow(); row.medianMs = 1
        XCTAssertNil(Bootstrap.rounds(of: row))
    }

    func testRoundsThatDisagreeWildlyAreInconclusive() {
        // The same 5% shift, but rounds that differ by up to 40% (a busy host):
        // samples within a round are tight, so the old U test calls it
        // significant; the interval over rounds does not.
        let wild = [0.75, 1.0, 1.4, 0.85, 1.2]
        let base = BootstrapTests.rounds(median: 10, factors: wild, jitter: 0.01, seed: 7)
        let new = BootstrapTests.rounds(median: 10.5, factors: [1.3, 0.8, 1.0, 1.15, 0.9], jitter: 0.01, seed: 8)
        let (v, ci) = verdict(base, new)
        XCTAssertEqual(v, .unknown, "\(ci)")
        XCTAssertLessThan(ci.lower, 1 / 1.02)
        XCTAssertGreaterThan(ci.upper, 1.02)
        XCTAssertLessThan(MannWhitney(base.flatMap { $0 }, new.flatMap { $0 }).pValue, 1.0,
                          "sanity: the pooled test runs on the same data")
    }

    func testPairingCancelsDriftSharedByARound() {
        // Each round's drift hits A and B alike (ab's adjacent processes);
        // B is 5% slower. Paired, the drift cancels; unpaired, it swamps.
        let drift = [0.8, 1.25, 1.0, 0.9, 1.15, 1.05]
        let base = BootstrapTests.rounds(median: 10, factors: drift, jitter: 0.01, seed: 9)
        let new = BootstrapTests.rounds(median: 10.5, factors: drift, jitter: 0.01, seed: 10)
        XCTAssertEqual(verdict(base, new, paired: true).0, .slower, "\(verdict(base, new, paired: true).1)")
        XCTAssertEqual(verdict(base, new, paired: false).0, .unknown, "\(verdict(base, new, paired: false).1)")
    }

    func testSameDataSameInterval() {
        let base = BootstrapTests.rounds(median: 10, factors: BootstrapTests.quiet, seed: 11)
        let new = BootstrapTests.rounds(median: 10.3, factors: BootstrapTests.quiet, seed: 12)
        XCTAssertEqual(Bootstrap.ratioOfMedians(base: base, new: new), Bootstrap.ratioOfMedians(base: base, new: new))
        // The statistic is the median of round medians.
        XCTAssertEqual(Bootstrap.statistic([[1, 2, 3], [10, 11, 12], [5, 6, 7]]), 6)
        XCTAssertEqual(Bootstrap.statistic([[1, 2], [3, 4]]), 2.5)
    }

    func testVerdictRuleBoundaries() {
        func ci(_ lo: Double, _ hi: Double, rounds: Int = 5) -> RatioInterval {
            RatioInterval(ratio: (lo + hi) / 2, lower: lo, upper: hi, confidence: 0.95, baseRounds: rounds, newRounds: rounds, paired: false)
        }
        let rule = VerdictRule() // 2%
        XCTAssertEqual(rule.verdict(ci(1.021, 1.2)), .slower)
        XCTAssertEqual(rule.verdict(ci(1.019, 1.2)), .unknown, "straddles +2%")
        XCTAssertEqual(rule.verdict(ci(0.5, 0.98)), .faster, "0.98 < 1/1.02")
        XCTAssertEqual(rule.verdict(ci(0.985, 1.015)), .same)
        XCTAssertEqual(rule.verdict(ci(0.97, 1.01)), .unknown, "reaches past -2%")
        XCTAssertEqual(rule.verdict(ci(1.021, 1.2, rounds: 2)), .unknown)
        XCTAssertEqual(VerdictRule(threshold: 0.25).verdict(ci(1.021, 1.2)), .same, "--threshold 25%")
        XCTAssertEqual(rule.verdict(ci(.nan, 1)), .unknown)
        // --fail-above gates on the lower end of a slower interval.
        XCTAssertTrue(VerdictRule.isRegression(ci(1.06, 1.2), verdict: .slower, above: 5))
        XCTAssertFalse(VerdictRule.isRegression(ci(1.04, 1.2), verdict: .slower, above: 5), "could be only +4%")
        XCTAssertFalse(VerdictRule.isRegression(ci(1.06, 1.2), verdict: .unknown, above: 5))
    }
}

/// A shared seeded generator for shuffles in tests.
enum SplitMixBox { nonisolated(unsafe) static var g = SeededGenerator(seed: 42) }
