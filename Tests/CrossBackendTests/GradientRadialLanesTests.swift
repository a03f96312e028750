import CRasterOMP
import RasterKit
import XCTest

/// The folded radial run's pixel steps both threaded backends call
/// (raster_radial_lanes.h) against their scalar rule, lane by lane: a step
/// that breaks is named here, not by a radial image.
final class GradientRadialLanesTests: XCTestCase {
    /// d = sqrt(fma(dx, dx, dy2)), each channel fma(d, k, c) truncated
    /// toward zero and saturated to [0, 255] (alpha c.w itself when flat).
    private func scalar(_ x: Float, _ cx: Float, _ dy2: Float, _ k: SIMD4<Float>, _ c: SIMD4<Float>, flat: Bool) -> UInt32 {
        let dx = x - cx
        let d = dy2.addingProduct(dx, dx).squareRoot()
        func byte(_ v: Float) -> UInt32 { UInt32(min(max(v.rounded(.towardZero), 0), 255)) }
        let a = flat ? byte(c.w) : byte(c.w.addingProduct(d, k.w))
        return byte(c.x.addingProduct(d, k.x)) | byte(c.y.addingProduct(d, k.y)) << 8
            | byte(c.z.addingProduct(d, k.z)) << 16 | a << 24
    }

    /// Both widths match the scalar rule and each other on random runs:
    /// whole-pixel x as the loops make them (also beside and far from the
    /// centre), colours inside [0, 256) as a fold guarantees and outside it
    /// as the lanes past a run's end may be (below 2^31, where the
    /// conversion is defined), flat and sloped alpha.
    func testSixteenAndEightLaneStepsMatchTheScalarRule() {
        var rng = SeededGenerator(seed: 0x5AD1)
        var mismatches = 0
        for trial in 0..<4_000 {
            let cx = Float(rng.uniform(-2_000...3_000)), dy = Float(rng.uniform(-3_000...3_000))
            let dy2 = trial % 9 == 0 ? 0 : dy * dy
            let x0 = Float(Int(rng.uniform(-1...2_000)))
            let wide = trial % 3 == 0
            let k = SIMD4<Float>(Float(rng.uniform(wide ? -5...5 : -0.3...0.3)), Float(rng.uniform(-0.3...0.3)),
                                 Float(rng.uniform(-0.3...0.3)), trial % 2 == 0 ? 0 : Float(rng.uniform(-0.3...0.3)))
            let c = SIMD4<Float>(Float(rng.uniform(wide ? -4_000...4_000 : 0.5...255.5)), Float(rng.uniform(-300...600)),
                                 Float(rng.uniform(0.5...255.5)), Float(rng.uniform(0.5...255.5)))
            let flat: Int32 = k.w == 0 ? 1 : 0
            var xf = SIMD16<Float>()
            for i in 0..<16 { xf[i] = x0 + Float(i) }
            let w16 = raster_radial_folded16(xf, cx, dy2, k, c, flat)
            let lo = raster_radial_folded8(xf.lowHalf, cx, dy2, k, c, flat)
            let hi = raster_radial_folded8(xf.highHalf, cx, dy2, k, c, flat)
            for i in 0..<16 {
                let expected = scalar(xf[i], cx, dy2, k, c, flat: flat == 1)
                if w16[i] != expected || (i < 8 ? lo[i] : hi[i - 8]) != expected { mismatches += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }
}
