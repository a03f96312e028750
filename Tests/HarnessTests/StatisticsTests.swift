import XCTest
import RasterHarness

/// Known samples -> known statistics. Expected values come from NumPy
/// (`np.percentile`, default linear = type 7) and SciPy
/// (`scipy.stats.mannwhitneyu`), computed once and pasted here.
final class StatisticsTests: XCTestCase {
    static let skewed: [Double] = [3.1, 1.2, 9.9, 4.4, 5.0, 2.7, 8.3, 6.6, 7.2, 100.0]

    func testPercentilesAreType7() {
        let sorted = StatisticsTests.skewed.sorted()
        XCTAssertEqual(Summary.percentile(sorted: sorted, 0), 1.2, accuracy: 1e-12)
        XCTAssertEqual(Summary.percentile(sorted: sorted, 0.25), 3.425, accuracy: 1e-12)
        XCTAssertEqual(Summary.percentile(sorted: sorted, 0.5), 5.8, accuracy: 1e-12)
        XCTAssertEqual(Summary.percentile(sorted: sorted, 0.95), 59.455, accuracy: 1e-9)
        XCTAssertEqual(Summary.percentile(sorted: sorted, 0.99), 91.891, accuracy: 1e-9)
        XCTAssertEqual(Summary.percentile(sorted: sorted, 1), 100, accuracy: 1e-12)
    }

    func testSummaryOfSkewedSamples() {
        let s = Summary(StatisticsTests.skewed)
        XCTAssertEqual(s.count, 10)
        XCTAssertEqual(s.min, 1.2)
        XCTAssertEqual(s.max, 100)
        XCTAssertEqual(s.median, 5.8, accuracy: 1e-12)
        XCTAssertEqual(s.mean, 14.84, accuracy: 1e-12)
        XCTAssertEqual(s.mad, 2.6, accuracy: 1e-12, "unscaled MAD")
        XCTAssertEqual(s.outliers, 1, "100 is outside Tukey's fences")
        // Robustness: the wild sample moves the mean by 6x but the median and MAD barely.
        let clean = Summary(Array(StatisticsTests.skewed.dropLast()) + [10.0])
        XCTAssertEqual(clean.median, s.median, accuracy: 1e-12)
        XCTAssertEqual(clean.mad, s.mad, accuracy: 1e-12)
    }

    func testSingleSampleAndOrderIndependence() {
        let one = Summary([4.2])
        XCTAssertEqual(one.median, 4.2); XCTAssertEqual(one.p99, 4.2); XCTAssertEqual(one.mad, 0)
        XCTAssertEqual(Summary([1, 2, 3, 4]), Summary([4, 2, 1, 3]))
        let even = Summary([1, 2, 3, 4])
        XCTAssertEqual(even.median, 2.5)
        XCTAssertEqual(even.p95, 3.85, accuracy: 1e-12)
    }

    func testScaledKeepsCountsAndScalesTimes() {
        let ms = Summary([1_000_000, 2_000_000, 3_000_000]).scaled(by: 1e-6)
        XCTAssertEqual(ms.median, 2, accuracy: 1e-12)
        XCTAssertEqual(ms.mad, 1, accuracy: 1e-12)
        XCTAssertEqual(ms.count, 3)
    }

    func testGeometricMean() {
        XCTAssertEqual(geometricMean([2, 8])!, 4, accuracy: 1e-12)
        XCTAssertEqual(geometricMean([0.5, 2])!, 1, accuracy: 1e-12)
        XCTAssertNil(geometricMean([]))
        XCTAssertNil(geometricMean([1, 0]))
    }

    // MARK: Mann-Whitney U

    func testMannWhitneyExactSeparated() {
        let a = [1.83, 2.01, 1.95, 1.88, 1.90, 1.97, 2.05, 1.86]
        let b = [2.10, 2.25, 2.19, 2.31, 2.08, 2.22, 2.15, 2.28]
        let u = MannWhitney(a, b)
        XCTAssertTrue(u.exact)
        XCTAssertEqual(u.u, 0)
        XCTAssertEqual(u.pValue, 0.0001554001554001554, accuracy: 1e-12)
        XCTAssertEqual(MannWhitney(b, a).pValue, u.pValue, accuracy: 1e-15, "two-sided: symmetric")
    }

    func testMannWhitneyExactInterleaved() {
        let u = MannWhitney([1.0, 1.1, 1.2, 1.3, 1.4], [1.05, 1.15, 1.25, 1.35, 1.45])
        XCTAssertTrue(u.exact)
        XCTAssertEqual(u.u, 10)
        XCTAssertEqual(u.pValue, 0.6904761904761905, accuracy: 1e-12)
    }

    func testMannWhitneyTiesUseCorrectedNormalApproximation() {
        let u = MannWhitney([1, 2, 2, 3, 3, 3, 4, 5], [3, 4, 4, 5, 5, 6, 6, 7, 7])
        XCTAssertFalse(u.exact)
        XCTAssertEqual(u.u, 7.5)
        XCTAssertEqual(u.pValue, 0.006340074742489072, accuracy: 1e-9)
    }

    func testMannWhitneyLargeSamples() {
        let u = MannWhitney(StatisticsTests.large1, StatisticsTests.large2)
        XCTAssertFalse(u.exact)
        XCTAssertEqual(u.u, 1457)
        XCTAssertEqual(u.pValue, 0.0026947664651475103, accuracy: 1e-9)
    }

    func testMannWhitneyAllEqualIsNotSignificant() {
        let u = MannWhitney([5, 5, 5, 5], [5, 5, 5, 5])
        XCTAssertEqual(u.pValue, 1)
    }

    func testExactDistributionSumsToOne() {
        XCTAssertEqual(MannWhitney.exactCDF(6, 7, atMost: 42), 1, accuracy: 1e-12)
        // P(U <= 0) = 1 / C(m+n, m)
        XCTAssertEqual(MannWhitney.exactCDF(3, 3, atMost: 0), 1.0 / 20, accuracy: 1e-15)
    }

    // MARK: sweeps

    func testLogLogSlope() {
        let linear = [(x: 1.0, y: 3.0), (x: 2, y: 6), (x: 4, y: 12), (x: 8, y: 24)]
        XCTAssertEqual(SweepAnalysis.logLogSlope(linear)!, 1, accuracy: 1e-12)
        let flat = [(x: 1.0, y: 5.0), (x: 16, y: 5), (x: 256, y: 5)]
        XCTAssertEqual(SweepAnalysis.logLogSlope(flat)!, 0, accuracy: 1e-12)
        XCTAssertNil(SweepAnalysis.logLogSlope([(x: 1, y: 1)]))
    }
    static let large1: [Double] = [10.3456, 10.8216, 10.3304, 8.6968, 10.9054, 10.4464, 9.463, 10.5811, 10.3646, 10.2941, 10.0284, 10.5467, 9.2635, 9.8371, 9.5179, 10.5988, 10.0397, 9.7075, 9.2181, 9.7428, 10.0081, 9.7244, 11.2941, 11.0067, 7.2888, 8.111, 9.8252, 9.5778, 10.2136, 10.2173, 12.1178, 8.888, 9.6224, 12.0428, 10.6467, 10.6631, 9.486, 8.3519, 10.1675, 10.109, 8.7726, 9.3168, 9.928, 9.0552, 9.9017, 10.0955, 10.0356, 9.4937, 10.5937, 10.8912, 10.3208, 9.1818, 10.7317, 9.4986, 10.8792, 8.9282, 10.9145, 9.9799, 8.7513, 9.6861]
    static let large2: [Double] = [10.5541, 10.7728, 9.5178, 9.3926, 10.6996, 10.0333, 10.7355, 11.2595, 8.8512, 10.7544, 11.7246, 10.2025, 9.6892, 11.2522, 10.7534, 11.3959, 10.1548, 9.0182, 10.39, 10.0542, 11.2753, 10.6936, 8.8692, 9.3048, 11.3838, 11.1798, 9.8598, 10.499, 10.9456, 10.9684, 11.3762, 10.7565, 10.4052, 10.2412, 11.5557, 8.2491, 10.3613, 10.533, 9.0747, 10.8328, 9.8487, 11.3624, 10.3744, 11.1692, 11.7188, 10.8829, 9.6243, 8.9857, 12.2534, 10.3887, 9.8114, 10.6443, 10.3086, 11.3521, 10.5339, 10.5137, 9.7854, 10.9696, 9.4661, 11.1659, 12.0239, 8.9753, 8.0338, 11.1169, 13.0479, 9.4991, 9.2493, 11.089, 9.6593, 9.994]
}
