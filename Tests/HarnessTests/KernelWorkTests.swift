import XCTest
import RasterKit
@testable import RasterHarness

/// The work model behind `limit_ms`: its stages (the interior count, the
/// job walk) against independent counts, the limit against its parts, and,
/// in an optimised build, every kernel's floor under its measured time.
final class KernelWorkTests: XCTestCase {
    func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, reversed: Bool = false, into path: inout Path) {
        let corners = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        for (i, p) in (reversed ? corners.reversed() : corners).enumerated() {
            i == 0 ? path.move(to: p) : path.line(to: p)
        }
        path.close()
    }

    func testInteriorOfRectanglesIsTheirArea() {
        var p = Path()
        square(10, 5, 30, 25, into: &p)
        let r = InteriorCount.count(p, rule: .nonzero, width: 64, height: 64)
        XCTAssertEqual(r.pixels, 400)
        XCTAssertEqual(r.edgeRows, 40, "two vertical edges of 20 rows; horizontal ones cross none")
        // Half off the canvas: only the visible part, and rows clipped too.
        var q = Path()
        square(-10, -10, 10, 10, into: &q)
        let c = InteriorCount.count(q, rule: .nonzero, width: 64, height: 64)
        XCTAssertEqual(c.pixels, 100)
        XCTAssertEqual(c.edgeRows, 20)
        // Centres decide: of 0.5, 1.5, 2.5 only 1.5 lies in [0.6, 2.4).
        var t = Path()
        square(0.6, 0, 2.4, 1, into: &t)
        XCTAssertEqual(InteriorCount.count(t, rule: .nonzero, width: 4, height: 1).pixels, 1)
    }

    func testRulesOnOverlappingSquares() {
        var same = Path()
        square(0, 0, 20, 20, into: &same)
        square(10, 10, 30, 30, into: &same)
        XCTAssertEqual(InteriorCount.count(same, rule: .nonzero, width: 40, height: 40).pixels, 700)
        XCTAssertEqual(InteriorCount.count(same, rule: .evenodd, width: 40, height: 40).pixels, 600)
        // Opposite directions cancel under nonzero where they overlap.
        var opposite = Path()
        square(0, 0, 20, 20, into: &opposite)
        square(10, 10, 30, 30, reversed: true, into: &opposite)
        XCTAssertEqual(InteriorCount.count(opposite, rule: .nonzero, width: 40, height: 40).pixels, 600)
    }

    /// Random polygons against a brute-force point-in-polygon test at
    /// every pixel centre (crossing number / winding number).
    func testInteriorCountMatchesBruteForceOnRandomPolygons() {
        var rng = SeededGenerator(seed: 11)
        for trial in 0..<20 {
            let n = 3 + Int(rng.unit() * 8)
            let points = (0..<n).map { _ in Point(rng.unit() * 50 - 5, rng.unit() * 40 - 5) }
            var path = Path()
            for (i, p) in points.enumerated() { i == 0 ? path.move(to: p) : path.line(to: p) }
            path.close()
            for rule in [FillRule.nonzero, .evenodd] {
                var expected = 0.0
                for y in 0..<32 {
                    for x in 0..<40 {
                        let c = Point(Double(x) + 0.5, Double(y) + 0.5)
                        var winding = 0
                        for i in 0..<n {
                            let a = points[i], b = points[(i + 1) % n]
                            guard (a.y <= c.y) != (b.y <= c.y) else { continue }
                            let xc = a.x + (c.y - a.y) / (b.y - a.y) * (b.x - a.x)
                            if xc <= c.x { winding += b.y > a.y ? 1 : -1 }
                        }
                        if rule == .nonzero ? winding != 0 : winding & 1 != 0 { expected += 1 }
                    }
                }
                XCTAssertEqual(InteriorCount.count(path, rule: rule, width: 40, height: 32).pixels, expected,
                               "trial \(trial) \(rule)")
            }
        }
    }

    func testJobWalkAddsLayersAndTheirComposites() throws {
        let g = try Fixtures.linear(width: 64, height: 32)
        let blur = try GaussianBlur(sigma: 2)
        let job = try Job(width: 64, height: 32, background: Color(straightR: 0, g: 0, b: 0),
                      ops: [.gradient(g), .layer(opacity: 0.5, ops: [.blur(blur)])])
        let prepared = try Renderer(backend: try BackendKind.naive.make(threads: 1)).prepare(job)
        let work = KernelWork.frame(prepared, variants: .exact)
        let expected = KernelWork.clear(width: 64, height: 32) + KernelWork.gradient(g, width: 64, height: 32, over: true)
            + KernelWork.clear(width: 64, height: 32) + KernelWork.blur(blur, variant: .exact, width: 64, height: 32)
            + KernelWork.composite(width: 64, height: 32)
        XCTAssertEqual(work, expected)
    }

    func testExactBlurCountsOnlyTapsInsideTheLine() throws {
        let wide = try GaussianBlur(sigma: 100)   // radius 400 > any line here
        let a = KernelWork.blur(wide, variant: .exact, width: 10, height: 10)
        // Per channel and pass 9 pairs + 10 multiply-adds = 29; two passes, 4 channels, 100 pixels.
        XCTAssertEqual(a.flops, 29 * 2 * 4 * 100)
        XCTAssertEqual(a.bytes, 8 * 100)
    }

    /// The limit is the larger floor (each at its probe's fastest sample)
    /// over the median, and a limit above the fastest sample is said in the
    /// row. The memory floor takes the fastest copy of one frame or of half
    /// a frame (which touches one frame's bytes), at the row's threads or
    /// at one.
    func testLimitIsTheLargerFloorAndAWrongOneIsFlagged() throws {
        let settings = SamplerSettings(warmupTime: 0, minSamples: 3, minTime: 0, maxTime: 0.02)
        let table = BandwidthTable(settings: settings)
        let builder = RowBuilder(host: .current(), date: "d", profile: "", budget: try Budget(fps: 60),
                                 verdictWidth: 0, verdictHeight: 0)
        let key = MeasurementKey(kernel: "k", variant: "v", backend: .simd, threads: 1, width: 64, height: 64)
        let work = WorkFloor(bytes: 4 * 64 * 64, flops: 1e3)
        let samples = Samples(nanoseconds: [1e6, 2e6, 3e6], batch: 1, warmupRuns: 0, elapsed: 0)
        var row = builder.base(key, items: 64 * 64)
        builder.fill(&row, samples: samples, bandwidth: table, work: work)
        let copy = try table.frame(bytes: 4 * 64 * 64, threads: 1), peak = try table.computePeak()
        let half = try table.frame(bytes: 2 * 64 * 64, threads: 1)
        let memory = work.bytes / max(copy.fastestBytesPerSecond, half.fastestBytesPerSecond) * 1e3
        let compute = work.flops / peak.flopsPerSecond * 1e3
        XCTAssertEqual(row.limitMs!, max(memory, compute), accuracy: 1e-12)
        XCTAssertLessThanOrEqual(copy.bytesPerSecond, copy.fastestBytesPerSecond)
        var two = builder.base(MeasurementKey(kernel: "k", variant: "v", backend: .simd, threads: 2, width: 64, height: 64), items: 64 * 64)
        builder.fill(&two, samples: samples, bandwidth: table, work: WorkFloor(bytes: work.bytes, flops: 0))
        let pair = try table.frame(bytes: 4 * 64 * 64, threads: 2), halfPair = try table.frame(bytes: 2 * 64 * 64, threads: 2)
        let fastest = [copy, half, pair, halfPair].map(\.fastestBytesPerSecond).max()!
        XCTAssertEqual(two.limitMs!, work.bytes / fastest * 1e3, accuracy: 1e-12)
        XCTAssertEqual(two.copyGBPerS, pair.gigabytesPerSecond, "the column stays the median copy at the row's threads")
        XCTAssertEqual(row.limitShare!, row.limitMs! / 2, accuracy: 1e-12)
        XCTAssertEqual(row.peakGflops!, peak.gigaflopsPerSecond)
        XCTAssertFalse(row.note.contains("work model is wrong"), row.note)
        XCTAssertTrue(RunTable.floorsAboveTime([row]).isEmpty)
        // A trillion operations in a millisecond: no core does that.
        var wrong = builder.base(key, items: 64 * 64)
        builder.fill(&wrong, samples: samples, bandwidth: table, work: WorkFloor(bytes: 0, flops: 1e15))
        XCTAssertTrue(wrong.note.contains("work model is wrong"), wrong.note)
        XCTAssertEqual(RunTable.floorsAboveTime([wrong]).count, 1)
    }

    /// Every kernel's and scene's floor under its fastest sample, measured.
    /// Only meaningful optimised (a debug build is slow enough for any
    /// floor); the release stage of scripts/test.sh runs it.
    func testNoFloorIsAboveItsMeasuredTime() throws {
        try XCTSkipIf(!BuildInfo.isOptimized, "debug build: its times are far above any floor")
        let profile = DeviceProfile(name: "small", width: 188, height: 334, scale: 0.5, fps: 60, cores: 2, summary: "test")
        let settings = SamplerSettings(warmupTime: 0.01, minSamples: 5, minTime: 0, maxTime: 0.2)
        var host = HostInfo.current()
        host.lastLevelCacheBytes = 0
        var config = RunConfiguration(profile: profile, budget: try Budget(fps: 60), sampler: settings, host: host)
        config.probeDRAM = false
        var entries = Suite.entries.filter { $0.name != "controlpoints" }
        entries.append(Suite.controlPointsEntry(anchors: 10_000))
        let backends = BackendKind.allCases.filter { $0 != .naive }
        let plan = SuitePlan(profile: profile, backends: backends, threads: [1, 2], entries: entries)
        let rows = SuiteRunner(config: config).run(try plan.workloads().filter { !$0.slowOnNaive })
        let measured = rows.filter { $0.isOK && $0.limitMs != nil }
        XCTAssertGreaterThan(measured.count, 20, "rows with a limit")
        XCTAssertEqual(RunTable.floorsAboveTime(rows), [])
    }
}
