import CRasterOMP
import RasterKit
import XCTest

/// The 8-pixel packs both threaded backends share (raster_pack8.h) against
/// their scalar rules, lane by lane, on random values and at the edges:
/// a pack that breaks is named here, not by a kernel's image.
final class Pack8Tests: XCTestCase {
    /// K3's 16-lane store: each channel min(v, its pixel's alpha), clamped
    /// to [0, 255], floor(v + 1/2) as Float computes v + 1/2, on random
    /// values, ties, and values outside [0, 255].
    func testAlphaClampedPackMatchesTheScalarRule() {
        var rng = SeededGenerator(seed: 0xB1A5)
        let edges: [Float] = [-1e9, -300, -0.5, -0.0, 0, 0.49999997, 0.5, 1.5, 127.5, 254.5, 254.99998, 255, 255.5, 256, 1e9]
        var mismatches = 0
        for trial in 0..<20_000 {
            var v = SIMD16<Float>()
            for k in 0..<16 {
                v[k] = trial < 200 ? edges[(trial + 3 * k) % edges.count] : Float(rng.uniform(-40...300))
            }
            let q = raster_pack16_alpha_clamped(v)
            for k in 0..<16 {
                let c = min(max(min(v[k], v[k | 3]), 0), 255)
                if q[k] != UInt8((c + 0.5).rounded(.down)) { mismatches += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// The eight-tap helper gives, lane by lane and bit for bit, the
    /// scalar tap a + (b - a) w (unfused) at random, repeated and edge
    /// indices (the last index reads the spare element after the row).
    func testTapsMatchTheScalarTapBitForBit() {
        var rng = SeededGenerator(seed: 0x7A95)
        let n = 97
        var source = (0...n).map { _ in Float(rng.uniform(-300...600)) }
        source[n] = 0
        var mismatches = 0
        for trial in 0..<5_000 {
            var index = SIMD8<Int32>(), weight = SIMD8<Float>()
            for k in 0..<8 {
                index[k] = trial % 7 == 0 ? Int32(n - 1) : Int32(rng.next() % UInt64(n))
                weight[k] = k == 0 ? 0 : (k == 1 ? 1 : Float(rng.uniform(0...1)))
            }
            let v = source.withUnsafeBufferPointer { raster_taps8($0.baseAddress!, index, weight) }
            for k in 0..<8 {
                let a = source[Int(index[k])], b = source[Int(index[k]) + 1]
                let d = b - a
                let p = d * weight[k]
                if v[k].bitPattern != (a + p).bitPattern { mismatches += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// The up-samplers' gather-free taps (`raster_taps8_near`: two loads
    /// and two permutes from the block's first source column) give
    /// `raster_taps8`'s values bit for bit on the axes the grid variants
    /// use: every downN factor and ratio axes of random sizes (source no
    /// wider than target), each block of eight as the stretch loops take
    /// them, the last column reading the spare element after the row.
    func testNearTapsMatchTheGatheredTapsOnUpsamplingAxes() {
        var rng = SeededGenerator(seed: 0x5EA7)
        var axes: [BilinearAxis] = []
        for factor in [2, 4, 8, 10] {
            for target in [8, 9, 31, 750, 1334] {
                axes.append(BilinearAxis(factor: factor, source: (target + factor - 1) / factor, target: target))
            }
        }
        for _ in 0..<60 {
            let target = 8 + Int(rng.next() % 900)
            axes.append(BilinearAxis(source: 1 + Int(rng.next() % UInt64(target)), target: target))
        }
        axes.append(BilinearAxis(source: 750, target: 750))
        var mismatches = 0, blocks = 0
        for axis in axes {
            var index = [Int32](repeating: 0, count: axis.target), weight = [Float](repeating: 0, count: axis.target)
            index.withUnsafeMutableBufferPointer { i in
                weight.withUnsafeMutableBufferPointer { w in axis.fill(index: i.baseAddress!, weight: w.baseAddress!) }
            }
            XCTAssertEqual(raster_taps8_all_near(index, Int32(axis.target)), 1, "\(axis)")
            // The row, its spare element (0) and RASTER_UPSAMPLE_PAD floats
            // that only unused lanes may read (NaN, so a lane that used one
            // would show).
            var source = (0..<axis.source).map { _ in Float(rng.uniform(-300...600)) }
            source.append(0)
            source += [Float](repeating: .nan, count: Int(RASTER_UPSAMPLE_PAD))
            var x = 0
            while x + 8 <= axis.target {
                let i = SIMD8<Int32>(index[x..<x + 8]), w = SIMD8<Float>(weight[x..<x + 8])
                let (near, gathered) = source.withUnsafeBufferPointer {
                    (raster_taps8_near($0.baseAddress!, index[x], i, w), raster_taps8($0.baseAddress!, i, w))
                }
                for k in 0..<8 where near[k].bitPattern != gathered[k].bitPattern { mismatches += 1 }
                blocks += 1
                x += 8
            }
        }
        XCTAssertGreaterThan(blocks, 1_000)
        XCTAssertEqual(mismatches, 0)
    }

    /// The near test refuses taps that leave a block's eight columns: a
    /// down-sampling axis, and indices that go back.
    func testNearTapsAreRefusedWhereABlockSpansMoreThanEightColumns() {
        let axis = BilinearAxis(source: 300, target: 100)
        var index = [Int32](repeating: 0, count: axis.target), weight = [Float](repeating: 0, count: axis.target)
        index.withUnsafeMutableBufferPointer { i in
            weight.withUnsafeMutableBufferPointer { w in axis.fill(index: i.baseAddress!, weight: w.baseAddress!) }
        }
        XCTAssertEqual(raster_taps8_all_near(index, Int32(axis.target)), 0)
        XCTAssertEqual(raster_taps8_all_near([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], 16), 1)
        XCTAssertEqual(raster_taps8_all_near([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16], 16), 0)
        XCTAssertEqual(raster_taps8_all_near([5, 4, 5, 6, 7, 8, 9, 10], 8), 0)
        // A partial last block is left to the scalar tail.
        XCTAssertEqual(raster_taps8_all_near([0, 1, 2, 3, 4, 5, 6, 7, 100], 9), 1)
    }

    /// Each channel of each pixel lands in its own byte of its own word,
    /// saturated to [0, 255].
    func testIntegerPackSaturatesAndKeepsPixelOrder() {
        var rng = SeededGenerator(seed: 0x9AC8)
        let edges: [Int32] = [.min, -65_536, -32_769, -256, -1, 0, 1, 127, 254, 255, 256, 32_767, 32_768, 65_535, .max]
        var values = edges
        for _ in 0..<20_000 { values.append(Int32(truncatingIfNeeded: rng.next())) }
        for _ in 0..<20_000 { values.append(Int32(rng.next() % 600) - 150) }
        while values.count % 32 != 0 { values.append(7) }
        func byte(_ v: Int32) -> UInt32 { UInt32(min(max(v, 0), 255)) }
        var mismatches = 0
        for i in stride(from: 0, to: values.count, by: 32) {
            var c = [SIMD8<Int32>](repeating: .zero, count: 4)
            for ch in 0..<4 { for k in 0..<8 { c[ch][k] = values[i + 8 * ch + (k * 5 + ch) % 8] } }
            let words = raster_pack8_ints(c[0], c[1], c[2], c[3])
            for k in 0..<8 where words[k] != byte(c[0][k]) | byte(c[1][k]) << 8 | byte(c[2][k]) << 16 | byte(c[3][k]) << 24 {
                mismatches += 1
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// The float pack truncates as raster_truncate_byte does: floor in
    /// [0, 256), the bounds outside (up to 2^31, the pack's documented
    /// range), NaN 0; and raster_quantize is that of v + 1/2, clamp then
    /// round half up.
    func testTruncatingPackMatchesTheScalarRule() {
        var rng = SeededGenerator(seed: 0x7A0C)
        let edges: [Float] = [-1e30, -2.1e9, -256, -1, (-1 as Float).nextUp, -0.5, -0.0, 0, 0.49999997, 0.5, 0.99999994, 1,
                              127.5, 254.99998, 255, 255.99998, 256, 1e6, 2.1e9, -.infinity, .nan]
        var values = edges
        for _ in 0..<40_000 { values.append(Float(rng.uniform(-300...600))) }
        for _ in 0..<20_000 { values.append(Float(Int(rng.next() % 1024)) / 4 - 0.5) } // quarters: exact ties
        while values.count % 32 != 0 { values.append(0.5) }
        func truncated(_ v: Float) -> UInt32 { v.isNaN ? 0 : UInt32(min(max(v, 0), 255).rounded(.towardZero)) }
        var mismatches = 0
        for i in stride(from: 0, to: values.count, by: 32) {
            var c = [SIMD8<Float>](repeating: .zero, count: 4)
            for ch in 0..<4 { for k in 0..<8 { c[ch][k] = values[i + 8 * ch + (k * 3 + ch) % 8] } }
            let words = raster_pack8_truncated(c[0], c[1], c[2], c[3])
            for k in 0..<8 {
                let expected = (0..<4).reduce(UInt32(0)) { $0 | truncated(c[$1][k]) << (8 * UInt32($1)) }
                if words[k] != expected { mismatches += 1 }
                if raster_truncate_byte(c[0][k]) != truncated(c[0][k]) { mismatches += 1 }
                let half = c[1][k].isNaN ? 0 : UInt32(min(max(c[1][k], 0), 255) + 0.5)
                if raster_quantize(c[1][k]) != half { mismatches += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }
    /// The linear runs' fixed-point pack: pixel k from vector k % 4, its
    /// low half for pixels 0-3 and its high half for 4-7, each channel
    /// shifted down by RASTER_GRADIENT_STEP_BITS (arithmetically: stepped
    /// values past a run's end may have wrapped) and saturated.
    func testFixedPointPackTakesPixelsInOrder() {
        let mismatches = Self.fixedPointPackMismatches(pixels: 8, seed: 0x57E9) { p in
            let w = raster_pack8_steps(SIMD8(p[0]), SIMD8(p[1]), SIMD8(p[2]), SIMD8(p[3]))
            return (0..<8).map { w[$0] }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// The 16-pixel form (AVX-512's packs where the host has them): pixel k
    /// from vector k % 4, quarter k / 4, by the same rule.
    func testSixteenPixelFixedPointPackTakesPixelsInOrder() {
        let mismatches = Self.fixedPointPackMismatches(pixels: 16, seed: 0x57EA) { p in
            let w = raster_pack16_steps(SIMD16(p[0]), SIMD16(p[1]), SIMD16(p[2]), SIMD16(p[3]))
            return (0..<16).map { w[$0] }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// Random vectors (mostly in-range levels with a fraction, some any
    /// value) through `pack`, against the scalar rule: pixel k's channel c
    /// is lane 4 (k / 4) + c of vector k % 4, shifted and saturated.
    private static func fixedPointPackMismatches(pixels: Int, seed: UInt64,
                                                 _ pack: ([[Int32]]) -> [UInt32]) -> Int {
        var rng = SeededGenerator(seed: seed)
        let bits = Int32(RASTER_GRADIENT_STEP_BITS)
        var mismatches = 0
        for round in 0..<4_000 {
            let p = (0..<4).map { _ in
                (0..<pixels).map { _ in
                    round % 4 == 0 ? Int32(truncatingIfNeeded: rng.next())
                        : Int32(rng.next() % 300) << bits | Int32(rng.next() % (1 << UInt64(bits))) - (20 << bits)
                }
            }
            let words = pack(p)
            for pixel in 0..<pixels {
                var expected: UInt32 = 0
                for ch in 0..<4 {
                    let level = p[pixel % 4][4 * (pixel / 4) + ch] >> bits
                    expected |= UInt32(min(max(level, 0), 255)) << (8 * UInt32(ch))
                }
                if words[pixel] != expected { mismatches += 1 }
            }
        }
        return mismatches
    }
}
