import CRasterOMP
import RasterHarness
import RasterKit
import RasterReference
import XCTest

/// K2's `lut` variant: the table builder against the stop rule, the lookup
/// (fixed-point stepping, extend by index) against the table read at each
/// pixel's double-precision u, and the whole variant against the reference.
final class GradientTableTests: XCTestCase {
    /// Random stops, some coinciding, some closer than one table entry.
    func stops(_ rng: inout SeededGenerator) -> [Gradient.Stop] {
        let n = Int(rng.next() % 6) + 2
        var offsets = (0..<n).map { _ in rng.unit() }.sorted()
        if n > 2, rng.next() % 2 == 0 { offsets[1] = offsets[2] }                         // coincident
        if n > 3, rng.next() % 2 == 0 { offsets[3] = min(1, offsets[2] + 0x1p-12) }         // < 1/1024 apart
        return offsets.map { Gradient.Stop(offset: $0, color: rng.color()) }
    }

    /// The colour the stop rule gives at t in [0, 1] (pad: no extend), quantised.
    func ruleWord(_ g: Gradient, _ t: Double) -> SIMD4<Double> {
        Reference.gradientColor(try! Gradient(shape: .linear(start: Point(0, 0), end: Point(1, 0)), stops: g.stops),
                                parameter: t)
    }

    func channels(_ w: UInt32) -> SIMD4<Double> {
        SIMD4((0..<4).map { Double(w >> (8 * UInt32($0)) & 0xFF) })
    }

    func testTableFollowsTheStopRuleAndTheSizeRule() throws {
        var rng = SeededGenerator(seed: 1818)
        for _ in 0..<40 {
            let g = try Gradient(shape: .linear(start: Point(0, 0), end: Point(9, 0)), stops: stops(&rng))
            let table = g.table, n = table.size
            XCTAssert([256, 512, 1024].contains(n))
            XCTAssertEqual(table.words.count, n + 2)
            let steepest = g.ramp.slopes.map { max(abs($0.x), abs($0.y), abs($0.z), abs($0.w)) }.max()!
            // The smallest power of two whose entries change no channel by more than one unit.
            XCTAssert(n == 1024 || steepest <= Float(n), "size \(n) for slope \(steepest)")
            XCTAssert(n == 256 || steepest > Float(n / 2), "size \(n) for slope \(steepest)")
            XCTAssertEqual(table.words[0], g.stops[0].color.rgba8Word)
            XCTAssertEqual(table.words[n + 1], g.stops[g.stops.count - 1].color.rgba8Word)
            for i in 0..<n {
                let want = ruleWord(g, (Double(i) + 0.5) / Double(n))
                let got = channels(table.words[i + 1])
                // Float ramp against the double rule: off by a rounding at most.
                XCTAssert((0..<4).allSatisfy { abs(got[$0] - want[$0]) <= 1 },
                          "entry \(i) of \(n): \(got) vs \(want)")
            }
        }
    }

    /// Every pixel of the simd and openmp lut reads the table entry of its
    /// double-precision u (as the naive backend does), or the neighbouring
    /// entry when u lies on an entry boundary within float precision.
    func testLookupReadsTheEntryOfEachPixel() throws {
        var rng = SeededGenerator(seed: 2718)
        for (w, h) in [(1, 1), (15, 4), (37, 11), (70, 19)] {
            for extend in ExtendMode.allCases {
                let linear = try Gradient(
                    shape: .linear(start: Point(rng.uniform(-20...80), rng.uniform(-20...40)),
                                   end: Point(rng.uniform(-20...80), rng.uniform(-20...40))),
                    stops: stops(&rng), extend: extend)
                let radial = try Gradient(
                    shape: .radial(center: Point(rng.uniform(-10...80), rng.uniform(-10...30)), radius: rng.uniform(0.5...60)),
                    stops: stops(&rng), extend: extend)
                for g in [linear, radial] { try assertLookup(g, w, h) }
            }
        }
    }

    /// The edges of the accepted input range: tiny vectors far away (the
    /// positions do not fit the fixed-point step) and huge ones.
    func testExtremeVectors() throws {
        let s = [Gradient.Stop(offset: 0, color: try Color(hex: "#FF0000")),
                 Gradient.Stop(offset: 0.5, color: try Color(hex: "#00FF00")),
                 Gradient.Stop(offset: 1, color: try Color(hex: "#0000FF80"))]
        for extend in ExtendMode.allCases {
            for shape: Gradient.Shape in [.linear(start: Point(1e6 - 2e-3, -1e6), end: Point(1e6, -1e6)),
                                          .linear(start: Point(-1e6, 1e6), end: Point(1e6, -1e6)),
                                          .linear(start: Point(3, 2), end: Point(3, 2.002)),
                                          .radial(center: Point(-1e6, 1e6), radius: 1e-3),
                                          .radial(center: Point(5, 5), radius: 1e7)] {
                try assertLookup(try Gradient(shape: shape, stops: s, extend: extend), 23, 9)
            }
        }
    }

    func assertLookup(_ g: Gradient, _ w: Int, _ h: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let table = g.table, n = Double(table.size)
        for backend in backendMatrix {
            let image = try paddedImage(width: w, height: h)
            try backend.gradient(g, variant: .lut, into: image.view)
            assertPaddingIntact(image, file: file, line: line)
            var bad = 0
            for y in 0..<h {
                for x in 0..<w {
                    let q = Point(Double(x) + 0.5, Double(y) + 0.5)
                    let u: Double = switch g.shape {
                    case let .linear(s, t): (q - s).dot(t - s) / (t - s).dot(t - s)
                    case let .radial(c, r): (q - c).length / r
                    }
                    // Float radii and folded origins move u by a few ulps of u.
                    let slack = max(1e-3, 4e-7 * abs(u * n)) / n
                    var allowed = [u - slack, u, u + slack].map { table.word(at: $0, extend: g.extend) }
                    // Radial positions are held at the cap (no fraction left in a float there).
                    let cap = Double(RASTER_GRADIENT_LUT_RADIAL_CAP)
                    if case .radial = g.shape, u * n >= cap * (1 - 1e-6) {
                        allowed.append(table.word(at: cap / n, extend: g.extend))
                    }
                    if !allowed.contains(word(image, x, y)) { bad += 1 }
                }
            }
            XCTAssertEqual(bad, 0, "\(g.shape) \(g.extend) \(w)x\(h) on \(label(backend))", file: file, line: line)
        }
    }

    /// The suite's fixtures at odd sizes: PSNR against the reference, and
    /// 1, 2 and 7 threads byte-identical.
    func testFixturesAgainstTheReference() throws {
        for (w, h) in [(151, 267), (75, 133)] {
            for g in [try Fixtures.linear(width: w, height: h), try Fixtures.radial(width: w, height: h)] {
                let reference = Reference.gradient(g, width: w, height: h)
                for kind in BackendKind.allCases {
                    let one = try Image(width: w, height: h)
                    try kind.make(threads: 1).gradient(g, variant: .lut, into: one.view)
                    let d = ImageDiff(one.view, reference: reference)
                    XCTAssertGreaterThanOrEqual(d.psnr, 50, "\(g.shape) \(w)x\(h) \(kind): \(d)")
                    XCTAssertLessThanOrEqual(d.maxError, 2, "\(g.shape) \(w)x\(h) \(kind): \(d)")
                    guard kind != .naive else { continue }
                    for threads in [2, 7] {
                        let many = try Image(width: w, height: h)
                        try kind.make(threads: threads).gradient(g, variant: .lut, into: many.view)
                        XCTAssertEqual(ImageDiff(one.view, many.view).maxError, 0, "\(kind)@\(threads)")
                    }
                }
            }
        }
    }

    /// A zero-length vector or radius paints the last stop, as the exact
    /// variant does.
    func testDegenerateGeometryPaintsLastStop() throws {
        let stops = [Gradient.Stop(offset: 0, color: try Color(hex: "#FF0000")),
                     Gradient.Stop(offset: 1, color: try Color(hex: "#0000FF80"))]
        for shape in [Gradient.Shape.linear(start: Point(3, 3), end: Point(3, 3)), .radial(center: Point(1, 1), radius: 0)] {
            let g = try Gradient(shape: shape, stops: stops)
            for backend in backendMatrix {
                let image = try paddedImage(width: 9, height: 4)
                try backend.gradient(g, variant: .lut, into: image.view)
                XCTAssert((0..<4).allSatisfy { y in (0..<9).allSatisfy { image[$0, y] == stops[1].color.rgba8 } },
                          "\(shape) on \(label(backend))")
                assertPaddingIntact(image)
            }
        }
    }
}

private extension Color {
    /// The colour as the table stores it: one little-endian RGBA8 word.
    var rgba8Word: UInt32 {
        let p = rgba8
        return UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16 | UInt32(p.a) << 24
    }
}

private func word(_ image: Image, _ x: Int, _ y: Int) -> UInt32 {
    UnsafeRawPointer(image.view.row(y) + 4 * x).loadUnaligned(as: UInt32.self)
}
