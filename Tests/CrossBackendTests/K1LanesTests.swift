import CRasterOMP
import Foundation
import RasterKit
import XCTest

/// K1's quartic fall-off as both threaded backends take it
/// (raster_k1_lanes.h: with AVX-512 a square-root estimate and a Newton
/// step fused with 1 - sqrt, else the square root): within the error its
/// note states of max(0, 1 - sqrt(t))^4 in double, exactly 1 at the least
/// argument (a pixel centre on a point), and lane for lane the same value
/// on 8 and 16 lanes (the simd backend's single vectors and both backends'
/// pairs must draw the same bytes).
final class K1LanesTests: XCTestCase {
    func testQuarticIsWithinItsBoundAndTheSameOnEightAndSixteenLanes() {
        var rng = SeededGenerator(seed: 0x5047)
        // The least t: a row through the point, at the point's column.
        let floor = raster_k1_row_dy2(0)
        let edges: [Float] = [floor, floor.nextUp, 1e-37, 1e-30, 1e-12, 1e-6, 0.25, 0.5, 0.99999994, 1,
                              1.0000001, 2, 3.9999998, 4, 1e6, 1e30, .greatestFiniteMagnitude]
        var worst = 0.0, mismatches = 0
        for trial in 0..<20_000 {
            var t = SIMD16<Float>()
            for k in 0..<16 {
                // K1's t = d^2 / L^2 is mostly in [0, 1] where the weight is
                // not 0; then all magnitudes.
                t[k] = trial < 100 ? edges[(trial + 5 * k) % edges.count]
                    : trial % 2 == 0 ? Float(rng.uniform(0...1.2)) + floor : Float(pow(10, rng.uniform(-37...38)))
            }
            let wide = raster_k1_quartic16(t)
            let low = raster_k1_quartic8(t.lowHalf), high = raster_k1_quartic8(t.highHalf)
            for k in 0..<16 {
                let narrow = k < 8 ? low[k] : high[k - 8]
                if wide[k].bitPattern != narrow.bitPattern { mismatches += 1 }
                let m = max(0, 1 - Double(t[k]).squareRoot()), m2 = m * m
                worst = max(worst, abs(Double(wide[k]) - m2 * m2))
            }
        }
        XCTAssertEqual(floor, .leastNormalMagnitude)
        XCTAssertEqual(raster_k1_quartic16(SIMD16(repeating: floor)), SIMD16(repeating: 1), "a pixel centre on its point")
        XCTAssertEqual(mismatches, 0, "8 and 16 lanes differ")
        // |m| <= 1 where the weight is not 0, so the root's relative error
        // (< 2^-27 and a few roundings) is m's absolute error, and m^4 has
        // at most four times it, plus its own two roundings.
        XCTAssertLessThan(worst, 2e-6, "absolute error \(worst) above the stated bound")
    }
}
