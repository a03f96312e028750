@testable import RasterKit
import XCTest

/// The fill's lane helpers (magic-number conversions and roundings written
/// in the forms the compiler vectorises) against plain scalar Swift, lane
/// by lane, at their edges: ties, negatives, 2^22 - 1, -0 and NaN where
/// the helper allows them.
final class FillLanesTests: XCTestCase {
    /// `values` in lanes of 16 (the last vector padded with its first value).
    static func vectors(_ values: [Float]) -> [Float16Lanes] {
        stride(from: 0, to: values.count, by: 16).map { start in
            var v = Float16Lanes()
            for l in 0..<16 { v[l] = values[start + l < values.count ? start + l : start] }
            return v
        }
    }

    func testRoundingTrickRoundsToNearestEvenBelowTwoToThe22() {
        var rng = SeededGenerator(seed: 1)
        let limit: Float = 4_194_303 // 2^22 - 1
        var values: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, limit, -limit,
                               limit - 0.5, -(limit - 0.5), 1e-30, -1e-30]
        values += (0..<256).map { _ in Float(rng.unit() * 2 - 1) * limit }
        values += (0..<256).map { _ in Float(rng.unit() * 20 - 10) }
        for v in values {
            XCTAssertEqual(FillRounding.round(v), Int32(v.rounded(.toNearestOrEven)), "FillRounding.round(\(v))")
            XCTAssertEqual(FillFixed.quantise(v / FillFixed.scale), Int32(v.rounded(.toNearestOrEven)), "FillFixed.quantise(\(v) / one)")
        }
        for v in FillLanesTests.vectors(values) {
            let r = FillRounding.round(v), q = FillLanes.quantise(v / FillFixed.scale), u = FillLanes.round(units: v)
            for l in 0..<16 {
                XCTAssertEqual(Int32(bitPattern: r[l]), FillRounding.round(v[l]), "lanes FillRounding.round(\(v[l]))")
                XCTAssertEqual(Int32(bitPattern: q[l]), FillFixed.quantise(v[l] / FillFixed.scale), "lanes quantise(\(v[l]))")
                XCTAssertEqual(u[l], r[l], "lanes round(units: \(v[l]))")
            }
        }
    }

    func testWholeNumberConversions() {
        var rng = SeededGenerator(seed: 2)
        let limit: Float = 4_194_303
        var values: [Float] = [0, 0.25, 0.5, 0.75, 1, 1.5, 2.5, 31.999998, 32, limit - 1, limit - 0.5, limit]
        values += (0..<256).map { _ in Float(rng.unit()) * limit }
        for v in values {
            XCTAssertEqual(Lanes.floorInt(v), Int(v.rounded(.down)), "floorInt(\(v))")
            XCTAssertEqual(Lanes.ceilInt(v), Int(v.rounded(.up)), "ceilInt(\(v))")
        }
        for v in FillLanesTests.vectors(values.map { $0.rounded(.down) }) {
            let i = Lanes.toInt(v), back = Lanes.toFloat(i)
            for l in 0..<16 {
                XCTAssertEqual(i[l], UInt32(v[l]), "toInt(\(v[l]))")
                XCTAssertEqual(back[l], v[l], "toFloat(\(i[l]))")
            }
        }
        // Coverage rounding: half up (ties away from zero) on [0, 255.5).
        for v in FillLanesTests.vectors([0, 0.4999, 0.5, 1.5, 2.5, 127.5, 254.49, 254.5, 255, 255.49] + (0..<64).map { _ in Float(rng.unit() * 255.4) }) {
            let r = FillLanes.round(v)
            for l in 0..<16 { XCTAssertEqual(r[l], UInt32((v[l] + 0.5).rounded(.down)), "round(\(v[l]))") }
            let m8 = FillPainter.coverage8(FillPainter.biased8(v / 255.5))
            for l in 0..<16 {
                // One rounding of the exact product (a fused multiply-add), as Double computes it.
                let m = Double(v[l] / 255.5)
                XCTAssertEqual(m8[l], UInt32((m * 255).rounded(.toNearestOrEven)), "coverage8(\(m))")
            }
        }
    }

    func testMinimumMaximumMagnitudeAndAllEqual() {
        var rng = SeededGenerator(seed: 3)
        let special: [Float] = [0, -0.0, 1, -1, .infinity, -.infinity, .greatestFiniteMagnitude, -.leastNonzeroMagnitude]
        let a = FillLanesTests.vectors(special + (0..<56).map { _ in Float(rng.unit() * 2e6 - 1e6) })
        let b = FillLanesTests.vectors((0..<64).map { _ in Float(rng.unit() * 2e6 - 1e6) })
        for (x, y) in zip(a, b) {
            let lo = Lanes.minimum(x, y), hi = Lanes.maximum(x, y), m = Lanes.magnitude(x)
            for l in 0..<16 {
                XCTAssertEqual(lo[l], Swift.min(x[l], y[l]), "minimum(\(x[l]), \(y[l]))")
                XCTAssertEqual(hi[l], Swift.max(x[l], y[l]), "maximum(\(x[l]), \(y[l]))")
                XCTAssertEqual(m[l].bitPattern, abs(x[l]).bitPattern, "magnitude(\(x[l]))")
            }
        }
        XCTAssertTrue(Lanes.magnitude(Float16Lanes(repeating: -.nan))[0].isNaN, "magnitude(NaN) stays NaN")
        for l in 0..<16 {
            var v = Float16Lanes(repeating: 3)
            XCTAssertTrue(Lanes.allEqual(v, 3))
            v[l] = -0.0
            XCTAssertFalse(Lanes.allEqual(v, 3), "allEqual misses lane \(l)")
            XCTAssertFalse(Lanes.allEqual(Float16Lanes(repeating: 0), -0.0), "allEqual compares bit patterns")
        }
    }
}
