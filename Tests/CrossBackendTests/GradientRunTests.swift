import CRasterOMP
import RasterKit
import RasterReference
import XCTest

/// K2 drawn as runs (rows split where the stop interval or extend period
/// changes): the run finder as a stage, and the backends' run path against
/// the reference, the per-pixel path and across thread counts.
final class GradientRunTests: XCTestCase {
    /// The stop and extend rules, written out again: (interval, period, mirrored).
    struct PixelClass: Equatable { var interval: Int; var period: Float; var mirrored: Bool }

    static func classify(_ u: Float, _ starts: [Float], _ extend: Int32) -> PixelClass {
        var c = PixelClass(interval: 0, period: 0, mirrored: false)
        var t: Float
        switch extend {
        case 0: t = min(max(u, RASTER_GRADIENT_PAD_LOW), RASTER_GRADIENT_PAD_HIGH)
        case 1: c.period = u.rounded(.down); t = u - c.period
        default:
            c.period = 2 * (u * 0.5).rounded(.down)
            let m = u - c.period
            c.mirrored = m > 1
            t = c.mirrored ? 2 - m : m
        }
        c.interval = starts.lastIndex { $0 <= t } ?? 0
        return c
    }

    static func randomStops(_ rng: inout SeededGenerator) -> [Gradient.Stop] {
        let n = Int(rng.next() % 6) + 2
        var offsets = (0..<n).map { _ in rng.unit() }.sorted()
        // Coincident stops (hard edges) and stops at the ends.
        if rng.coin() { offsets[n / 2] = offsets[(n - 1) / 2] }
        if rng.coin() { offsets[0] = 0; offsets[n - 1] = 1 }
        // Opaque ramps half the time: the radial run loops convert a
        // constant alpha once.
        let opaque = rng.coin()
        return offsets.map { Gradient.Stop(offset: $0, color: rng.color(opaque: opaque)) }
    }

    /// Vectors from a tenth of a pixel (`tiny`; there Float's u over a
    /// canvas of repeats is too coarse for the bound of docs/contract.md §3, whatever the path)
    /// or 3 pixels to a thousand times the canvas.
    static func randomGradient(_ rng: inout SeededGenerator, _ extend: ExtendMode, width: Int, height: Int,
                               tiny: Bool = true) throws -> Gradient {
        let scale = [tiny ? 0.1 : 3, 3, Double(width), 1000 * Double(width)][Int(rng.next() % 4)]
        if rng.coin() {
            let s = Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-0.5...1.5) * Double(height))
            let angle = rng.uniform(0...(2 * Double.pi))
            return try Gradient(shape: .linear(start: s, end: s + Point(cos(angle), sin(angle)) * scale),
                                stops: randomStops(&rng), extend: extend)
        }
        return try Gradient(shape: .radial(center: Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-0.5...1.5) * Double(height)),
                                           radius: scale), stops: randomStops(&rng), extend: extend)
    }

    /// Each run of `row` in order, as raster_gradient_next_span returns
    /// them: body(x, end, row, span), the row as it is then (its `starts`
    /// valid during the call). `starts` are the row's.
    static func forEachRun(_ row: inout raster_gradient_row, _ starts: [Float], width: Int,
                           _ body: (Int, Int, raster_gradient_row, raster_gradient_span) -> Void) {
        starts.withUnsafeBufferPointer { p in
            row.starts = p.baseAddress
            var span = raster_gradient_span()
            var x = 0
            while x < width {
                let end = Int(raster_gradient_next_span(&row, Int32(x), &span))
                body(x, end, row, span)
                x = end
            }
        }
    }

    /// Every class change along a row is a run boundary, and every run
    /// boundary a class change: each crossing found once, none invented.
    func testRunFinderFindsEveryCrossingOnceAndNoOther() throws {
        var rng = SeededGenerator(seed: 0x18_0001)
        var boundaries = 0
        for job in 0..<300 {
            let width = 1 + Int(rng.next() % 300), height = 1 + Int(rng.next() % 40)
            let g = try Self.randomGradient(&rng, ExtendMode.allCases[job % 3], width: width, height: height)
            let y = Int(rng.next() % UInt64(height))
            boundaries += Self.checkRuns(g, width: width, height: height, rows: y...y, ladder: false, job: job).boundaries
        }
        XCTAssertGreaterThan(boundaries, 300) // the jobs do cross stops
    }

    /// The same with the frame's ladder (raster_gradient_ladder), which ends
    /// runs at the crossings it is sure of: on random radial frames, and on
    /// frames whose crossings fall exactly on pixel centres (a centre on a
    /// pixel centre, whole radii and stops, rows at 3-4-5 distances), where
    /// it must leave the run to classify(). Every pixel still has its run's
    /// class, and every class change is a run end.
    func testLadderRunsFindEveryCrossingOnceAndNoOther() throws {
        var rng = SeededGenerator(seed: 0x18_000B)
        var laddered = 0, classified = 0, boundaries = 0
        for job in 0..<240 {
            let width = 1 + Int(rng.next() % 300), height = 1 + Int(rng.next() % 40)
            let extend = ExtendMode.allCases[job % 3]
            let g: Gradient
            if job % 4 == 3 {
                // Crossings on pixel centres: centre (cx + 0.5, cy + 0.5), radius 10 s,
                // stops at tenths, so a stop at 0.5 crosses row cy +- 3 at cx +- 4.
                let stops = [0.0, 0.3, 0.5, 0.8, 1.0].map { Gradient.Stop(offset: $0, color: rng.color(opaque: rng.coin())) }
                let centre = Point(Double(rng.next() % UInt64(width)) + 0.5, Double(rng.next() % UInt64(height)) + 0.5)
                g = try Gradient(shape: .radial(center: centre, radius: 10 * Double(1 + rng.next() % 4)), stops: stops, extend: extend)
            } else {
                let radius = [2.0, 7.5, Double(width), 10 * Double(width)][Int(rng.next() % 4)]
                g = try Gradient(shape: .radial(center: Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-0.5...1.5) * Double(height)),
                                                radius: radius), stops: Self.randomStops(&rng), extend: extend)
            }
            let found = Self.checkRuns(g, width: width, height: height, rows: 0..<height, ladder: true, job: job)
            laddered += found.laddered; classified += found.classified; boundaries += found.boundaries
        }
        XCTAssertGreaterThan(boundaries, 3000)
        // Runs the ladder ended with more of the row to go (so not vacuous).
        XCTAssertGreaterThan(laddered, 20_000, "\(laddered) laddered, \(classified) other runs")
    }

    /// Walks `rows` of g's frame as runs and checks them against the
    /// per-pixel classes: returns the run ends found, and how many runs the
    /// ladder ended (the row has a rung after them) and how many it did not.
    static func checkRuns(_ g: Gradient, width: Int, height: Int, rows: some Sequence<Int>, ladder: Bool, job: Int,
                          file: StaticString = #filePath, line: UInt = #line) -> (boundaries: Int, laddered: Int, classified: Int) {
        let starts = g.ramp.starts
        let pixel = GradientPixelGeometryProbe(g)
        var table = raster_gradient_fold_table()
        if ladder { table = foldTable(g, width: width, height: height) }
        var boundaries = 0, laddered = 0, classified = 0
        for y in rows {
            var row = pixel.row(y, width: width, starts: starts, count: starts.count)
            let classes = (0..<width).map { classify(raster_gradient_u(&row, Int32($0)), starts, pixel.extend) }
            var expected = Set((1..<max(width, 1)).filter { classes[$0] != classes[$0 - 1] })
            // A radial row also splits where u turns (the centre column).
            if pixel.shape == 1, row.mid > 0, row.mid < width { expected.insert(Int(row.mid)) }
            var x = 0, found: [Int] = []
            var span = raster_gradient_span()
            withUnsafePointer(to: &table) { table in
                if ladder { raster_gradient_row_use_ladder(&row, table) }
                starts.withUnsafeBufferPointer { p in
                    row.starts = p.baseAddress
                    while x < width {
                        let end = Int(raster_gradient_next_span(&row, Int32(x), &span))
                        XCTAssert(end > x && end <= width, "job \(job): run \(x)..<\(end)", file: file, line: line)
                        if row.rung >= 0 { laddered += 1 } else { classified += 1 }
                        let c = PixelClass(interval: Int(span.interval), period: span.period, mirrored: span.sign < 0)
                        for i in x..<max(end, x) where classes[i] != c {
                            XCTFail("job \(job) \(g.shape) \(g.extend) row \(y): pixel \(i) is \(classes[i]), run \(x)..<\(end) says \(c)",
                                    file: file, line: line)
                            break
                        }
                        if end < width { found.append(end) }
                        x = max(end, x + 1)
                    }
                }
            }
            let invented = Set(found).subtracting(expected), missed = expected.subtracting(found)
            XCTAssert(invented.isEmpty && missed.isEmpty && found.count == Set(found).count,
                      "job \(job) \(g.shape) \(g.extend) row \(y): invented \(invented.sorted()), missed \(missed.sorted())",
                      file: file, line: line)
            boundaries += found.count
        }
        return (boundaries, laddered, classified)
    }

    /// The fold table (and ladder) of a radial frame, as the backends make it.
    static func foldTable(_ g: Gradient, width: Int, height: Int) -> raster_gradient_fold_table {
        let pixel = GradientPixelGeometryProbe(g)
        let ramp = g.ramp
        var table = raster_gradient_fold_table()
        var geometry = pixel.geometry
        ramp.starts.withUnsafeBufferPointer { starts in
            ramp.slopes.withUnsafeBytes { sl in
                ramp.biases.withUnsafeBytes { bi in
                    withUnsafeBytes(of: &geometry) { geo in
                        raster_gradient_fold_table_init(&table, pixel.extend, starts.baseAddress, sl.bindMemory(to: Float.self).baseAddress,
                                                        bi.bindMemory(to: Float.self).baseAddress, Int32(starts.count), Int32(width),
                                                        Int32(height), geo.bindMemory(to: Double.self).baseAddress)
                    }
                }
            }
        }
        return table
    }

    /// Canvases wide enough for runs, odd sizes, every extend mode: every
    /// backend within the bound of docs/contract.md §3 of the reference and byte-identical at
    /// 1, 2 and 7 threads; openmp's runs within one level of its per-pixel
    /// path (a canvas too narrow for runs) column for column: the runs round
    /// the same colours, computed another way, so only near-halves differ.
    func testRunsMatchReferenceThreadCountsAndThePerPixelPath() throws {
        var rng = SeededGenerator(seed: 0x18_0002)
        for job in 0..<36 {
            let (w, h) = [(301, 7), (257, 5), (1023, 3), (129, 9)][job % 4]
            let g = try Self.randomGradient(&rng, ExtendMode.allCases[job % 3], width: w, height: h, tiny: false)
            let reference = Reference.gradient(g, width: w, height: h)
            var byKind: [String: [UInt8]] = [:]
            for backend in backendMatrix {
                let image = try paddedImage(width: w, height: h)
                try backend.gradient(g, into: image.view)
                assertWithin(.exactGradient, image.view, reference, "job \(job) \(g.shape) \(g.extend) \(w)x\(h) on \(label(backend))")
                assertPaddingIntact(image)
                if let first = byKind[backend.name] {
                    XCTAssert(first == image.packedBytes, "job \(job): \(label(backend)) differs from 1 thread")
                } else { byKind[backend.name] = image.packedBytes }
            }
            let narrow = 11
            let perPixel = try Image(width: narrow, height: h)
            try BackendKind.openmp.make(threads: 1).gradient(g, into: perPixel.view)
            let runs = byKind["openmp"]!
            for y in 0..<h {
                let a = Array(runs[(4 * w * y)..<(4 * w * y + 4 * narrow)])
                let b = Array(perPixel.packedBytes[(4 * narrow * y)..<(4 * narrow * (y + 1))])
                let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, 1, "job \(job) \(g.shape) \(g.extend) row \(y): runs and per-pixel differ")
            }
        }
    }

    /// The fixed-point colours of a linear run (raster_gradient_run_steps)
    /// as a stage: every stepped pixel of every chunk within 0.002 levels of
    /// the double-precision colour of the run's affine t plus the half, in
    /// [0, 256) with no clamp; chunks tile the run, none longer than
    /// RASTER_GRADIENT_STEP_PIXELS; a chunk is refused only when a colour at
    /// its ends leaves the range.
    func testLinearRunStepsStayWithinTheirBoundOfTheDoubleColour() throws {
        var rng = SeededGenerator(seed: 0x18_0003)
        var stepped = 0
        for job in 0..<200 {
            let width = [7, 300, 5000, 9001][job % 4]
            let extend = ExtendMode.allCases[job % 3]
            let s = Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-2...2))
            let angle = rng.uniform(0...(2 * Double.pi))
            let length = [3.0, Double(width), 0.5 * Double(width), 40][Int(rng.next() % 4)]
            let g = try Gradient(shape: .linear(start: s, end: s + Point(cos(angle), sin(angle)) * length),
                                 stops: Self.randomStops(&rng), extend: extend)
            let pixel = GradientPixelGeometryProbe(g)
            let ramp = g.ramp
            var row = pixel.row(0, width: width, starts: ramp.starts, count: ramp.starts.count)
            let bits = Double(1 << RASTER_GRADIENT_STEP_BITS)
            Self.forEachRun(&row, ramp.starts, width: width) { x, end, row, span in
                var row = row, span = span
                let k = Int(span.interval)
                var c = x
                while c < end, !ramp.flat[k] {
                    var start = [Int32](repeating: 0, count: 4), step = [Int32](repeating: 0, count: 4)
                    var sl = Array(0..<4).map { ramp.slopes[k][$0] }, bi = Array(0..<4).map { ramp.biases[k][$0] }
                    let chunkEnd = Int(raster_gradient_run_steps(&row, &span, &sl, &bi, Int32(c), Int32(end), &start, &step))
                    XCTAssert(chunkEnd == c || (chunkEnd > c && chunkEnd <= end && chunkEnd - c <= Int(RASTER_GRADIENT_STEP_PIXELS)),
                              "job \(job): chunk \(c)..<\(chunkEnd) of run ..<\(end)")
                    let double = { (px: Int, ch: Int) -> Double in
                        let t = Double(span.sign) * (Double(px) * Double(row.ux) + Double(row.u0) - Double(span.period)) + Double(span.offset)
                        return t * Double(sl[ch]) + Double(bi[ch]) + 0.5
                    }
                    if chunkEnd == c {
                        let m = RASTER_GRADIENT_STEP_MARGIN
                        let outside = (0..<4).contains { ch in
                            [c, end - 1].contains { !(double($0, ch) >= m && double($0, ch) <= 256 - m) }
                        }
                        // Refused chunks run to the end of the run (the caller shades the rest per pixel).
                        XCTAssert(outside || end - c > Int(RASTER_GRADIENT_STEP_PIXELS), "job \(job): chunk at \(c) refused in range")
                        break
                    }
                    for px in c..<chunkEnd {
                        for ch in 0..<4 {
                            let v = Double(start[ch]) + Double(px - c) * Double(step[ch])
                            XCTAssertLessThan(abs(v / bits - double(px, ch)), 0.002, "job \(job) pixel \(px) channel \(ch)")
                            XCTAssert(v >= 0 && v < 256 * bits, "job \(job) pixel \(px) channel \(ch): \(v / bits) needs a clamp")
                        }
                    }
                    stepped += chunkEnd - c
                    c = chunkEnd
                }
            }
        }
        XCTAssertGreaterThan(stepped, 100_000) // the jobs do step long runs
    }

    /// A radial run's colours folded into one multiply-add per channel from
    /// d (raster_gradient_radial_fold) as a stage: on an accepted run every
    /// pixel, computed as the run loops compute it (Float d, one fused
    /// multiply-add), is within 0.01 levels of the double-precision colour
    /// of the t its class gives, and in [0, 256) with no clamp; a run is
    /// refused only when a colour at an end of its interval leaves the
    /// margin or a term reaches RASTER_GRADIENT_FOLD_LIMIT.
    func testRadialFoldStaysWithinItsBoundOfTheDoubleColour() throws {
        var rng = SeededGenerator(seed: 0x18_0006)
        var folded = 0, refused = 0
        for job in 0..<200 {
            let width = [7, 300, 2001][job % 3]
            let extend = ExtendMode.allCases[job % 3]
            let radius = [3.0, 40, Double(width), 10 * Double(width)][Int(rng.next() % 4)]
            let g = try Gradient(shape: .radial(center: Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-50...50)),
                                                radius: radius), stops: Self.randomStops(&rng), extend: extend)
            let pixel = GradientPixelGeometryProbe(g)
            let ramp = g.ramp
            var row = pixel.row(Int(rng.next() % 7), width: width, starts: ramp.starts, count: ramp.starts.count)
            Self.forEachRun(&row, ramp.starts, width: width) { x, end, row, span in
                var row = row, span = span
                let i = Int(span.interval)
                if ramp.flat[i] { return }
                var sl = Array(0..<4).map { ramp.slopes[i][$0] }, bi = Array(0..<4).map { ramp.biases[i][$0] }
                var k = [Float](repeating: 0, count: 4), c = [Float](repeating: 0, count: 4)
                let double = { (px: Int, ch: Int) -> Double in
                    let t = Double(span.sign) * (Double(raster_gradient_u(&row, Int32(px))) - Double(span.period)) + Double(span.offset)
                    return t * Double(sl[ch]) + Double(bi[ch]) + 0.5
                }
                guard raster_gradient_radial_fold(&row, &span, &sl, &bi, &k, &c) != 0 else {
                    // The interval's end colours, and the terms' size.
                    let m = RASTER_GRADIENT_FOLD_MARGIN - 0.01
                    let ends = [Double(ramp.starts[i]), Double(ramp.starts[i + 1])]
                    let outside = (0..<4).contains { ch in
                        ends.contains { e in
                            let v = e * Double(sl[ch]) + Double(bi[ch]) + 0.5
                            return !(v >= m && v <= 256 - m)
                        } || abs(Double(bi[ch])) + abs(Double(sl[ch])) * (abs(Double(span.period)) + 3) > RASTER_GRADIENT_FOLD_LIMIT / 2
                    }
                    XCTAssert(outside, "job \(job): run \(x)..<\(end) refused in range")
                    refused += 1
                    return
                }
                for px in x..<end {
                    let dx = Float(px) - row.cx
                    let d = row.dy2.addingProduct(dx, dx).squareRoot()
                    for ch in 0..<4 {
                        let v = c[ch].addingProduct(d, k[ch])
                        XCTAssertLessThan(abs(Double(v) - double(px, ch)), 0.01, "job \(job) pixel \(px) channel \(ch)")
                        XCTAssert(v >= 0 && v < 256, "job \(job) pixel \(px) channel \(ch): \(v) needs a clamp")
                        // Both backends' conversion, the shared pack:
                        // truncation is the rounded level, in place.
                        let word = raster_pack8_truncated(SIMD8(repeating: v), .zero, .zero, .zero)[0]
                        XCTAssertEqual(word, UInt32(v.rounded(.down)), "job \(job) pixel \(px) channel \(ch)")
                        XCTAssertLessThan(abs(Double(word) - (double(px, ch) - 0.5)), 0.51, "job \(job) pixel \(px) channel \(ch)")
                    }
                }
                folded += 1
            }
        }
        XCTAssertGreaterThan(folded, 200) // most runs fold
        XCTAssertGreaterThan(refused, 0) // and steep ones do not
    }

    /// The frame's fold table (raster_gradient_fold_table_init) as a stage:
    /// for every run of every row of random radial frames, a class the
    /// table holds gives exactly what folding the run itself gives (the
    /// verdict, and k and c bit for bit); it holds every class but the
    /// last interval's while the frame's periods fit in it, and on frames
    /// of many periods the classes past it fall back (-1), never to a
    /// wrong slot.
    func testFoldTableGivesEachRunsOwnFold() throws {
        var rng = SeededGenerator(seed: 0x18_0009)
        var held = 0, fellBack = 0
        for job in 0..<120 {
            let width = 1 + Int(rng.next() % 400), height = 1 + Int(rng.next() % 60)
            let extend = ExtendMode.allCases[job % 3]
            // Radii down to 2 px: a repeat or reflect frame of hundreds of periods.
            let radius = [2.0, 40, Double(width), 10 * Double(width)][Int(rng.next() % 4)]
            let g = try Gradient(shape: .radial(center: Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-0.5...1.5) * Double(height)),
                                                radius: radius), stops: Self.randomStops(&rng), extend: extend)
            let pixel = GradientPixelGeometryProbe(g)
            let ramp = g.ramp
            var table = Self.foldTable(g, width: width, height: height)
            let periodsFit = Int(table.periods) < Int(RASTER_GRADIENT_FOLD_SLOTS) / (2 * ramp.starts.count)
            for y in 0..<height {
                var row = pixel.row(y, width: width, starts: ramp.starts, count: ramp.starts.count)
                Self.forEachRun(&row, ramp.starts, width: width) { x, end, row, span in
                    var row = row, span = span
                    let i = Int(span.interval)
                    guard i + 1 < ramp.starts.count else { return }
                    var sl = Array(0..<4).map { ramp.slopes[i][$0] }, bi = Array(0..<4).map { ramp.biases[i][$0] }
                    var k = [Float](repeating: 0, count: 4), c = [Float](repeating: 0, count: 4)
                    let own = raster_gradient_radial_fold(&row, &span, &sl, &bi, &k, &c)
                    var tk: UnsafePointer<Float>?, tc: UnsafePointer<Float>?
                    let found = raster_gradient_fold_lookup(&table, &span, &tk, &tc)
                    guard found >= 0 else {
                        XCTAssertFalse(periodsFit, "job \(job) row \(y): class \(span) not held")
                        fellBack += 1
                        return
                    }
                    held += 1
                    XCTAssertEqual(found, own, "job \(job) row \(y) run \(x)..<\(end)")
                    if own != 0 {
                        for ch in 0..<4 {
                            XCTAssertEqual(tk![ch].bitPattern, k[ch].bitPattern, "job \(job) row \(y) run \(x)..<\(end) k\(ch)")
                            XCTAssertEqual(tc![ch].bitPattern, c[ch].bitPattern, "job \(job) row \(y) run \(x)..<\(end) c\(ch)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(held, 1000)
        XCTAssertGreaterThan(fellBack, 0) // the 2 px radii outgrow the table
    }

    /// A row longer than one fixed-point chunk, and runs a few pixels long
    /// next to each other (whole vectors stored past a run's end must be
    /// overwritten by the runs after it): every backend within the bound.
    func testLongRowsAndShortAdjacentRunsMatchTheReference() throws {
        let stops = (0...15).map { (i: Int) -> Gradient.Stop in
            let r = UInt8(i * 17), g = UInt8(255 - i * 13), b = UInt8((i * 37) % 256)
            return Gradient.Stop(offset: Double(i) / 15, color: Color(straightR: r, g: g, b: b))
        }
        let jobs: [(Gradient, Int, Int)] = [
            (try Gradient(shape: .linear(start: Point(-3, 0), end: Point(9013, 1)), stops: stops), 9001, 2),
            (try Gradient(shape: .linear(start: Point(0, 0), end: Point(600, 3)), stops: stops, extend: .reflect), 1203, 3),
            (try Gradient(shape: .radial(center: Point(601.3, 1), radius: 700), stops: stops, extend: .repeat), 1203, 3),
        ]
        for (g, w, h) in jobs {
            let reference = Reference.gradient(g, width: w, height: h)
            for backend in backendMatrix {
                let image = try paddedImage(width: w, height: h)
                try backend.gradient(g, into: image.view)
                assertWithin(.exactGradient, image.view, reference, "\(g.shape) \(g.extend) \(w)x\(h) on \(label(backend))")
                assertPaddingIntact(image)
            }
        }
    }

    /// A radial row symmetric about its centre column (2 cx whole) copies
    /// the pixels left of the centre from their mirrors: byte-identical to
    /// drawing them, checked against a canvas too narrow to reach the
    /// centre (drawn directly, as runs too), for centres on a pixel centre
    /// and between two, every extend mode.
    func testMirroredRadialRowsEqualDrawnOnes() throws {
        let stops = [Gradient.Stop(offset: 0, color: Color(straightR: 250, g: 20, b: 90)),
                     Gradient.Stop(offset: 0.45, color: Color(straightR: 10, g: 200, b: 40, a: 128)),
                     Gradient.Stop(offset: 1, color: Color(straightR: 30, g: 60, b: 240))]
        for (cx, extend) in [(900.0, ExtendMode.pad), (900.5, .reflect), (700.0, .repeat)] {
            let g = try Gradient(shape: .radial(center: Point(cx, 2), radius: 350), stops: stops, extend: extend)
            let (w, h, narrow) = (1203, 5, 690)
            let reference = Reference.gradient(g, width: w, height: h)
            for kind in [BackendKind.simd, .openmp] {
                let wide = try Image(width: w, height: h), cut = try Image(width: narrow, height: h)
                try kind.make(threads: 1).gradient(g, into: wide.view)
                try kind.make(threads: 1).gradient(g, into: cut.view)
                assertWithin(.exactGradient, wide.view, reference, "centre \(cx) \(extend) on \(kind)")
                let a = wide.packedBytes, b = cut.packedBytes
                for y in 0..<h {
                    let column = (0..<(4 * narrow)).first { a[4 * w * y + $0] != b[4 * narrow * y + $0] }.map { $0 / 4 }
                    XCTAssertNil(column, "centre \(cx) \(extend) on \(kind) row \(y): mirrored and drawn differ at x = \(column ?? -1)")
                }
            }
        }
    }

    /// A radial frame symmetric about a row (2 cy whole) draws the rows on
    /// one side and copies them to their mirrors (raster_gradient_plan_rows):
    /// every row of such a frame, on both threaded backends at 1, 2 and 7
    /// threads, byte-identical to the row drawn alone (a 1-row canvas with
    /// the centre moved up by y, which has no mirror rows; its dy is the
    /// same double), for centres on a row, between two, near the top and
    /// bottom edges and outside the frame, widths drawn as runs and per
    /// pixel, every extend mode.
    func testMirroredRadialFrameRowsEqualDrawnOnes() throws {
        var rng = SeededGenerator(seed: 0x18_0007)
        var mirrored = 0
        for job in 0..<48 {
            let width = [301, 11, 64, 257][job % 4], height = 1 + Int(rng.next() % 40)
            let cy = Double(Int(rng.next() % UInt64(2 * height + 8)) - 4) * 0.5
            let cx = Double(Int(rng.next() % UInt64(4 * width))) * 0.25
            let radius = [3.0, 40, 350, 1e4][Int(rng.next() % 4)]
            let stops = Self.randomStops(&rng), extend = ExtendMode.allCases[job % 3]
            let g = try Gradient(shape: .radial(center: Point(cx, cy), radius: radius), stops: stops, extend: extend)
            let geometry = GradientPixelGeometryProbe(g).geometry
            if withUnsafeBytes(of: geometry, { raster_gradient_plan_rows(1, Int32(height), $0.bindMemory(to: Double.self).baseAddress).items }) < height {
                mirrored += 1
            }
            for kind in [BackendKind.simd, .openmp] {
                var rows: [UInt8] = []
                for y in 0..<height {
                    let alone = try Gradient(shape: .radial(center: Point(cx, cy - Double(y)), radius: radius), stops: stops, extend: extend)
                    let row = try Image(width: width, height: 1)
                    try kind.make(threads: 1).gradient(alone, into: row.view)
                    rows += row.packedBytes
                }
                for threads in [1, 2, 7] {
                    let frame = try Image(width: width, height: height)
                    try kind.make(threads: threads).gradient(g, into: frame.view)
                    let a = frame.packedBytes
                    let y = (0..<height).first { a[(4 * width * $0)..<(4 * width * ($0 + 1))] != rows[(4 * width * $0)..<(4 * width * ($0 + 1))] }
                    XCTAssertNil(y, "job \(job) \(width)x\(height) centre \(cx), \(cy) \(extend) on \(kind) at \(threads) threads: row \(y ?? -1) differs from itself drawn alone")
                }
            }
        }
        XCTAssertGreaterThan(mirrored, 20) // the jobs do mirror rows
    }
}

/// GradientPixelGeometry's row parameters, spelled out for the stage tests
/// (the type is internal to RasterKit).
struct GradientPixelGeometryProbe {
    let geometry: (Double, Double, Double)
    let shape: Int32, extend: Int32

    init(_ g: Gradient) {
        switch g.shape {
        case let .linear(s, t):
            let d = t - s, k = 1 / d.dot(d)
            geometry = (d.x * k, d.y * k, (Point(0.5, 0.5) - s).dot(d) * k); shape = 0
        case let .radial(c, r): geometry = (c.x - 0.5, c.y - 0.5, 1 / r); shape = 1
        }
        extend = switch g.extend { case .pad: 0; case .repeat: 1; case .reflect: 2 }
    }

    func row(_ y: Int, width: Int, starts: UnsafePointer<Float>, count: Int) -> raster_gradient_row {
        var g = geometry, row = raster_gradient_row()
        withUnsafeBytes(of: &g) {
            raster_gradient_row_init(&row, shape, extend, starts, Int32(count), Int32(width), $0.bindMemory(to: Double.self).baseAddress, Int32(y))
        }
        return row
    }
}
