import XCTest
import RasterKit
@testable import RasterHarness

/// A reference or an output that fails is said in the row, not dropped.
final class QualityFailureTests: XCTestCase {
    struct Boom: Error, CustomStringConvertible { var description: String { "reference exploded" } }

    func testFailingReferenceIsReportedInTheNote() throws {
        let profile = try DeviceProfile.named("iphone-6")
        var sampler = SamplerSettings.quick
        sampler.minSamples = 3
        let config = RunConfiguration(profile: profile, budget: try Budget(fps: 60), sampler: sampler)
        let image = try Image(width: 8, height: 8)
        var w = Workload(kernel: "fake", variant: "exact", backend: .simd, threads: 1, width: 8, height: 8) {
            WorkloadInstance(owning: [image], body: { image.fill(RGBA8(r: 1, g: 2, b: 3, a: 255)) }, output: { image.view })
        }
        w.reference = ReferenceSource(key: "fake") { throw Boom() }
        let runner = SuiteRunner(config: config)
        let row = runner.measure(w)
        XCTAssertEqual(row.status, .ok, "the timing stands")
        XCTAssertNotNil(row.medianMs)
        XCTAssertNil(row.psnrDb)
        XCTAssertTrue(row.note.contains("quality not measured: reference exploded"), row.note)
        // Rounds measure quality after timing: the same report.
        let rows = runner.run([w], rounds: 2, seed: 1)
        XCTAssertTrue(rows[0].note.contains("quality not measured: reference exploded"), rows[0].note)
    }
}
