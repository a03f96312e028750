import XCTest
import RasterHarness

final class CompareTests: XCTestCase {
    static func row(_ kernel: String = "freeform", variant: String = "full", backend: String = "simd", threads: Int = 2,
                    width: Int = 750, height: Int = 1334, samples: [Double]? = nil, median: Double? = nil,
                    mad: Double? = nil, status: String = "ok") -> ReportRow {
        var r = ReportRow()
        r.kernel = kernel; r.variant = variant; r.backend = backend; r.threads = threads
        r.width = width; r.height = height; r.profile = "iphone-6"; r.status = status
        if let samples {
            let s = Summary(samples)
            r.samplesMs = samples; r.samples = samples.count; r.medianMs = s.median; r.madMs = s.mad
        }
        if let median { r.medianMs = median }
        if let mad { r.madMs = mad }
        return r
    }

    static let base = [10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.1]
    static let faster = base.map { $0 * 0.8 }
    static let noisyTwin = [10.1, 9.9, 10.2, 10.0, 10.0, 10.2, 9.9, 10.05]

    func testMatchesRowsAndGivesVerdicts() {
        let a = [CompareTests.row(samples: CompareTests.base),
                 CompareTests.row(variant: "down4", samples: CompareTests.base),
                 CompareTests.row(variant: "lut", samples: CompareTests.base),
                 CompareTests.row(variant: "down8", samples: CompareTests.base)]
        let b = [CompareTests.row(samples: CompareTests.faster),                 // 20% faster
                 CompareTests.row(variant: "down4", samples: CompareTests.noisyTwin), // same
                 CompareTests.row(variant: "lut", samples: CompareTests.base.map { $0 * 1.25 }), // slower
                 CompareTests.row(variant: "down2", samples: CompareTests.base)]    // unmatched
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs.count, 3)
        let byVariant = Dictionary(uniqueKeysWithValues: c.pairs.map { ($0.key.variant, $0) })
        XCTAssertEqual(byVariant["full"]?.verdict, .faster)
        XCTAssertEqual(byVariant["full"]?.method, "U")
        XCTAssertEqual(byVariant["full"]!.ratio, 0.8, accuracy: 1e-9)
        XCTAssertLessThan(byVariant["full"]!.pValue!, 0.05)
        XCTAssertEqual(byVariant["down4"]?.verdict, .same)
        XCTAssertEqual(byVariant["lut"]?.verdict, .slower)
        XCTAssertEqual(c.onlyInBase.map(\.variant), ["down8"])
        XCTAssertEqual(c.onlyInNew.map(\.variant), ["down2"])
        XCTAssertEqual(c.geomean!, pow(0.8 * 1.25 * byVariant["down4"]!.ratio, 1.0 / 3), accuracy: 1e-9)
        // --fail-above: the 25% regression trips 5% and 20%, not 30%.
        XCTAssertEqual(c.regressions(above: 5).map(\.key.variant), ["lut"])
        XCTAssertEqual(c.regressions(above: 30).count, 0)
        let text = Compare.render(c)
        XCTAssertTrue(text.contains("only in base (1)"))
        XCTAssertTrue(text.contains("geomean"))
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

    func testMADRuleWithoutRawSamples() {
        // |11 - 10| = 1 > 0.3 + 0.3: significant; |10.5 - 10| = 0.5 < 0.3 + 0.3: not.
        let a = [CompareTests.row(median: 10, mad: 0.3), CompareTests.row(variant: "lut", median: 10, mad: 0.3)]
        let b = [CompareTests.row(median: 11, mad: 0.3), CompareTests.row(variant: "lut", median: 10.5, mad: 0.3)]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        let v = Dictionary(uniqueKeysWithValues: c.pairs.map { ($0.key.variant, $0) })
        XCTAssertEqual(v["full"]?.method, "MAD")
        XCTAssertEqual(v["full"]?.verdict, .slower)
        XCTAssertEqual(v["lut"]?.verdict, .same)
        XCTAssertNil(v["full"]?.pValue)
    }

    func testTooFewSamplesFallBackToMAD() {
        // 3 + 3 samples: the U test cannot reach p < 0.05, so the MAD rule decides.
        let a = [CompareTests.row(samples: [10, 10.1, 9.9])]
        let b = [CompareTests.row(samples: [5, 5.1, 4.9])]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs[0].method, "MAD")
        XCTAssertEqual(c.pairs[0].verdict, .faster)
    }

    func testUnsupportedRowsAreSkippedAndDuplicatesReported() {
        let a = [CompareTests.row(status: "unsupported"), CompareTests.row(variant: "lut", median: 1, mad: 0),
                 CompareTests.row(variant: "lut", median: 2, mad: 0)]
        let b = [CompareTests.row(median: 1, mad: 0), CompareTests.row(variant: "lut", median: 1, mad: 0)]
        let c = Compare.reports(base: a, new: b, baseName: "a", newName: "b")
        XCTAssertEqual(c.skipped.count, 1)
        XCTAssertEqual(c.duplicates.count, 1)
        XCTAssertEqual(c.pairs.count, 1)
        XCTAssertEqual(c.pairs[0].ratio, 1, "the first duplicate is used")
    }

    func testBackendsAgainstABaselineInOneReport() {
        let rows = [CompareTests.row(backend: "naive", threads: 1, samples: CompareTests.base),
                    CompareTests.row(backend: "simd", threads: 2, samples: CompareTests.faster),
                    CompareTests.row(backend: "openmp", threads: 2, samples: CompareTests.base.map { $0 / 4 }),
                    CompareTests.row(variant: "lut", backend: "simd", threads: 2, samples: CompareTests.base)]
        let c = Compare.backends(rows, baseline: "naive", name: "r.csv")
        XCTAssertEqual(c.pairs.count, 2)
        XCTAssertEqual(c.pairs.first { $0.key.backend == "openmp" }!.ratio, 0.25, accuracy: 1e-9)
        XCTAssertEqual(c.onlyInNew.map(\.variant), ["lut"], "no naive lut row to compare with")
        XCTAssertTrue(Compare.render(c, speedups: true).contains("4x"))
    }

    func testFilesRoundTripThroughCompare() throws {
        let a = [CompareTests.row(samples: CompareTests.base)]
        let b = [CompareTests.row(samples: CompareTests.faster)]
        let pa = try ReportCSV.parse(ReportCSV.document(a))
        let pb = try ReportCSV.parse(ReportCSV.document(b))
        let c = Compare.reports(base: pa, new: pb, baseName: "a", newName: "b")
        XCTAssertEqual(c.pairs.first?.verdict, .faster)
        XCTAssertEqual(c.pairs.first?.method, "U", "raw samples survive the CSV")
    }
}

import Foundation
