import XCTest
import RasterKit
import RasterHarness

/// `run --contend`'s busy threads: they start, hold their cores until told
/// to stop, stop, and every row measured meanwhile records how many there were.
final class ContentionTests: XCTestCase {
    func testThreadsStartAndStop() throws {
        let c = try Contention(threads: 3, cores: 2)
        XCTAssertEqual(c.threads, 3)
        XCTAssertLessThanOrEqual(c.pinned, 3)
        c.stop()
        c.stop() // idempotent
        XCTAssertEqual(try Contention(threads: 0).threads, 0)
    }

    func testCountOutsideTheRangeIsRefused() {
        for n in [-1, Contention.maximum + 1] {
            XCTAssertThrowsError(try Contention(threads: n)) { error in
                XCTAssert("\(error)".contains("0...\(Contention.maximum)"), "\(error)")
            }
        }
    }

    func testRowsRecordTheContentionAndTheCSVKeepsIt() throws {
        var builder = RowBuilder(host: .current(), date: "2026-01-01T00:00:00Z", profile: "iphone-6",
                                 budget: try Budget(fps: 60, share: 0.25), verdictWidth: 8, verdictHeight: 8)
        builder.contend = 2
        var row = builder.base(MeasurementKey(kernel: "linear", variant: "exact", backend: .simd, threads: 2, width: 8, height: 8), items: 64)
        row.medianMs = 1; row.p95Ms = 1; row.p99Ms = 1; row.minMs = 1; row.maxMs = 1; row.madMs = 0; row.meanMs = 1
        row.samples = 1; row.samplesMs = [1]
        XCTAssertEqual(row.contend, 2)
        let back = try ReportCSV.parse(ReportCSV.document([row]))
        XCTAssertEqual(back.first?.contend, 2)
        // A report written before the column existed reads as unknown.
        let old = "kernel,variant,backend,threads,width,height,median_ms\nlinear,exact,simd,1,8,8,1.5\n"
        XCTAssertNil(try ReportCSV.parse(old).first?.contend)
    }
}
