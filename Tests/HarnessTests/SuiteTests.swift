import XCTest
import RasterKit
import RasterHarness

/// The suite's shape and a miniature run: every kernel present, naive run
/// once whatever the thread list, unsupported kernels recorded as rows.
final class SuiteTests: XCTestCase {
    func testEveryKernelAndVariantIsInTheSuite() throws {
        let plan = SuitePlan(profile: .default, backends: BackendKind.allCases, threads: [1, 2],
                             entries: try Suite.select(kernels: nil, scenes: nil))
        let ws = try plan.workloads()
        for v in FreeformVariant.allCases {
            for b in BackendKind.allCases {
                XCTAssertTrue(ws.contains { $0.kernel == "freeform" && $0.variant == v.rawValue && $0.backend == b }, "\(v) \(b)")
            }
        }
        for k in ["linear", "radial", "composite", "blur", "controlpoints"] {
            XCTAssertEqual(Set(ws.filter { $0.kernel == k }.map(\.backend)), Set(BackendKind.allCases), k)
        }
        // naive once (1 thread); the others at 1 and 2.
        XCTAssertEqual(ws.filter { $0.kernel == "composite" && $0.backend == .naive }.map(\.threads), [1])
        XCTAssertEqual(ws.filter { $0.kernel == "composite" && $0.backend == .simd }.map(\.threads), [1, 2])
        XCTAssertEqual(ws.first { $0.kernel == "controlpoints" }?.items, 1_000_000)
        XCTAssertEqual(Set(ws.map(\.label)).count, ws.count, "no workload twice")
        // Nor two rows with one report key (what compare, rounds and choose
        // match on): the K7 kernel and the mesh scene once shared theirs.
        let keys = ws.map(\.key)
        XCTAssertEqual(Set(keys).count, keys.count, "duplicate report keys: \(Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())")
    }

    func testSweepsAddRows() throws {
        let plan = SuitePlan(profile: .default, backends: [.simd], threads: [2],
                             entries: try Suite.select(kernels: ["freeform", "blur", "controlpoints"], scenes: nil),
                             sweeps: [.size, .sigma])
        let ws = try plan.workloads()
        let sizes = ws.filter { $0.sweep == .size }
        XCTAssertEqual(sizes.filter { $0.kernel == "freeform" }.map(\.width), SweepKind.sizes.map(\.0))
        XCTAssertTrue(sizes.allSatisfy { $0.variant == "full" || $0.variant == "exact" }, "sweeps time the exact variant")
        XCTAssertFalse(sizes.contains { $0.kernel == "controlpoints" }, "K5 has no frame size")
        // Every blur variant at every sigma: the O(1) ones stay flat, exact climbs.
        for variant in BlurVariant.allCases {
            XCTAssertEqual(ws.filter { $0.sweep == .sigma && $0.variant == variant.rawValue }.map(\.parameters),
                           SweepKind.sigmas.map { "sigma=\(NumberFormat.decimal($0))" }, variant.rawValue)
        }
    }

    func testUnknownNamesAreErrors() {
        XCTAssertThrowsError(try Suite.select(kernels: ["nope"], scenes: nil)) { e in
            XCTAssertTrue("\(e)".contains("freeform"), "\(e)")
        }
        XCTAssertThrowsError(try SweepKind.parse("size,time"))
        XCTAssertEqual(try SweepKind.parse("all"), Set(SweepKind.allCases))
    }

    func testMiniatureRunRecordsStatusesQualityAndBandwidth() throws {
        let profile = DeviceProfile(name: "tiny", width: 48, height: 40, scale: 1, fps: 60, cores: 2, summary: "test")
        let settings = SamplerSettings(warmupTime: 0, minSamples: 3, minTime: 0, maxTime: 0.05)
        var host = HostInfo.current()
        host.lastLevelCacheBytes = 0 // the smallest DRAM probe (64 MiB): this test is not about bandwidth
        let config = RunConfiguration(profile: profile, budget: try Budget(fps: 60), sampler: settings, host: host)
        var entries = try Suite.select(kernels: ["freeform", "linear", "composite", "controlpoints"], scenes: nil)
        // K5 on a million anchors is not what this test is about: 1,000 will do.
        entries = entries.map { $0.name == "controlpoints" ? Suite.controlPointsEntry(anchors: 1000) : $0 }
        let plan = SuitePlan(profile: profile, backends: BackendKind.allCases, threads: [1, 2], entries: entries)
        let rows = SuiteRunner(config: config).run(try plan.workloads())
        let full = rows.filter { $0.kernel == "freeform" && $0.variant == "full" }
        // naive at 1 + simd at 1, 2 + openmp at 1, 2 (only 1 without OpenMP).
        XCTAssertEqual(full.count, OpenMPBackend.isParallel ? 5 : 4)
        for r in full {
            XCTAssertEqual(r.status, .ok)
            XCTAssertGreaterThanOrEqual(r.samples, 3)
            XCTAssertEqual(r.samplesMs.count, r.samples)
            XCTAssertNotNil(r.psnrDb)
            XCTAssertLessThanOrEqual(r.maxErr!, 1, "K1 exact within the bound of docs/contract.md §3")
            XCTAssertEqual(r.fitsBudget != nil, true)
        }
        XCTAssertNotNil(rows.first { $0.backend == .simd && $0.threads == 2 && $0.kernel == "freeform" }?.speedup)
        let comp = rows.first { $0.kernel == "composite" && $0.backend == .naive }!
        XCTAssertEqual(comp.bytesPerRun, 12 * 48 * 40)
        XCTAssertNotNil(comp.bwFraction)
        XCTAssertEqual(comp.maxErr ?? 99, 0, accuracy: 1)
        for r in rows where r.kernel == "controlpoints" {
            // Unsupported today; whichever it is, the row exists and says so.
            XCTAssertTrue(r.status == .unsupported || r.status == .ok, r.status.rawValue)
            if r.status == .unsupported { XCTAssertTrue(r.note.contains("does not implement"), r.note); XCTAssertNil(r.medianMs) }
        }
        // The whole report survives the CSV (numbers at 6 significant digits,
        // so a second round trip is exact).
        let once = try ReportCSV.parse(ReportCSV.document(rows))
        XCTAssertEqual(once.count, rows.count)
        XCTAssertEqual(once.map(\.key), rows.map(\.key))
        XCTAssertEqual(once.map(\.status), rows.map(\.status))
        for (a, b) in zip(once, rows) where b.isOK {
            XCTAssertEqual(a.medianMs!, b.medianMs!, accuracy: b.medianMs! * 1e-5)
            XCTAssertEqual(a.samplesMs.count, b.samplesMs.count)
        }
        XCTAssertTrue(try ReportCSV.parse(ReportCSV.document(once)) == once, "second round trip is exact")
    }
}
