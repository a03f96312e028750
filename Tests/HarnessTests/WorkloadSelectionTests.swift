import XCTest
import RasterKit
import RasterHarness

/// How `run` narrows the suite: by variant, by label text, and `--quick`'s
/// leaving out of the slow naive rows.
final class WorkloadSelectionTests: XCTestCase {
    private func workload(_ kernel: String, _ variant: String, _ backend: BackendKind, slow: Bool = false) -> Workload {
        var w = Workload(kernel: kernel, variant: variant, backend: backend, threads: 1, width: 8, height: 8) {
            WorkloadInstance(owning: [], body: {})
        }
        w.slowOnNaive = slow
        return w
    }

    func testVariantsAndFilterNarrowAndTyposAreErrors() throws {
        let ws = [workload("blur", "exact", .naive), workload("blur", "iir", .simd), workload("fill", "exact", .simd)]
        XCTAssertEqual(try WorkloadSelection.select(ws, variants: nil, filter: nil).map(\.label), ws.map(\.label))
        XCTAssertEqual(try WorkloadSelection.select(ws, variants: ["exact"], filter: nil).map(\.kernel), ["blur", "fill"])
        XCTAssertEqual(try WorkloadSelection.select(ws, variants: ["exact"], filter: "simd").map(\.kernel), ["fill"])
        XCTAssertThrowsError(try WorkloadSelection.select(ws, variants: ["exakt"], filter: nil)) { error in
            XCTAssertEqual("\(error)", "\(HarnessError.invalidArgument(name: "variants", value: "'exakt'", accepted: "exact, iir"))")
        }
        XCTAssertThrowsError(try WorkloadSelection.select(ws, variants: ["iir"], filter: "fill")) { error in
            guard case let .invalidArgument(name, _, _)? = error as? HarnessError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "filter")
        }
    }

    func testQuickLeavesOutSlowNaiveRowsUnlessNothingElseIsSelected() {
        let ws = [workload("blur", "exact", .naive, slow: true), workload("blur", "exact", .simd), workload("aurora", "exact", .naive, slow: true)]
        let split = WorkloadSelection.quickSplit(ws)
        XCTAssertEqual(split.kept.map(\.label), [ws[1].label])
        XCTAssertEqual(split.leftOut.map(\.label), [ws[0].label, ws[2].label])
        let onlySlow = WorkloadSelection.quickSplit([ws[0], ws[2]])
        XCTAssertEqual(onlySlow.kept.count, 2)
        XCTAssertTrue(onlySlow.leftOut.isEmpty)
    }
}
