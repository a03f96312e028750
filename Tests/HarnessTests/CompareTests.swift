import XCTest
import RasterKit
import RasterHarness

final class CompareTests: XCTestCase {
    static func row(_ kernel: String = "freeform", variant: String = "full", backend: BackendKind = .simd, threads: Int = 2,
                    width: Int = 750, height: Int = 1334, samples: [Double]? = nil, rounds: [[Double]]? = nil,
                    median: Double? = nil, mad: Double? = nil, status: RowStatus = .ok) -> ReportRow {
        var r = ReportRow()
        r.kernel = kernel; r.variant = variant; r.backend = backend; r.threads = threads
        r.width = width; r.height = height; r.profile = "iphone-6"; r.status = status
        if let samples {
            let s = Summary(samples)
            r.samplesMs = samples; r.samples = samples.count; r.medianMs = s.median; r.madMs = s.mad
        }
        if let rounds {
            r = RoundMerge.merge(rounds.enumerated().map { (round: $0.offset + 1, row: CompareTests.row(kernel, variant: variant,
                backend: backend, threads: threads, width: width, height: height, samples: $0.element)) })
        }
        if let median { r.medianMs = median }
        if let mad { r.madMs = mad }
        return r
    }

    /// Five quiet rounds of eight samples around 10 ms.
    static let base: [[Double]] = (0..<5).map { i in
        [10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.1].map { $0 * (1 + 0.002 * Double(i - 2)) }
    }
    static func scaled(_ k: Double) -> [[Double]] { base.map { $0.map { $0 * k } } }
    static let twin: [[Double]] = base.reversed().map { $0.reversed() }

    func testMatchesRowsAndGivesVerdicts() {
        let a = [CompareTests.row(rounds: CompareTests.base),
                 CompareTests.row(variant: "down4", rounds: CompareTests.base),
                 CompareTests.row(variant: "lut", rounds: CompareTests.base),
                 CompareTests.row(variant: "down8", rounds: CompareTests.base),
                 CompareTests.row(variant: "down10", rounds: CompareTests.base)]
        let b = [CompareTests.row(rounds: CompareTests.scaled(0.8)),               // 20% faster
                 CompareTests.row(variant: "down4", rounds: CompareTests.twin),     // same
                 CompareTests.row(variant: "lut", rounds: CompareTests.scaled(1.25)), // slower
                 CompareTests.row(variant: "down2", rounds: CompareTests.base),    // unmatched
                 CompareTests.row(variant: "down10", samples: CompareTests.base[0].map { $0 * 1.25 })] // one round
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs.count, 4)
        let byVariant = Dictionary(uniqueKeysWithValues: c.pairs.map { ($0.key.variant, $0) })
        XCTAssertEqual(byVariant["full"]?.verdict, .faster)
        XCTAssertEqual(byVariant["full"]!.ratio, 0.8, accuracy: 1e-9)
        XCTAssertLessThan(byVariant["full"]!.interval!.upper, 0.85)
        XCTAssertEqual(byVariant["down4"]?.verdict, .same)
        XCTAssertEqual(byVariant["lut"]?.verdict, .slower)
        XCTAssertEqual(byVariant["down10"]?.verdict, .unknown, "a single run cannot tell run-to-run noise apart")
        XCTAssertEqual(byVariant["down10"]?.interval?.newRounds, 1)
        XCTAssertEqual(c.onlyInBase.map(\.variant), ["down8"])
        XCTAssertEqual(c.onlyInNew.map(\.variant), ["down2"])
        // --fail-above: the 25% regression trips 5% and 20%, not 30%; the
        // single-round +25% trips nothing.
        XCTAssertEqual(c.regressions(above: 5).map(\.key.variant), ["lut"])
        XCTAssertEqual(c.regressions(above: 20).map(\.key.variant), ["lut"])
        XCTAssertEqual(c.regressions(above: 30).count, 0)
        let text = Compare.render(c)
        XCTAssertTrue(text.contains("only in base (1)"))
        XCTAssertTrue(text.contains("geomean"))
        XCTAssertTrue(text.contains("verdicts: 1 slower, 1 faster, 1 ~ (within ±2%), 1 ?"), text)
        XCTAssertTrue(text.contains("1 row(s) have fewer than 3 rounds"), text)
        XCTAssertTrue(text.contains("-20.9% .. -19.1%"), "the interval is printed: \(text)")
    }

    func testThresholdWidensSame() {
        let a = [CompareTests.row(rounds: CompareTests.base)]
        let b = [CompareTests.row(rounds: CompareTests.scaled(1.05))]
        XCTAssertEqual(Compare.reports(base: a, new: b, baseName: "a", newName: "b").pairs[0].verdict, .slower)
        let wide = Compare.reports(base: a, new: b, baseName: "a", newName: "b", rule: VerdictRule(threshold: 0.10))
        XCTAssertEqual(wide.pairs[0].verdict, .same)
    }

    func testKeysIncludeThreadsSizeProfileAndParameters() {
        let a = [CompareTests.row(threads: 1, median: 10, mad: 0.1), CompareTests.row(width: 64, height: 64, median: 1, mad: 0.01)]
        let b = [CompareTests.row(threads: 2, median: 5, mad: 0.1), CompareTests.row(width: 64, height: 64, median: 1, mad: 0.01)]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs.count, 1)
        XCTAssertEqual(c.pairs[0].key.width, 64)
        XCTAssertEqual(c.onlyInBase.count, 1)
        XCTAssertEqual(c.onlyInNew.count, 1)
    }

    func testRowsWithoutRawSamplesAreInconclusive() {
        let a = [CompareTests.row(median: 10, mad: 0.3)]
        let b = [CompareTests.row(median: 20, mad: 0.3)]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs[0].verdict, .unknown)
        XCTAssertNil(c.pairs[0].interval)
        XCTAssertNil(c.pairs[0].pValue)
        XCTAssertTrue(Compare.render(c).contains("no samples"))
    }

    func testUnsupportedRowsAreSkippedAndDuplicatesReported() {
        let a = [CompareTests.row(status: .unsupported), CompareTests.row(variant: "lut", median: 1, mad: 0),
                 CompareTests.row(variant: "lut", median: 2, mad: 0)]
        let b = [CompareTests.row(median: 1, mad: 0), CompareTests.row(variant: "lut", median: 1, mad: 0)]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.skipped.count, 1)
        XCTAssertEqual(c.duplicates.count, 1)
        XCTAssertEqual(c.pairs.count, 1)
        XCTAssertEqual(c.pairs[0].ratio, 1, "the first duplicate is used")
    }

    func testBackendsAgainstABaselineInOneReport() {
        let rows = [CompareTests.row(backend: .naive, threads: 1, rounds: CompareTests.base),
                    CompareTests.row(backend: .simd, threads: 2, rounds: CompareTests.scaled(0.8)),
                    CompareTests.row(backend: .openmp, threads: 2, rounds: CompareTests.scaled(0.25)),
                    CompareTests.row(variant: "lut", backend: .simd, threads: 2, rounds: CompareTests.base)]
        let c = Compare.backends(rows, baseline: .naive, name: "r.csv")
        XCTAssertEqual(c.pairs.count, 2)
        let openmp = c.pairs.first { $0.key.backend == .openmp }!
        XCTAssertEqual(openmp.ratio, 0.25, accuracy: 1e-9)
        XCTAssertEqual(openmp.verdict, .faster)
        XCTAssertTrue(openmp.interval!.paired, "backends of one report share their rounds")
        XCTAssertEqual(c.onlyInNew.map(\.variant), ["lut"], "no naive lut row to compare with")
        XCTAssertTrue(Compare.render(c, speedups: true).contains("4x"))
    }

    func testFilesRoundTripThroughCompare() throws {
        let a = [CompareTests.row(rounds: CompareTests.base)]
        let b = [CompareTests.row(rounds: CompareTests.scaled(0.8))]
        let pa = try ReportCSV.parse(ReportCSV.document(a))
        let pb = try ReportCSV.parse(ReportCSV.document(b))
        let c = Compare.reports(base: pa, new: pb, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs.first?.verdict, .faster)
        XCTAssertEqual(c.pairs.first?.interval?.baseRounds, 5, "rounds survive the CSV")
    }

    /// A report from before rounds existed still loads and compares: every
    /// row is one round, so every verdict is `?`. The fixtures are the
    /// composite rows (one kernel keeps the debug-build bootstrap short) of
    /// two runs once committed in Results/ (`git show c9a8dbf:Results/vm-2026-11-22-035338.csv`).
    func testCommittedReportsStillCompare() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let a = try ReportFile.load(fixtures.appendingPathComponent("vm-2026-11-22-035338-composite.csv").path)
        let b = try ReportFile.load(fixtures.appendingPathComponent("vm-2026-11-22-061851-composite.csv").path)
        let few = { (rows: [ReportRow]) in rows.filter { $0.kernel == "composite" && $0.sweep == nil } }
        let c = Compare.reports(base: few(a), new: few(b), baseName: "a", newName: "b")
        XCTAssertGreaterThan(c.pairs.count, 3)
        XCTAssertEqual(c.count(.unknown), c.pairs.count)
        XCTAssertTrue(c.regressions(above: 5).isEmpty, "one run a side cannot fail a gate")
    }
}

import Foundation
