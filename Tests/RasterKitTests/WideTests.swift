@testable import RasterKit
import XCTest

/// The 8-lane helpers in `Wide/Lanes.swift` against plain scalar Swift,
/// lane by lane, at their edges: ties, negatives, -0, 2^22 - 1, infinities
/// and NaN where the helper allows it. (The 16-lane helpers are held by
/// `FillLanesTests`.)
final class WideTests: XCTestCase {
    /// `values` in lanes of 8 (the last vector padded with its first value).
    static func vectors(_ values: [Float]) -> [FloatLanes] {
        stride(from: 0, to: values.count, by: 8).map { start in
            var v = FloatLanes()
            for l in 0..<8 { v[l] = values[start + l < values.count ? start + l : start] }
            return v
        }
    }

    static let edges: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999997, 0.50000006, 127.5, 254.49998, 254.5,
                                 255, 255.49998, 255.5, 256, 4_194_303, -4_194_303, 1e-30, -1e-30, 1e30, -1e30,
                                 .infinity, -.infinity, .greatestFiniteMagnitude, -.leastNonzeroMagnitude]

    static func samples(seed: UInt64) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        return edges + (0..<128).map { _ in Float(rng.unit() * 300 - 20) } + (0..<32).map { _ in Float(rng.unit() * 2 - 1) * 4_194_303 }
    }

    func testRampsCountTheLanes() {
        for l in 0..<Lanes.width { XCTAssertEqual(Lanes.ramp[l], Float(l)) }
        for l in 0..<16 { XCTAssertEqual(Lanes.ramp16[l], Float(l)) }
    }

    /// docs/contract.md §1: clamp to [0, 255], then floor(v + 0.5) in Float.
    func testQuantizeIsClampedHalfUpRounding() {
        for v in WideTests.vectors(WideTests.samples(seed: 11)) {
            let q = Lanes.quantize(v)
            for l in 0..<8 {
                let c = Swift.min(Swift.max(v[l], 0), 255)
                XCTAssertEqual(q[l], UInt32((c + 0.5).rounded(.down)), "quantize(\(v[l]))")
            }
        }
    }

    func testClampPositivePartAndMinimumAreCompareAndSelect() {
        let values = WideTests.samples(seed: 12) + [.nan, -.nan, .signalingNaN]
        for v in WideTests.vectors(values) {
            let c = Lanes.clamp(v, -1, 255), p = Lanes.positivePart(v), m = Lanes.minimum(v, 255)
            for l in 0..<8 {
                let x = v[l]
                // A NaN fails both compares and passes through, bit for bit.
                XCTAssertEqual(c[l].bitPattern, (x < -1 ? -1 : x > 255 ? 255 : x).bitPattern, "clamp(\(x))")
                XCTAssertEqual(p[l].bitPattern, (x < 0 ? 0 : x).bitPattern, "positivePart(\(x))")
                XCTAssertEqual(m[l].bitPattern, (x > 255 ? 255 : x).bitPattern, "minimum(\(x), 255)")
                if !x.isNaN {
                    XCTAssertEqual(c[l], Swift.min(Swift.max(x, -1), 255), "clamp(\(x)) as min/max")
                    XCTAssertEqual(p[l], Swift.max(x, 0), "positivePart(\(x)) as max")
                    XCTAssertEqual(m[l], Swift.min(x, 255), "minimum(\(x)) as min")
                }
            }
        }
    }

    func testToFloatIsExactBelowTwoToThe23() {
        var rng = SeededGenerator(seed: 13)
        let values: [UInt32] = [0, 1, 2, 255, 256, 65535, 4_194_303, 4_194_304, 8_388_607] + (0..<64).map { _ in UInt32(rng.next() % 8_388_608) }
        for start in stride(from: 0, to: values.count, by: 8) {
            var w = WordLanes()
            for l in 0..<8 { w[l] = values[Swift.min(start + l, values.count - 1)] }
            let f = Lanes.toFloat(w)
            for l in 0..<8 { XCTAssertEqual(f[l], Float(w[l]), "toFloat(\(w[l]))") }
        }
    }

    func testPackStoreAndLoadRoundTripEveryCount() {
        let lanes = WideTests.vectors(WideTests.samples(seed: 14))
        for (i, r) in lanes.enumerated() {
            let g = lanes[(i + 1) % lanes.count], b = lanes[(i + 2) % lanes.count], a = lanes[(i + 3) % lanes.count]
            let words = Lanes.packRGBA8(r, g, b, a)
            let qr = Lanes.quantize(r), qg = Lanes.quantize(g), qb = Lanes.quantize(b), qa = Lanes.quantize(a)
            for l in 0..<8 { XCTAssertEqual(words[l], qr[l] | qg[l] << 8 | qb[l] << 16 | qa[l] << 24, "packRGBA8 lane \(l)") }
            for count in 1...Lanes.width {
                // One guard word after the stored ones: store writes exactly `count` pixels.
                var bytes = [UInt8](repeating: 0xA5, count: 4 * (Lanes.width + 1))
                let loaded = bytes.withUnsafeMutableBufferPointer { p -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) in
                    Lanes.store(words, to: p.baseAddress!, count: count)
                    return Lanes.load(p.baseAddress!, count: count)
                }
                XCTAssertEqual(Array(bytes[(4 * count)...]), [UInt8](repeating: 0xA5, count: bytes.count - 4 * count), "store count \(count)")
                for l in 0..<8 {
                    let expect = l < count ? (qr[l], qg[l], qb[l], qa[l]) : (0, 0, 0, 0)
                    XCTAssertEqual(loaded.0[l], Float(expect.0), "load r lane \(l) of \(count)")
                    XCTAssertEqual(loaded.1[l], Float(expect.1), "load g lane \(l) of \(count)")
                    XCTAssertEqual(loaded.2[l], Float(expect.2), "load b lane \(l) of \(count)")
                    XCTAssertEqual(loaded.3[l], Float(expect.3), "load a lane \(l) of \(count)")
                }
            }
        }
    }
}
