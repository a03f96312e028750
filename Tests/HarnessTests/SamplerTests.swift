import XCTest
import RasterKit
import RasterHarness

final class SamplerTests: XCTestCase {
    static let tiny = SamplerSettings(warmupTime: 0.001, minSamples: 7, minTime: 0.005, maxTime: 0.5)

    func testReachesMinimumCountAndTime() throws {
        var calls = 0
        let s = try Sampler.measure(SamplerTests.tiny) { calls += 1 }
        XCTAssertGreaterThanOrEqual(s.nanoseconds.count, 7)
        XCTAssertGreaterThan(s.batch, 1, "a near-empty body is batched to last >= 50 us per sample")
        XCTAssertEqual(calls, s.warmupRuns + s.batch * s.nanoseconds.count)
        XCTAssertGreaterThanOrEqual(s.elapsed, 0.005)
    }

    func testSlowBodyStopsAtMaxTimeButKeepsAFloorOfSamples() throws {
        let settings = SamplerSettings(warmupTime: 0, minSamples: 100, minTime: 10, maxTime: 0.02)
        let s = try Sampler.measure(settings) { usleep(5_000) }
        XCTAssertEqual(s.batch, 1)
        XCTAssertGreaterThanOrEqual(s.nanoseconds.count, SamplerSettings.standard.floorSamples)
        XCTAssertLessThan(s.nanoseconds.count, 100)
        XCTAssertGreaterThan(s.summary.median, 4e6, "per-iteration nanoseconds")
    }

    func testFullStorageFoldsSamplesIntoLargerBatches() throws {
        let settings = SamplerSettings(warmupTime: 0, minSamples: 4, minTime: 0.02, maxTime: 1,
                                       minSampleTime: 1e-6, maxSamples: 8)
        var x = 0
        let s = try Sampler.measure(settings) { for _ in 0..<100 { x &+= 1 } }
        XCTAssertLessThanOrEqual(s.nanoseconds.count, 8)
        XCTAssertGreaterThanOrEqual(s.nanoseconds.count, 4)
        XCTAssertGreaterThanOrEqual(s.elapsed, 0.02, "minimum time honoured despite the small storage")
        XCTAssertTrue(s.nanoseconds.allSatisfy { $0 > 0 && $0 < 1e6 }, "per-iteration times: \(s.nanoseconds)")
    }

    func testErrorsFromTheBodyPropagate() {
        XCTAssertThrowsError(try Sampler.measure(SamplerTests.tiny) {
            throw RasterError.unsupported(backend: "x", kernel: "k", variant: "v")
        })
    }

    func testClockIsMonotonicAndFine() {
        let a = MonotonicClock.now(), b = MonotonicClock.now()
        XCTAssertGreaterThanOrEqual(b, a)
        XCTAssertLessThanOrEqual(MonotonicClock.resolutionNanoseconds, 1_000)
    }

    func testBandwidthProbeMeasuresSomething() throws {
        let r = try BandwidthProbe.measure(label: "frame", bytes: 1 << 20, threads: 2, settings: SamplerTests.tiny)
        XCTAssertEqual(r.bytes, 1 << 20)
        XCTAssertGreaterThan(r.bytesPerSecond, 1e8)
        XCTAssertEqual(BandwidthProbe.dramBytes(lastLevelCache: 0), 64 << 20)
        XCTAssertEqual(BandwidthProbe.dramBytes(lastLevelCache: 300 << 20), 600 << 20)
        XCTAssertEqual(BandwidthProbe.dramBytes(lastLevelCache: 4 << 30), 1 << 30)
    }
}

#if canImport(Glibc)
import Glibc
#endif
