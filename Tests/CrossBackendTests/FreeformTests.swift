import CRasterOMP
import Foundation
import RasterHarness
import RasterKit
import RasterReference
import XCTest

final class FreeformTests: XCTestCase {
    func randomGradient(_ rng: inout SeededGenerator, width: Int, height: Int) throws -> FreeformGradient {
        let n = Int(rng.next() % 16) + 1
        return try FreeformGradient(
            points: (0..<n).map { _ in
                .init(position: Point(rng.uniform(-0.3...1.3) * Double(width), rng.uniform(-0.3...1.3) * Double(height)),
                      color: rng.color())
            },
            influence: rng.uniform(0.2...1.5) * Double(max(width, height)),
            exponent: rng.unit() < 0.5 ? Double(Int(rng.next() % 8) + 1) : rng.uniform(1...9))
    }

    /// Seeded random gradients (1...16 points, whole and fractional
    /// exponents, points off-canvas) on sizes that hit every vector tail.
    func testRandomGradientsMatchReference() throws {
        var rng = SeededGenerator(seed: 2024)
        for (w, h) in [(1, 1), (17, 3), (33, 9), (64, 5), (95, 31)] {
            let g = try randomGradient(&rng, width: w, height: h)
            let reference = Reference.freeform(g, width: w, height: h)
            for backend in backendMatrix {
                let image = try paddedImage(width: w, height: h)
                try backend.freeform(g, variant: .full, into: image.view, scratch: Scratch())
                assertWithin(.exactGradient, image.view, reference, "\(w)x\(h) \(g.points.count) points e=\(g.exponent) on \(label(backend))")
                assertPaddingIntact(image)
            }
        }
    }

    /// The quartic fall-off (e = 4: the suite's curve) has a step of two
    /// vectors on both threaded backends: widths around it (pairs, a lone
    /// vector, a partial one at the row's end), opaque and translucent
    /// colours, influences from a tenth of the canvas (points reaching part
    /// of a row, pixels no point reaches) to all of it.
    func testQuarticMatchesReference() throws {
        var rng = SeededGenerator(seed: 4444)
        for (w, h) in [(1, 2), (15, 3), (16, 2), (17, 5), (23, 4), (31, 3), (33, 6), (64, 3), (65, 7), (97, 9), (200, 5)] {
            for translucent in [false, true] {
                let n = Int(rng.next() % 16) + 1
                let stops = (0..<n).map { _ in
                    FreeformGradient.Stop(
                        position: Point(rng.uniform(-0.3...1.3) * Double(w), rng.uniform(-0.3...1.3) * Double(h)),
                        color: translucent ? rng.color()
                            : Color(premultipliedR: rng.uniform(0...255), g: rng.uniform(0...255), b: rng.uniform(0...255), a: 255))
                }
                let g = try FreeformGradient(points: stops, influence: rng.uniform(0.1...1.2) * Double(max(w, h)), exponent: 4)
                let reference = Reference.freeform(g, width: w, height: h)
                for backend in backendMatrix {
                    let image = try paddedImage(width: w, height: h)
                    try backend.freeform(g, variant: .full, into: image.view, scratch: Scratch())
                    assertWithin(.exactGradient, image.view, reference,
                                 "quartic \(w)x\(h) \(n) points translucent \(translucent) on \(label(backend))")
                    assertPaddingIntact(image)
                }
            }
        }
    }

    /// Every variant on odd sizes and wide strides: within its floor, and
    /// not writing outside the rows.
    func testVariantsHonourStrideAndOddSizes() throws {
        var rng = SeededGenerator(seed: 7)
        for (w, h) in [(1, 1), (3, 2), (41, 23)] {
            let g = try randomGradient(&rng, width: w, height: h)
            let reference = Reference.freeform(g, width: w, height: h)
            for backend in backendMatrix {
                for v in FreeformVariant.allCases {
                    let image = try paddedImage(width: w, height: h)
                    try backend.freeform(g, variant: v, into: image.view, scratch: Scratch())
                    assertPaddingIntact(image)
                    if v == .full { assertWithin(.exactGradient, image.view, reference, "\(v) \(w)x\(h) \(label(backend))") }
                }
            }
        }
    }

    /// The approximate variants agree across backends (same maths, same
    /// sampling positions): within 1 of the naive backend's image.
    func testVariantsAgreeAcrossBackends() throws {
        var rng = SeededGenerator(seed: 99)
        let (w, h) = (83, 57)
        let g = try randomGradient(&rng, width: w, height: h)
        for v in FreeformVariant.allCases {
            let baseline = try Image(width: w, height: h)
            try NaiveBackend().freeform(g, variant: v, into: baseline.view, scratch: Scratch())
            for backend in backendMatrix {
                let image = try Image(width: w, height: h)
                try backend.freeform(g, variant: v, into: image.view, scratch: Scratch())
                let d = ImageDiff(image.view, baseline.view)
                XCTAssertLessThanOrEqual(d.maxError, 1, "\(v) on \(label(backend)) vs naive: \(d)")
            }
        }
    }

    /// Colours sharing one alpha (opaque, or all 128): the backends then
    /// leave alpha out of the sums and blend each row from its first
    /// reaching point's colour. Within the bound of the reference and alpha
    /// exactly the shared one, at odd sizes, with points off-canvas and
    /// discs small enough that rows and whole vectors miss some points
    /// (so the base point changes from row to row) or every point.
    func testSharedAlphaMatchesReference() throws {
        var rng = SeededGenerator(seed: 4242)
        for alpha in [255.0, 128.0] {
            for (w, h) in [(1, 1), (19, 7), (67, 45), (130, 3)] {
                let n = Int(rng.next() % 16) + 1
                let stops = (0..<n).map { _ in
                    FreeformGradient.Stop(
                        position: Point(rng.uniform(-0.5...1.5) * Double(w), rng.uniform(-0.5...1.5) * Double(h)),
                        color: Color(premultipliedR: rng.uniform(0...alpha), g: rng.uniform(0...alpha),
                                     b: rng.uniform(0...alpha), a: alpha))
                }
                let g = try FreeformGradient(points: stops, influence: rng.uniform(0.1...0.8) * Double(max(w, h)),
                                             exponent: Double(Int(rng.next() % 8) + 1))
                let reference = Reference.freeform(g, width: w, height: h)
                for backend in backendMatrix {
                    let image = try paddedImage(width: w, height: h)
                    try backend.freeform(g, variant: .full, into: image.view, scratch: Scratch())
                    let label = "alpha \(alpha) \(w)x\(h) \(n) points e=\(g.exponent) on \(label(backend))"
                    assertWithin(.exactGradient, image.view, reference, label)
                    assertPaddingIntact(image)
                    let alphas = Set((0..<h).flatMap { y in (0..<w).map { x in image.view.row(y)[4 * x + 3] } })
                    XCTAssertEqual(alphas, [UInt8(alpha)], label)
                }
            }
        }
    }

    func testSinglePointIsFlat() throws {
        let c = try Color(hex: "#336F55")
        let g = try FreeformGradient(points: [.init(position: Point(-50, 9), color: c)], influence: 10)
        for backend in backendMatrix {
            let image = try Image(width: 19, height: 5)
            try backend.freeform(g, variant: .full, into: image.view, scratch: Scratch())
            XCTAssert(image.packedBytes.elementsEqual(Array(repeating: [c.rgba8.r, c.rgba8.g, c.rgba8.b, 255], count: 19 * 5).joined()),
                      "\(label(backend)): one point far away must paint its colour everywhere")
        }
    }

    func testRejectsBadParameters() {
        let p = FreeformGradient.Stop(position: Point(0, 0), color: .transparent)
        XCTAssertThrowsError(try FreeformGradient(points: [], influence: 1))
        XCTAssertThrowsError(try FreeformGradient(points: Array(repeating: p, count: 17), influence: 1))
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: 0))
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: .nan))
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: 1, exponent: 0.5))
        XCTAssertThrowsError(try FreeformGradient(points: [.init(position: Point(.infinity, 0), color: .transparent)], influence: 1))
    }
}

/// K1's unit space, Telegram iOS's swirl and the grid variants (fit80, square10).
final class FreeformUnitTests: XCTestCase {
    func randomUnitGradient(_ rng: inout SeededGenerator, swirl: Double? = nil) throws -> FreeformGradient {
        let n = Int(rng.next() % 16) + 1
        return try FreeformGradient(
            points: (0..<n).map { _ in
                .init(position: Point(rng.uniform(-0.3...1.3), rng.uniform(-0.3...1.3)), color: rng.color())
            },
            influence: rng.uniform(0.1...1.5),
            exponent: rng.unit() < 0.5 ? Double(Int(rng.next() % 8) + 1) : rng.uniform(1...9),
            space: .unit, swirl: swirl ?? (rng.unit() < 0.3 ? 0 : rng.uniform(0...FreeformGradient.maxSwirl)))
    }

    static func telegramIOS() throws -> FreeformGradient {
        let palette = try ["#7FA381", "#FFF5C5", "#336F55", "#FBE37D"].map(Color.init(hex:))
        let positions = [Point(0.80, 0.10), Point(0.35, 0.25), Point(0.20, 0.90), Point(0.65, 0.75)]
        return try FreeformGradient(points: zip(positions, palette).map { .init(position: $0, color: $1) },
                                    influence: 0.92, exponent: 3, space: .unit, swirl: 0.784)
    }

    /// Unit space with and without swirl (up to the largest accepted), every
    /// backend and thread count, odd sizes and padded strides: within the bound of
    /// docs/contract.md §3 of the double reference.
    func testUnitSpaceAndSwirlMatchReference() throws {
        var rng = SeededGenerator(seed: 31)
        var cases = [(try Self.telegramIOS(), 47, 83)]
        for (w, h) in [(1, 1), (17, 3), (33, 9), (64, 5), (95, 31), (40, 40)] {
            cases.append((try randomUnitGradient(&rng), w, h))
        }
        cases.append((try randomUnitGradient(&rng, swirl: FreeformGradient.maxSwirl), 61, 37))
        for (g, w, h) in cases {
            let reference = Reference.freeform(g, width: w, height: h)
            for backend in backendMatrix {
                let image = try paddedImage(width: w, height: h)
                try backend.freeform(g, variant: .full, into: image.view, scratch: Scratch())
                assertWithin(.exactGradient, image.view, reference,
                             "unit \(w)x\(h) \(g.points.count) points e=\(g.exponent) s=\(g.swirl) on \(label(backend))")
                assertPaddingIntact(image)
            }
        }
    }

    /// Every variant in unit space with a swirl: padding intact, and the
    /// backends agree (same maths, same sample positions) within 1 of naive.
    func testUnitVariantsAgreeAcrossBackends() throws {
        var rng = SeededGenerator(seed: 5)
        for (w, h) in [(1, 1), (3, 2), (83, 57), (160, 9)] {
            let g = try randomUnitGradient(&rng, swirl: 0.784 + rng.uniform(0...8))
            for v in FreeformVariant.allCases {
                let baseline = try Image(width: w, height: h)
                try NaiveBackend().freeform(g, variant: v, into: baseline.view, scratch: Scratch())
                for backend in backendMatrix {
                    let image = try paddedImage(width: w, height: h)
                    try backend.freeform(g, variant: v, into: image.view, scratch: Scratch())
                    assertPaddingIntact(image)
                    let d = ImageDiff(image.view, baseline.view)
                    XCTAssertLessThanOrEqual(d.maxError, 1, "\(v) \(w)x\(h) on \(label(backend)) vs naive: \(d)")
                }
            }
        }
    }

    /// The simd and openmp images do not depend on the thread count, for
    /// every variant, in both spaces.
    func testByteIdenticalAcrossThreads() throws {
        var rng = SeededGenerator(seed: 77)
        let (w, h) = (131, 97)
        let unit = try randomUnitGradient(&rng, swirl: 3.5)
        let pixels = try FreeformGradient(
            points: (0..<5).map { _ in .init(position: Point(rng.uniform(0...131), rng.uniform(0...97)), color: rng.color()) },
            influence: 90, exponent: 3)
        for g in [unit, pixels] {
            for kind in [BackendKind.simd, .openmp] {
                for v in FreeformVariant.allCases {
                    var first: [UInt8]?
                    for t in [1, 2, 7] {
                        let image = try Image(width: w, height: h)
                        try kind.make(threads: t).freeform(g, variant: v, into: image.view, scratch: Scratch())
                        if let first { XCTAssertEqual(first, image.packedBytes, "\(kind) \(v) \(g.space) at \(t) threads") }
                        else { first = image.packedBytes }
                    }
                }
            }
        }
    }

    /// Stage test of the grid variants' sample positions: square10 over a
    /// 20 x 20 frame is a 2 x 2 grid whose cells stand for frame positions
    /// 5 and 15; the up-sampler reads grid position (x + 0.5) / 10 - 0.5,
    /// held at the edges, so pixels 0...4 show cell 0 unblended and
    /// 15...19 cell 1. The cells' values are K1 on a 2 x 2 canvas with the
    /// geometry shrunk tenfold (pixel space) or unchanged (unit space).
    func testGridCellsSampleTheirFramePositions() throws {
        var rng = SeededGenerator(seed: 8)
        let stops = (0..<4).map { _ in
            FreeformGradient.Stop(position: Point(rng.uniform(0...20), rng.uniform(0...20)), color: rng.color(opaque: true))
        }
        let pixels = try FreeformGradient(points: stops, influence: 25, exponent: 2)
        let shrunk = try FreeformGradient(points: stops.map { .init(position: Point($0.position.x / 10, $0.position.y / 10), color: $0.color) },
                                          influence: 2.5, exponent: 2)
        let unit = try FreeformGradient(points: stops.map { .init(position: Point($0.position.x / 20, $0.position.y / 20), color: $0.color) },
                                        influence: 1.25, exponent: 2, space: .unit, swirl: 2)
        for (g, cells) in [(pixels, Reference.freeform(shrunk, width: 2, height: 2)), (unit, Reference.freeform(unit, width: 2, height: 2))] {
            XCTAssertEqual(FreeformGrid(g, variant: .square10, width: 20, height: 20).width, 2)
            for backend in backendMatrix {
                let image = try Image(width: 20, height: 20)
                try backend.freeform(g, variant: .square10, into: image.view, scratch: Scratch())
                for (block, cell) in [(0..<5, 0), (15..<20, 1)] {
                    for y in block { for x in block { for ch in 0..<4 {
                        let v = Double(image.view.row(y)[4 * x + ch]), want = cells[(cell * 2 + cell) * 4 + ch]
                        XCTAssertLessThanOrEqual(abs(v - want), 1, "\(g.space) \(label(backend)) pixel (\(x), \(y)) ch \(ch)")
                    } } }
                }
            }
        }
    }

    /// fit80's grid for every device profile: the longer side 80, the other
    /// round(80 short / long), so the grid's aspect is the frame's within
    /// half a cell. iphone-6 gives Telegram's own 45 x 80.
    func testFitGridSizesForEveryProfile() throws {
        for p in DeviceProfile.all {
            let (sw, sh) = FreeformGrid.fitted(width: p.width, height: p.height, box: 80)
            let long = max(p.width, p.height), short = min(p.width, p.height)
            let expectedShort = (160 * short + long) / (2 * long) // round half up, in integers
            XCTAssertEqual(max(sw, sh), 80, p.name)
            XCTAssertEqual(min(sw, sh), expectedShort, p.name)
            XCTAssertEqual(sw >= sh, p.width >= p.height, "\(p.name): orientation kept")
            XCTAssertLessThanOrEqual(abs(Double(min(sw, sh)) / 80 - Double(short) / Double(long)), 0.5 / 80, p.name)
            let g = try Self.telegramIOS()
            let grid = FreeformGrid(g, variant: .fit80, width: p.width, height: p.height)
            XCTAssertEqual(grid.width, sw); XCTAssertEqual(grid.height, sh)
            let square = FreeformGrid(g, variant: .square10, width: p.width, height: p.height)
            XCTAssertEqual(square.width, (p.width + 9) / 10); XCTAssertEqual(square.height, (p.width + 9) / 10)
        }
        XCTAssert(FreeformGrid.fitted(width: 750, height: 1334, box: 80) == (45, 80))
        XCTAssert(FreeformGrid.fitted(width: 1334, height: 750, box: 80) == (80, 45))
        XCTAssert(FreeformGrid.fitted(width: 5000, height: 3, box: 80) == (80, 1), "at least 1")
        XCTAssert(FreeformGrid.fitted(width: 60, height: 30, box: 80) == (60, 30), "never enlarged")
    }

    /// The polynomial sin/cos of the swirl (raster_k1_sincos16, which both
    /// threaded backends call) against double sin/cos over every angle the
    /// swirl can take: theta = s |q - m|^2 in [0, maxSwirl / 2].
    func testSwirlSinCosPolynomial() {
        let top = Float(FreeformGradient.maxSwirl / 2)
        let n = 400_000
        var theta = [Float](repeating: 0, count: n)
        for i in 0..<n { theta[i] = top * Float(i) / Float(n - 1) }
        theta += [0, .ulpOfOne, Float.pi / 4, Float.pi / 2, Float.pi, 3 * Float.pi / 2, 2 * Float.pi, 10 * Float.pi, top]
        var worst = 0.0
        var cs = [Float](repeating: .nan, count: theta.count), cc = [Float](repeating: .nan, count: theta.count)
        raster_omp_swirl_sincos(theta, &cs, &cc, Int32(theta.count))
        for i in theta.indices {
            let t = Double(theta[i])
            // NaN (a value never written) fails the comparison below.
            worst = max(worst, abs(Double(cs[i]) - sin(t)), abs(Double(cc[i]) - cos(t)), cs[i].isNaN || cc[i].isNaN ? .infinity : 0)
        }
        XCTAssertLessThan(worst, 2.5e-7)
    }

    /// The swirl's warp (raster_k1_warp16, through the simd backend's
    /// layout raster_k1_swirl16: x and y of lanes 0-7, then of lanes 8-15)
    /// against the double-precision rotation and clamp of
    /// FreeformGradient's note, on random samples in the unit square (the
    /// warp's domain: theta <= 32, where the polynomial is measured) and
    /// beyond it (finite, in [0, 1]), every swirl strength up to the
    /// largest, and rows at the centre and the edges.
    func testSwirlWarpAgainstDouble() {
        var rng = SeededGenerator(seed: 0x5A1F)
        var worst = 0.0, outside = 0
        for trial in 0..<5_000 {
            let s = trial == 0 ? Float(FreeformGradient.maxSwirl) : Float(rng.uniform(0...FreeformGradient.maxSwirl))
            let dy = [Float(-0.5), 0, 0.5][trial % 3] + (trial % 5 == 0 ? 0 : Float(rng.uniform(-0.7...0.7)))
            var dx = SIMD16<Float>()
            for k in 0..<16 { dx[k] = Float(rng.uniform(-0.7...0.7)) }
            var out = [Float](repeating: .nan, count: 32)
            raster_k1_swirl16(dx, dy, s, &out)
            for lane in 0..<16 {
                let wxf = out[16 * (lane / 8) + lane % 8], wyf = out[16 * (lane / 8) + 8 + lane % 8]
                if !(0...1).contains(wxf) || !(0...1).contains(wyf) { outside += 1 }
                let x = Double(dx[lane]), y = Double(dy), theta = Double(s) * (x * x + y * y)
                if abs(x) > 0.5 || abs(y) > 0.5 { continue }
                let wx = min(max(0.5 + x * cos(theta) - y * sin(theta), 0), 1)
                let wy = min(max(0.5 + x * sin(theta) + y * cos(theta), 0), 1)
                worst = max(worst, abs(Double(wxf) - wx), abs(Double(wyf) - wy))
            }
        }
        XCTAssertEqual(outside, 0, "warped samples outside [0, 1] (or NaN)")
        // theta's own roundings (a few ulps of up to 32, ~6e-6 rad) times
        // |q - m| <= 0.71, plus the polynomial's 2.5e-7 and the rotation's
        // roundings.
        XCTAssertLessThan(worst, 4e-6, "the warp against double precision")
    }

    /// K1's shared pack (both threaded backends) against the scalar
    /// quantize, clamp to [0, 255] then the integer part of v + 0.5 in
    /// Float, on random channels well beyond [0, 255] and at the rounding
    /// and clamping edges (and the C kernels' scalar quantize with it, NaN
    /// included); and its reciprocal against Float division.
    func testSharedPackAndReciprocal() {
        var rng = SeededGenerator(seed: 0x9ACC)
        let edges: [Float] = [-1e10, -256, -1, -0.5, (-0.5 as Float).nextUp, -0.0, 0, 0.49999997, 0.5, 1.5, 127.5,
                              254.49998, 254.5, 255, 255.49998, 255.5, 256, 1e6, 2.1e9]
        var values = edges
        for _ in 0..<40_000 { values.append(Float(rng.uniform(-300...600))) }
        for _ in 0..<40_000 { values.append(Float(Int(rng.next() % 512)) / 2 - 0.5) } // exact halves
        while values.count % 32 != 0 { values.append(0.5) }
        func quantize(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 255) + 0.5) }
        var mismatches = 0
        for i in stride(from: 0, to: values.count, by: 32) {
            var c = [SIMD8<Float>](repeating: .zero, count: 4)
            for ch in 0..<4 { for k in 0..<8 { c[ch][k] = values[i + 8 * ch + (k * 3 + ch) % 8] } }
            let words = raster_k1_pack8(c[0], c[1], c[2], c[3])
            for k in 0..<8 {
                let expected = quantize(c[0][k]) | quantize(c[1][k]) << 8 | quantize(c[2][k]) << 16 | quantize(c[3][k]) << 24
                if words[k] != expected { mismatches += 1 }
                // The C kernels' scalar quantize (the pack's portable form).
                if raster_quantize(c[0][k]) != quantize(c[0][k]) { mismatches += 1 }
            }
            let sums = c[0] + 300.5
            let inv = raster_k1_reciprocal8(sums)
            for k in 0..<8 where inv[k] != 1 / sums[k] { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0)
        // NaN clamps to 0 in both, with no undefined conversion.
        let nan = SIMD8<Float>(repeating: .nan)
        XCTAssertEqual(raster_k1_pack8(nan, nan, nan, nan), .zero)
        XCTAssertEqual(raster_quantize(.nan), 0)
    }

    func testSwirlOnlyInUnitSpace() throws {
        let p = FreeformGradient.Stop(position: Point(0.5, 0.5), color: .transparent)
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: 1, swirl: 0.784), "swirl in pixel space")
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: 1, space: .unit, swirl: -1))
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: 1, space: .unit, swirl: .nan))
        XCTAssertThrowsError(try FreeformGradient(points: [p], influence: 1, space: .unit, swirl: FreeformGradient.maxSwirl * 2))
        XCTAssertNoThrow(try FreeformGradient(points: [p], influence: 1, space: .unit, swirl: 0.784))
        XCTAssertNoThrow(try FreeformGradient(points: [p], influence: 1, swirl: 0))
    }
}
