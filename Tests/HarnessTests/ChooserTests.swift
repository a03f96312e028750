import XCTest
import RasterKit
@testable import RasterHarness

/// The chooser and the front on synthetic reports, where the right answer
/// can be worked out by hand.
final class ChooserTests: XCTestCase {
    /// A scene row as `run` writes it; `maxErr` 5 keeps options out of the
    /// rounding tier unless a test asks for it.
    static func row(_ variant: String, target: String = "aurora", scale: Double = 1, backend: BackendKind = .simd, threads: Int = 2,
                    p95: Double?, psnr: Double?, maxErr: Double? = 5, status: RowStatus = .ok, sweep: SweepKind? = nil,
                    profile: String = "iphone-6") -> ReportRow {
        var r = ReportRow()
        r.profile = profile; r.kernel = target; r.variant = variant; r.backend = backend; r.threads = threads
        r.width = 750; r.height = 1334
        r.renderScale = scale
        r.sweep = sweep; r.status = status
        r.p95Ms = p95; r.medianMs = p95.map { $0 * 0.9 }; r.psnrDb = psnr; r.maxErr = psnr == nil ? nil : maxErr
        r.fps = 60
        return r
    }

    static func front(_ rows: [ReportRow]) -> QualityFront {
        let f = QualityFront.fronts(from: rows)
        XCTAssertEqual(f.count, 1)
        return f[0]
    }

    /// exact 40 dB @ 6 ms, iir 35 dB @ 3 ms, down4 30 dB @ 2 ms, box 28 dB @ 2.5 ms (dominated by down4).
    static let aurora = [
        row("exact", p95: 6, psnr: 40), row("blur=iir", p95: 3, psnr: 35),
        row("blur=down4", p95: 2, psnr: 30), row("blur=box3", p95: 2.5, psnr: 28),
    ]

    func testFittingBudgetPicksHighestQualityThatFitsWithRunnerUpAndMargin() {
        // Budget 4 ms less 10%: limit 3.6 ms; exact (6) does not fit, iir (3) does.
        let c = Chooser.choose(Self.front(Self.aurora), budgetMs: 4)
        XCTAssertEqual(c.limitMs, 3.6, accuracy: 1e-12)
        XCTAssertEqual(c.chosen?.variant, "blur=iir")
        XCTAssertEqual(c.runnerUp?.variant, "blur=down4")
        XCTAssertEqual(c.marginMs!, 0.6, accuracy: 1e-12)
        XCTAssertNil(c.fastest); XCTAssertNil(c.missByMs)
        // A bigger budget takes exact; the headroom decides at the edge.
        XCTAssertEqual(Chooser.choose(Self.front(Self.aurora), budgetMs: 6, headroom: 0).chosen?.variant, "exact")
        XCTAssertEqual(Chooser.choose(Self.front(Self.aurora), budgetMs: 6).chosen?.variant, "blur=iir")
    }

    func testNothingFitsGivesFastestAndMiss() {
        let c = Chooser.choose(Self.front(Self.aurora), budgetMs: 1, headroom: 0.5)
        XCTAssertNil(c.chosen); XCTAssertNil(c.runnerUp); XCTAssertNil(c.marginMs)
        XCTAssertEqual(c.fastest?.variant, "blur=down4")
        XCTAssertEqual(c.missByMs!, 1.5, accuracy: 1e-12)
        XCTAssertEqual(c.eligible, 4)
    }

    func testTiesGoToFasterThenFewerThreads() {
        let rows = [
            Self.row("blur=iir", backend: .openmp, threads: 2, p95: 3, psnr: 35),
            Self.row("blur=iir", backend: .simd, threads: 1, p95: 3, psnr: 35),
            Self.row("blur=iir", backend: .simd, threads: 2, p95: 2.9, psnr: 35),
        ]
        let c = Chooser.choose(Self.front(rows), budgetMs: 10)
        XCTAssertEqual(c.chosen?.p95Ms, 2.9)
        // Equal p95 and quality: fewer threads first.
        XCTAssertEqual(c.runnerUp?.threads, 1)
        XCTAssertEqual(c.runnerUp?.backend, .simd)
        // The same result whatever the rows' order.
        XCTAssertEqual(Chooser.choose(Self.front(rows.reversed()), budgetMs: 10), c)
    }

    func testRoundingTierMakesBackendsRoundingDifferencesNoQualityDifference() {
        // morph: naive rounds differently from simd (107 vs 85 dB), both within 1 level.
        let rows = [
            Self.row("exact", target: "morph", backend: .naive, threads: 1, p95: 3.3, psnr: 107, maxErr: 1),
            Self.row("exact", target: "morph", backend: .simd, threads: 1, p95: 0.25, psnr: 85, maxErr: 1),
            Self.row("fill=ss4", target: "morph", backend: .simd, threads: 1, p95: 0.2, psnr: 51, maxErr: 55),
        ]
        let f = Self.front(rows)
        let c = Chooser.choose(f, budgetMs: 4)
        XCTAssertEqual(c.chosen?.backend, .simd)
        XCTAssertEqual(c.chosen?.variant, "exact")
        XCTAssertEqual(f.front.map { $0.variant }, ["fill=ss4", "exact"], "naive is dominated by simd at equal quality")
    }

    func testMissingRowsAreSkipped() {
        var rows = Self.aurora
        rows.append(Self.row("blur=iir", scale: 0.5, p95: nil, psnr: nil))               // no time
        rows.append(Self.row("layer=quarter", p95: 1, psnr: 50, status: .error))         // failed
        rows.append(Self.row("layer=half", p95: 1, psnr: 50, status: .unsupported))
        rows.append(Self.row("exact", p95: 0.1, psnr: 99, sweep: .size))                 // sweep row
        rows.append(Self.row("exact", p95: .nan, psnr: 99))                               // broken time
        let f = Self.front(rows)
        XCTAssertEqual(f.options.count, 4)
        XCTAssertEqual(Chooser.choose(f, budgetMs: 4).chosen?.variant, "blur=iir")
        // No usable row at all: no front.
        XCTAssertTrue(QualityFront.fronts(from: [Self.row("exact", p95: 1, psnr: 40, status: .error)]).isEmpty)
    }

    func testMinPSNRDropsVariantsBelowTheFloorAndUnknownQuality() {
        var rows = Self.aurora
        rows.append(Self.row("layer=quarter", p95: 0.5, psnr: nil))
        let f = Self.front(rows)
        let c = Chooser.choose(f, budgetMs: 4, minPSNR: 36)
        XCTAssertNil(c.chosen, "iir (35 dB) is below the floor, exact does not fit")
        XCTAssertEqual(c.fastest?.variant, "exact")
        XCTAssertEqual(c.missByMs!, 2.4, accuracy: 1e-12)
        XCTAssertEqual(Chooser.choose(f, budgetMs: 4, minPSNR: 30).runnerUp?.variant, "blur=down4")
        // Without a floor, the unknown-quality option ranks last: chosen only when alone.
        XCTAssertEqual(Chooser.choose(f, budgetMs: 4).chosen?.variant, "blur=iir")
        XCTAssertEqual(Chooser.choose(f, budgetMs: 0.6, headroom: 0).chosen?.variant, "layer=quarter")
        XCTAssertNil(Chooser.choose(f, budgetMs: 0.6, headroom: 0, minPSNR: 1).chosen)
    }

    func testNaNQualityIsNeverChosenNorOnTheFront() {
        var rows = Self.aurora
        rows.append(Self.row("layer=quarter", p95: 0.5, psnr: .nan))
        let f = Self.front(rows)
        XCTAssertTrue(f.options.contains { $0.variant == "layer=quarter" }, "kept as an option, for reports")
        XCTAssertFalse(f.front.contains { $0.variant == "layer=quarter" })
        XCTAssertNotEqual(Chooser.choose(f, budgetMs: 4).chosen?.variant, "layer=quarter")
        let tight = Chooser.choose(f, budgetMs: 1, headroom: 0)
        XCTAssertNil(tight.chosen, "only the NaN option fits")
        XCTAssertEqual(tight.fastest?.variant, "blur=down4")
        let alone = Chooser.choose(Self.front([Self.row("exact", p95: 1, psnr: .nan)]), budgetMs: 10)
        XCTAssertNil(alone.chosen); XCTAssertNil(alone.fastest); XCTAssertEqual(alone.eligible, 0)
    }

    func testThreadsRestrictsOptions() {
        let rows = [Self.row("exact", threads: 2, p95: 3, psnr: 40), Self.row("exact", threads: 1, p95: 5, psnr: 40),
                    Self.row("blur=iir", threads: 1, p95: 2, psnr: 35)]
        let f = Self.front(rows)
        XCTAssertEqual(Chooser.choose(f, budgetMs: 4).chosen?.threads, 2)
        let one = Chooser.choose(f, budgetMs: 4, threads: 1)
        XCTAssertEqual(one.chosen?.variant, "blur=iir")
        XCTAssertLessThanOrEqual(one.runnerUp?.threads ?? 1, 1)
    }

    func testFrontIsParetoAndSortedOnRandomReports() {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var rows: [ReportRow] = []
            for i in 0..<30 {
                let p95 = Double(Int.random(in: 1...20, using: &g)), psnr = Double(Int.random(in: 20...60, using: &g))
                rows.append(Self.row("v\(i)", p95: p95, psnr: psnr))
            }
            let f = Self.front(rows)
            let front = f.front
            let times: [Double] = front.map { $0.p95Ms }
            XCTAssertEqual(times, times.sorted())
            // No front member is dominated by any option ...
            for a in front {
                let dominated = f.options.contains { (b: FrontOption) -> Bool in
                    let asGood = b.p95Ms <= a.p95Ms && b.rankQuality >= a.rankQuality
                    return asGood && (b.p95Ms < a.p95Ms || b.rankQuality > a.rankQuality)
                }
                XCTAssertFalse(dominated)
            }
            // ... and every option off the front is dominated or equal to a member.
            for o in f.options where !front.contains(o) {
                XCTAssertTrue(front.contains { $0.p95Ms <= o.p95Ms && $0.rankQuality >= o.rankQuality })
            }
            // Quality rises strictly along the front.
            XCTAssertEqual(zip(front, front.dropFirst()).filter { $0.rankQuality >= $1.rankQuality }.count, 0)
            // The choice is on the front whenever something fits.
            let c = Chooser.choose(f, budgetMs: 10, headroom: 0)
            if let chosen = c.chosen { XCTAssertTrue(front.contains { $0.p95Ms == chosen.p95Ms && $0.rankQuality == chosen.rankQuality }) }
        }
    }

    func testScaleIsReadFromParamAndFrontsSplitByProfileAndParam() {
        let o = FrontOption(row: Self.row("blur=iir", scale: 0.25, backend: .openmp, p95: 1, psnr: 30))!
        XCTAssertEqual(o.scale, 0.25)
        XCTAssertEqual(o.label, "blur=iir @0.25 openmp t=2")
        XCTAssertEqual(o.variantText, "blur=iir@0.25")
        var blob = Self.row("exact", target: "fill", p95: 1, psnr: 40); blob.parameters = "shape=blob"
        var star = Self.row("exact", target: "fill", p95: 1, psnr: 40); star.parameters = "shape=star"
        let fronts = QualityFront.fronts(from: Self.aurora + [Self.row("exact", p95: 1, psnr: 40, profile: "iphone-11"), blob, star])
        XCTAssertEqual(fronts.map { $0.name }, ["aurora", "aurora", "fill shape=blob", "fill shape=star"])
        XCTAssertEqual(fronts.map { $0.profile }, ["iphone-6", "iphone-11", "iphone-6", "iphone-6"])
    }

    func testLaterReportRowWinsForTheSameOption() {
        let f = Self.front([Self.row("exact", p95: 9, psnr: 40), Self.row("exact", p95: 3, psnr: 40)])
        XCTAssertEqual(f.options.map { $0.p95Ms }, [3])
    }
}
