import XCTest
import RasterKit
@testable import RasterHarness

/// What keeps `run --quick` quick and readable: the naive rows that take
/// seconds a frame are known before measuring, the progress line's time
/// left, and the closing summary per scene.
final class QuickRunTests: XCTestCase {
    /// At the default profile the rows marked are exactly the naive ones the
    /// committed full run measured above 300 ms a frame (blur sigma=120 8.4 s,
    /// aurora exact 8.5 s, aurora exact at 1/2 1.1 s); nothing else, on no
    /// other backend.
    func testTheSlowNaiveRowsAreKnownBeforeMeasuring() throws {
        let plan = SuitePlan(profile: .default, backends: BackendKind.allCases, threads: [1, 2],
                             entries: try Suite.select(kernels: nil, scenes: nil))
        let slow = try plan.workloads().filter(\.slowOnNaive).map(\.label).sorted()
        XCTAssertEqual(slow, ["aurora/exact/naive t=1 750x1334", "aurora/exact/naive t=1 750x1334 scale=0.5",
                              "blur/exact/naive t=1 750x1334 sigma=120"])
        // A small frame has no slow row.
        let small = SuitePlan(profile: .default, backends: [.naive], threads: [1],
                              entries: try Suite.select(kernels: nil, scenes: nil), width: 64, height: 64)
        XCTAssertEqual(try small.workloads().filter(\.slowOnNaive).map(\.label), [])
        XCTAssertEqual(NaiveCost.blurTaps(width: 750, height: 1334, sigma: 120), 750 * 1334 * 961 * 2)
    }

    func testTimeLeftIsThePaceSoFar() {
        XCTAssertNil(RunProgress(index: 1, total: 5, label: "", elapsed: 0).remainingSeconds(), "nothing done yet")
        XCTAssertEqual(RunProgress(index: 3, total: 5, label: "", elapsed: 10).remainingSeconds(), 15, "2 rows in 10 s, 3 left")
        XCTAssertEqual(RunProgress(index: 5, total: 5, label: "", elapsed: 8).remainingSeconds(), 2)
    }

    func testTheSummaryNamesWhatFitsTheBestBackendAndTheSpeedUpPerScene() {
        func row(_ variant: String, _ target: String, _ scale: Double, _ backend: BackendKind, _ threads: Int,
                 _ p95: Double, _ psnr: Double, _ maxErr: Double) -> ReportRow {
            ChooserTests.row(variant, target: target, scale: scale, backend: backend, threads: threads, p95: p95, psnr: psnr, maxErr: maxErr)
        }
        let rows = [
            row("exact", "aurora", 1, .naive, 1, 1000, 90, 0), row("exact", "aurora", 1, .simd, 2, 10, 90, 0),
            row("exact", "aurora", 1, .openmp, 2, 20, 90, 0), row("blur=iir", "aurora", 0.5, .openmp, 2, 2, 58, 5),
            row("exact", "liquid", 1, .simd, 2, 1, 90, 0),
            row("exact", "mesh", 1, .simd, 2, 9, 70, 5),
            // The K7 kernel, also called mesh, is no scene.
            { var r = row("exact", "mesh", 1, .simd, 2, 1, 70, 5); r.parameters = "grid=3x3"; return r }(),
        ]
        let lines = RunSummary.scenes(rows, budgetMs: 4, leftOut: [])
        XCTAssertEqual(lines.count, 4, lines.joined(separator: "\n"))
        let aurora = lines.first { $0.contains("aurora") } ?? ""
        XCTAssertTrue(aurora.contains("fits: blur=iir @0.5 openmp t=2") && aurora.contains("58 dB"), aurora)
        XCTAssertTrue(aurora.contains("exact fastest on simd t=2") && aurora.contains("100x naive"), aurora)
        let mesh = lines.first { $0.contains("mesh") } ?? ""
        XCTAssertTrue(mesh.contains("nothing fits: fastest exact simd t=2"), mesh)
        XCTAssertFalse(lines.contains { $0.contains("grid") }, lines.joined(separator: "\n"))
        let quick = RunSummary.scenes(Array(rows.dropFirst()), budgetMs: 4,
                                      leftOut: [Workload(kernel: "aurora", variant: "exact", backend: .naive, threads: 1,
                                                         width: 750, height: 1334) { throw RasterError.unsupported(backend: "naive", kernel: "aurora", variant: "exact") }])
        XCTAssertTrue(quick.contains { $0.contains("aurora") && $0.contains("naive left out by --quick") }, quick.joined(separator: "\n"))
    }
}
