import CRasterOMP
import Foundation
import RasterKit
import XCTest

/// K1's square root as both threaded backends take it (raster_k1_lanes.h:
/// with AVX-512 an estimate and a Newton step, else the square root):
/// within the relative error its note states, exact at 0, and lane for
/// lane the same value on 8 and 16 lanes (the simd backend's single
/// vectors and both backends' pairs must draw the same bytes).
final class K1LanesTests: XCTestCase {
    func testSquareRootIsWithinItsBoundAndTheSameOnEightAndSixteenLanes() {
        var rng = SeededGenerator(seed: 0x5047)
        let edges: [Float] = [0, -0.0, .leastNonzeroMagnitude, 1e-40, .leastNormalMagnitude, 1e-30, 1e-12, 1e-6,
                              0.25, 0.5, 0.99999994, 1, 1.0000001, 2, 3.9999998, 4, 1e6, 1e30, .greatestFiniteMagnitude]
        var worst = 0.0, mismatches = 0, misses = 0
        for trial in 0..<20_000 {
            var v = SIMD16<Float>()
            for k in 0..<16 {
                // K1's t = d^2 / L^2 is mostly in [0, 4]; then all magnitudes.
                v[k] = trial < 100 ? edges[(trial + 5 * k) % edges.count]
                    : trial % 2 == 0 ? Float(rng.uniform(0...4)) : Float(pow(10, rng.uniform(-37...38)))
            }
            let wide = raster_k1_sqrt16(v)
            let low = raster_k1_sqrt8(v.lowHalf), high = raster_k1_sqrt8(v.highHalf)
            for k in 0..<16 {
                let narrow = k < 8 ? low[k] : high[k - 8]
                if wide[k].bitPattern != narrow.bitPattern { mismatches += 1 }
                let exact = Double(v[k]).squareRoot()
                if v[k] >= .leastNormalMagnitude {
                    worst = max(worst, abs(Double(wide[k]) - exact) / exact)
                } else if !(abs(Double(wide[k]) - exact) <= Double(Float.leastNormalMagnitude).squareRoot()) {
                    misses += 1 // below the smallest normal: within sqrt(FLT_MIN) of the root
                }
                if v[k] == 0 && wide[k] != 0 { misses += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0, "8 and 16 lanes differ")
        XCTAssertEqual(misses, 0, "a root of zero or of a subnormal is off")
        XCTAssertLessThan(worst, 4e-7, "relative error \(worst) above the stated bound")
    }
}
