@testable import RasterKit
import CRasterOMP
import XCTest

/// K4's stages one at a time, each against a brute-force or Double model of
/// the same stage on random input (Blend2D tests its fast path against its
/// reference path this way), so a failure names the stage that broke rather
/// than an image. The accumulation stage has its own file
/// (FillAccumulationTests), the flattening too (RasterKitTests' FillFlattenTests).
final class FillStageTests: XCTestCase {
    // MARK: - the rule

    /// Windings at which the rule changes or the wrap bites: 0, +-1 unit,
    /// +-one and its neighbours, +-2 one, the multiples of one near the
    /// 32-bit wrap (+-1024 px, +-2047 px) and Int32.min / Int32.max.
    static var ruleBoundaries: [UInt32] {
        let one = Int64(FillFixed.one)
        var w: [Int64] = [0, 1, -1, 2, -2]
        for k: Int64 in [1, 2, 3, 1023, 1024, 2047, 2048] {
            for d: Int64 in [-1, 0, 1] { w += [k * one + d, -(k * one + d)] }
            w += [k * one + one / 2, -(k * one + one / 2)]
        }
        w += [Int64(Int32.max), Int64(Int32.min), Int64(Int32.min) + 1]
        return w.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The rule in Double on the winding as it reads after the 32-bit wrap.
    static func model(_ a: UInt32, evenOdd: Bool) -> Float {
        let one = Double(FillFixed.one)
        if evenOdd {
            let r = Double(a & UInt32(2 * FillFixed.one - 1)) / one
            return Float(r > 1 ? 2 - r : r)
        }
        return Float(min(1, abs(Double(Int32(bitPattern: a))) / one))
    }

    /// The scalar rule (raster_fill.h's, which the C schedule's sweep and
    /// paint also call), the lane rules of the simd sweep, and the sample
    /// rule agree with the model, at the boundaries and on random windings.
    func testRuleScalarLanesAndSamplesAgree() {
        XCTAssertEqual(FillLanes.width, Float16Lanes.scalarCount, "lanes: raster_fill.h's width is not the lane type's")
        var rng = SeededGenerator(seed: 19)
        let windings = FillStageTests.ruleBoundaries + (0..<4096).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        for evenOdd in [false, true] {
            for start in stride(from: 0, to: windings.count, by: FillLanes.width) {
                var lanes = Word16Lanes()
                for l in 0..<FillLanes.width { lanes[l] = windings[(start + l) % windings.count] }
                let vector = evenOdd ? EvenOddCoverage.coverage(lanes) : NonZeroCoverage.coverage(lanes)
                for l in 0..<FillLanes.width {
                    let a = lanes[l], expected = FillStageTests.model(a, evenOdd: evenOdd)
                    let scalar = evenOdd ? EvenOddCoverage.coverage(a) : NonZeroCoverage.coverage(a)
                    XCTAssertEqual(scalar, expected, "rule (scalar, evenOdd \(evenOdd)) at winding \(Int32(bitPattern: a))")
                    XCTAssertEqual(FillCoverage.coverage(Int32(bitPattern: a), evenOdd: evenOdd), scalar,
                                   "rule (naive's scalar) at \(Int32(bitPattern: a))")
                    XCTAssertEqual(raster_fill_coverage(a, evenOdd ? 1 : 0), scalar, "rule (C) at \(Int32(bitPattern: a))")
                    XCTAssertEqual(vector[l], scalar, "rule (lanes, evenOdd \(evenOdd)) at winding \(Int32(bitPattern: a))")
                }
            }
        }
        for w in -5...5 {
            XCTAssertEqual(FillCoverage.inside(w, evenOdd: false), w != 0, "rule (samples, nonzero) at \(w)")
            XCTAssertEqual(FillCoverage.inside(w, evenOdd: true), w % 2 != 0, "rule (samples, even-odd) at \(w)")
        }
    }

    // MARK: - the clipper

    /// Signed crossings of the ray from (px, py) towards -x: the winding the
    /// cells give pixel (px, py), an edge adding to the pixels on its right.
    static func windingLeft<S: Sequence>(of p: (x: Double, y: Double), _ edges: S) -> Int?
        where S.Element == (Double, Double, Double, Double) {
        var w = 0
        for (x0, y0, x1, y1) in edges where (y0 <= p.y) != (y1 <= p.y) {
            let x = x0 + (p.y - y0) / (y1 - y0) * (x1 - x0)
            if abs(x - p.x) < 1e-3 { return nil } // too close to call in Float
            if x < p.x { w += y1 > y0 ? 1 : -1 }
        }
        return w
    }

    /// Closed polygons with vertices up to +-1e8 px off a 64 x 48 canvas:
    /// the clipped Float edges give every pixel the winding the Double
    /// polygon gives it, and stay inside the canvas.
    func testClipperKeepsWindingOfFarOffCanvasEdges() {
        let (w, h) = (64.0, 48.0)
        var rng = SeededGenerator(seed: 8)
        let out = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 3 * 16)
        defer { out.deallocate() }
        for trial in 0..<200 {
            let n = 3 + Int(rng.unit() * 5)
            let reach = [1e2, 1e4, 1e8][trial % 3]
            let points = (0..<n).map { _ -> Point in
                // Half the vertices inside or near the canvas, half far off it.
                rng.unit() < 0.5 ? Point(rng.unit() * w, rng.unit() * h)
                    : Point((rng.unit() * 2 - 1) * reach, (rng.unit() * 2 - 1) * reach)
            }
            var clipper = EdgeClipper(out: EdgeList(out, capacity: 3 * n), width: w, height: h, rows: (0, h))
            for i in 0..<n { clipper.line(from: points[i], to: points[(i + 1) % n]) }
            XCTAssertFalse(clipper.out.overflowed, "clipper: more than three edges a segment (trial \(trial))")
            let clipped = (0..<clipper.out.count).map { (Double(out[$0].x), Double(out[$0].y), Double(out[$0].z), Double(out[$0].w)) }
            for (x0, y0, x1, y1) in clipped {
                XCTAssertTrue((0...w).contains(x0) && (0...w).contains(x1) && (0...h).contains(y0) && (0...h).contains(y1),
                              "clipper: edge (\(x0), \(y0)) - (\(x1), \(y1)) leaves the canvas")
            }
            let original = (0..<n).map { (points[$0].x, points[$0].y, points[($0 + 1) % n].x, points[($0 + 1) % n].y) }
            for _ in 0..<64 {
                let p = (x: rng.unit() * w, y: rng.unit() * h)
                guard let expected = FillStageTests.windingLeft(of: p, original),
                      let got = FillStageTests.windingLeft(of: p, clipped) else { continue }
                if got != expected {
                    return XCTFail("clipper: winding at \(p) is \(got), not \(expected) (trial \(trial), reach \(reach))")
                }
            }
        }
    }

    // MARK: - strip bucketing

    static func randomEdges(_ rng: inout SeededGenerator, count: Int, width: Float, height: Float) -> [SIMD4<Float>] {
        (0..<count).compactMap { i in
            var y0 = Float(rng.unit()) * height, y1 = Float(rng.unit()) * height
            if i % 5 == 0 { y0.round(.down); y1.round(.up) } // ends on row (and strip) boundaries
            if i % 7 == 0 { y1 = y0 + Float(rng.unit()) * 2 } // short
            y1 = min(y1, height)
            return y0 == y1 ? nil : SIMD4(Float(rng.unit()) * width, y0, Float(rng.unit()) * width, y1)
        }
    }

    /// The edges of each strip's bucket, in chain order.
    static func bucket(_ strips: FillStrips, _ s: Int) -> [SIMD4<Float>] {
        var edges: [SIMD4<Float>] = []
        strips.forEachEdge(ofStrip: s) { edges.append($0) }
        return edges
    }

    /// Each strip's bucket lists, in path order, exactly the edges whose
    /// first strip in the band it is, and the band's walk gives each strip
    /// exactly the edges whose rows meet it (brute force; as a multiset,
    /// carried ones first), whichever run of strips a band buckets -- 300
    /// edges in 7 strips, so buckets of several blocks, and edges carried
    /// across several strips -- and the crossing count sizing the samplers'
    /// lists is the largest per strip.
    func testStripBucketingAndWalkMatchBruteForceWhateverTheBanding() {
        let (width, height) = (40, 200)
        var rng = SeededGenerator(seed: 3)
        let list = FillStageTests.randomEdges(&rng, count: 300, width: Float(width), height: Float(height))
        let all = FillStrips.covering(0..<height)
        XCTAssertEqual(all, 0..<7, "strips: 200 rows are 7 strips of 32")
        func rows(_ e: SIMD4<Float>) -> Range<Int> { Int(min(e.y, e.w).rounded(.down)) ..< Int(max(e.y, e.w).rounded(.up)) }
        func key(_ e: SIMD4<Float>) -> [UInt32] { [e.x.bitPattern, e.y.bitPattern, e.z.bitPattern, e.w.bitPattern] }
        for samples in [0, 2, 4] {
            for band in [all, 0..<1, 2..<5, 6..<7] {
                let scratch = Scratch()
                let strips = list.withUnsafeBufferPointer { FillStrips($0, samples: samples, range: band, scratch: scratch) }
                var walk = FillStripWalk(strips, scratch: scratch)
                var most = 0
                for s in 0..<strips.count {
                    let strip = (band.lowerBound + s) * 32 ..< (band.lowerBound + s + 1) * 32
                    let bandRows = band.lowerBound * 32 ..< band.upperBound * 32
                    let touching = list.filter { rows($0).overlaps(strip) }
                    let firsts = touching.filter { e in
                        let first = max(rows(e).lowerBound, bandRows.lowerBound)
                        return strip.contains(first)
                    }
                    let bucket = withExtendedLifetime(scratch) { FillStageTests.bucket(strips, s) }
                    XCTAssertTrue(bucket == firsts, "strips: bucket of strip \(band.lowerBound + s) in band \(band): "
                                  + "\(bucket.count) edges, \(firsts.count) expected")
                    var walked: [SIMD4<Float>] = []
                    withExtendedLifetime(scratch) {
                        walk.forEachEdge(ofStrip: s) { walked.append($0) }
                        var again: [SIMD4<Float>] = []
                        walk.forEachEdge(ofStrip: s, carryingBelow: strip.upperBound) { again.append($0) }
                        XCTAssertTrue(again == walked, "walk: strip \(band.lowerBound + s) listed twice alike")
                    }
                    XCTAssertTrue(walked.map(key).sorted { $0.lexicographicallyPrecedes($1) }
                                    == touching.map(key).sorted { $0.lexicographicallyPrecedes($1) },
                                  "walk: edges of strip \(band.lowerBound + s) in band \(band): "
                                  + "\(walked.count) edges, \(touching.count) expected")
                    if samples > 0 {
                        let lo = strip.lowerBound * samples, hi = strip.upperBound * samples
                        let n = touching.reduce(0) { n, e in
                            let k0 = Int((min(e.y, e.w) * Float(samples) - 0.5).rounded(.up))
                            let k1 = Int((max(e.y, e.w) * Float(samples) - 0.5).rounded(.up))
                            return n + max(0, min(k1, hi) - max(k0, lo))
                        }
                        most = max(most, n)
                    }
                }
                XCTAssertEqual(strips.maxCrossings, most, "strips: crossing count, samples \(samples), band \(band)")
                XCTAssertEqual(strips.isEmpty, (0..<strips.count).allSatisfy { FillStageTests.bucket(strips, $0).isEmpty },
                               "strips: isEmpty, band \(band)")
            }
        }
    }

    /// The one-pass front end (a band's path flattened and clipped straight
    /// into its strips' buckets) gives each bucket exactly the edges the
    /// whole canvas's list (`FillEdges.prepare`) bucketed afterwards gives
    /// it, bit for bit and in order, for every banding: a band's culling
    /// changes no edge it keeps. A path with curves crowded and lone, off
    /// the canvas's left and right, and across strip boundaries.
    func testBucketsMadeWhileClippingAreThoseOfTheWholeCanvasList() throws {
        let fill = try PathFill(svg: "M 10 10 C 300 -50 400 500 20 380 Q 200 200 10 10 Z M -50 50 L 350 60 L 200 390 Z "
                                + "M 300 300 C 500 310 510 390 300 395 C 280 350 290 320 300 300 Z",
                                color: Color(straightR: 0xFF, g: 0, b: 0))
        let (width, height) = (400, 400)
        let all = FillStrips.covering(0..<height)
        for variant in [FillVariant.exact, .ss4] {
            let whole = Scratch()
            let edges = FillEdges.prepare(fill, variant: variant, width: width, height: height, scratch: whole)
            let list = withExtendedLifetime(whole) { (0..<edges.count).map { edges.edges[$0] } }
            XCTAssertGreaterThan(list.count, 100)
            for band in [all, 0..<1, 3..<8, 12..<13] {
                let a = Scratch(), b = Scratch()
                let made = FillStrips.prepare(fill, variant: variant, width: width, height: height, range: band, scratch: a)
                let after = list.withUnsafeBufferPointer {
                    FillStrips($0, samples: variant.samplesPerAxis ?? 0, range: band, scratch: b)
                }
                for s in 0..<made.count {
                    let got = withExtendedLifetime(a) { FillStageTests.bucket(made, s) }
                    let expected = withExtendedLifetime(b) { FillStageTests.bucket(after, s) }
                    XCTAssertTrue(got == expected, "buckets: strip \(band.lowerBound + s) of band \(band), \(variant): "
                                  + "\(got.count) edges, \(expected.count) from the list")
                }
                XCTAssertEqual(made.maxCrossings, after.maxCrossings, "buckets: crossings, band \(band), \(variant)")
            }
        }
    }

    /// `FillEdges.prepare` (the naive schedule's list) clips into the memory
    /// its slot already holds and, when the edges overrun it, sizes it for
    /// every segment and clips again: the edges are those a fresh scratch
    /// gives, whether the held memory was too small by far, by one edge, or
    /// large enough.
    func testEdgesThatOverrunTheHeldMemoryAreClippedAgain() throws {
        let fill = try PathFill(svg: "M 10 10 C 300 -50 400 500 20 380 Q 200 200 10 10 Z M 50 50 L 350 60 L 200 390 Z",
                                color: Color(straightR: 0xFF, g: 0, b: 0))
        // (The edges live in the scratch: each is kept alive while they are read.)
        let first = Scratch()
        let fresh = FillEdges.prepare(fill, variant: .exact, width: 400, height: 400, scratch: first)
        let expected = withExtendedLifetime(first) { (0..<fresh.count).map { fresh.edges[$0] } }
        XCTAssertGreaterThan(fresh.count, 100)
        for held in [1, fresh.count - 1, fresh.count, 4 * fresh.count] {
            let scratch = Scratch()
            _ = scratch.buffer(ScratchSlot.fillEdges, count: held, of: SIMD4<Float>.self)
            let edges = FillEdges.prepare(fill, variant: .exact, width: 400, height: 400, scratch: scratch)
            let got = withExtendedLifetime(scratch) { (0..<edges.count).map { edges.edges[$0] } }
            XCTAssertEqual(got, expected, "edges with \(held) held")
            let bounds: [Float] = [edges.minX, edges.minY, edges.maxX, edges.maxY]
            XCTAssertEqual(bounds, [fresh.minX, fresh.minY, fresh.maxX, fresh.maxY], "bounds with \(held) held")
        }
    }

    /// `FillStrips.prepare` buckets into the blocks its slot already holds
    /// and, when they run out, sizes them for every segment and buckets
    /// again: the buckets are those a fresh scratch gives, whether the held
    /// blocks were too few by far, by one, just enough or many.
    func testBucketsThatOverrunTheHeldBlocksAreMadeAgain() throws {
        let fill = try PathFill(svg: "M 10 10 C 300 -50 400 500 20 380 Q 200 200 10 10 Z M 50 50 L 350 60 L 200 390 Z",
                                color: Color(straightR: 0xFF, g: 0, b: 0))
        let band = FillStrips.covering(0..<400)
        // (The buckets live in the scratch: each is kept alive while they are read.)
        let first = Scratch()
        let fresh = FillStrips.prepare(fill, variant: .exact, width: 400, height: 400, range: band, scratch: first)
        let expected = withExtendedLifetime(first) { (0..<fresh.count).map { FillStageTests.bucket(fresh, $0) } }
        XCTAssertGreaterThan(fresh.blocksUsed, band.count, "several blocks in some strip")
        for held in [1, fresh.blocksUsed - 1, fresh.blocksUsed, 4 * fresh.blocksUsed] {
            let scratch = Scratch()
            _ = scratch.buffer(ScratchSlot.fillEdges, count: held * FillStrips.slots, of: SIMD4<Float>.self)
            let strips = FillStrips.prepare(fill, variant: .exact, width: 400, height: 400, range: band, scratch: scratch)
            let got = withExtendedLifetime(scratch) { (0..<strips.count).map { FillStageTests.bucket(strips, $0) } }
            XCTAssertTrue(got == expected, "buckets with \(held) blocks held")
            XCTAssertEqual(strips.edgeCount, fresh.edgeCount, "edges with \(held) blocks held")
        }
    }

    // MARK: - the opaque 15-bit blend

    /// raster_fill.h's `raster_fill_blend16_opaque` as its portable build
    /// computes it: m15 = min(round(m 2^15), 2^15 - 1), each channel
    /// d + ((c - d) m15 + 2^14) >> 15.
    static func opaqueRule(_ d: UInt32, _ m: Float, _ color: UInt32) -> UInt32 {
        let m15 = min(Int32((m * 32768).rounded(.toNearestOrEven)), 32767)
        var out: UInt32 = 0
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            let dc = Int32(d >> shift & 0xFF), cc = Int32(color >> shift & 0xFF)
            out |= UInt32(dc + (((cc - dc) &* m15 &+ 0x4000) >> 15)) << shift
        }
        return out
    }

    /// The opaque colour's partial-coverage blend, as the simd schedule
    /// calls it (so as RasterKit compiles the header for the host's vector
    /// ISA), against its scalar integer rule bit for bit, and against the
    /// exact blend d + (c - d) m: never more than one unit away, and off by
    /// one only where the exact value lies within 0.008 of a half (the
    /// header's accuracy argument). Random pixels and colours; coverage 0,
    /// 1, just below 1, on 2^-15 ties and at random.
    func testOpaqueBlendMatchesItsIntegerRuleAndIsWithinItsBoundOfTheFormula() {
        var rng = SeededGenerator(seed: 23)
        let special: [Float] = [0, 1, 1 - 0x1p-16, 1 - 0x1p-15, 0x1p-16, 0.5, 0.5 + 0x1p-16, 3 * 0x1p-16]
        var flipped = 0, channels = 0
        for trial in 0..<2000 {
            let colour = UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000
            var d = [UInt32](repeating: 0, count: 16), m = [Float](repeating: 0, count: 16)
            for l in 0..<16 {
                d[l] = UInt32(truncatingIfNeeded: rng.next())
                m[l] = trial % 4 == 0 ? special[Int(rng.unit() * Double(special.count))] : Float(rng.unit())
            }
            var out = d
            out.withUnsafeMutableBufferPointer { px in
                m.withUnsafeBufferPointer { raster_fill_blend16_opaque(px.baseAddress!, $0.baseAddress!, colour) }
            }
            for l in 0..<16 {
                XCTAssertEqual(out[l], FillStageTests.opaqueRule(d[l], m[l], colour), "opaque blend: case \(trial) pixel \(l)")
                for shift in stride(from: UInt32(0), to: 32, by: 8) {
                    let dc = Double(d[l] >> shift & 0xFF), cc = Double(colour >> shift & 0xFF)
                    let exact = dc + (cc - dc) * Double(m[l])
                    let got = Double(out[l] >> shift & 0xFF), rounded = (exact + 0.5).rounded(.down)
                    channels += 1
                    if got != rounded {
                        flipped += 1
                        XCTAssertEqual(abs(got - rounded), 1, "opaque blend: case \(trial) pixel \(l) channel \(shift / 8)")
                        XCTAssertLessThanOrEqual(abs(exact - exact.rounded(.down) - 0.5), 0.008,
                                                 "opaque blend: off by one away from a half, case \(trial) pixel \(l)")
                    }
                }
            }
        }
        // Flips are the rare near-half values (about 1.6% of random ones at most).
        XCTAssertLessThan(Double(flipped) / Double(channels), 0.02, "opaque blend: \(flipped) of \(channels) channels off by one")
    }

    /// A whole chunk under an opaque colour goes from its windings to its
    /// pixels in integers (raster_fill.h's `raster_fill_chunk16_opaque`, both
    /// schedules' path): the same pixels as the 15-bit blend of the rule's
    /// float coverage, for both rules, at the rule's boundaries, at the
    /// coverages where m15's rounding ties (x / 64 = q + 1/2) and on random
    /// windings.
    func testChunkFromWindingsIsTheBlendOfTheRulesCoverage() {
        var rng = SeededGenerator(seed: 29)
        let boundaries = FillStageTests.ruleBoundaries
        for trial in 0..<3000 {
            let colour = UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000
            let evenOdd = trial % 2 == 1
            var a = [UInt32](repeating: 0, count: 16), d = [UInt32](repeating: 0, count: 16)
            for l in 0..<16 {
                d[l] = UInt32(truncatingIfNeeded: rng.next())
                switch (trial / 2 + l) % 3 {
                case 0: a[l] = boundaries[Int(rng.unit() * Double(boundaries.count))]
                case 1: // a tie of m15's rounding, either sign
                    let tie = Int32(64 * Int(rng.unit() * 32768) + 32)
                    a[l] = UInt32(bitPattern: rng.unit() < 0.5 ? tie : -tie)
                default: a[l] = UInt32(truncatingIfNeeded: rng.next())
                }
            }
            let m = a.map { raster_fill_coverage($0, evenOdd ? 1 : 0) }
            var viaFloat = d, viaWindings = d
            viaFloat.withUnsafeMutableBufferPointer { px in
                m.withUnsafeBufferPointer { raster_fill_blend16_opaque(px.baseAddress!, $0.baseAddress!, colour) }
            }
            viaWindings.withUnsafeMutableBufferPointer { px in
                a.withUnsafeBufferPointer { raster_fill_chunk16_opaque(px.baseAddress!, $0.baseAddress!, evenOdd ? 1 : 0, colour) }
            }
            if viaFloat != viaWindings {
                XCTFail("chunk from windings: case \(trial) (\(evenOdd ? "even-odd" : "nonzero")) windings \(a) gave \(viaWindings), the float blend \(viaFloat)")
                return
            }
        }
    }

    /// Both schedules give every full chunk under an opaque whole-channel
    /// colour the 15-bit blend, whatever its coverages, because it is exact
    /// where the 8-bit blend the other classes took is: a coverage that
    /// rounds to 0 in 8 bits (m15 <= 64) leaves every channel d, one that
    /// rounds to 255 (m15 >= 32704) gives c. Every channel pair (d, c) at
    /// every such m15, and at the last Float coverages that round to 0
    /// and the first that round to 255 as the painter rounds them.
    func testOpaqueBlendIsExactWhereCoverageRoundsToAWholeByte() {
        let magic = Float(Lanes.magic)
        func m8(_ m: Float) -> Float { magic.addingProduct(m, 255) - magic }
        var low = Float(0.5 / 255), high = Float(254.5 / 255)
        while m8(low.nextUp) == 0 { low = low.nextUp }
        while m8(low) != 0 { low = low.nextDown }
        while m8(high.nextDown) == 255 { high = high.nextDown }
        while m8(high) != 255 { high = high.nextUp }
        var coverages: [Float] = [0, 1, low, high]
        coverages += (0...64).map { Float($0) / 32768 } + (32704...32768).map { Float($0) / 32768 }
        var checked = 0
        for m in coverages {
            let whole = m8(m)
            guard whole == 0 || whole == 255 else { continue }
            let cov = [Float](repeating: m, count: 16)
            for c in 0..<256 {
                // The colour's four channels c, c ^ 0x55, 255 - c, c ^ 0xAA; the
                // pixels' channels every d in 0...255, sixteen pixels a call.
                let colour = UInt32(c) | UInt32(c ^ 0x55) << 8 | UInt32(255 - c) << 16 | UInt32(c ^ 0xAA) << 24
                for base in stride(from: 0, to: 256, by: 16) {
                    var px = (0..<16).map { l -> UInt32 in
                        let d = UInt32(base + l)
                        return d | (d ^ 0x33) << 8 | (255 - d) << 16 | (d ^ 0xCC) << 24
                    }
                    let before = px
                    px.withUnsafeMutableBufferPointer { p in
                        cov.withUnsafeBufferPointer { raster_fill_blend16_opaque(p.baseAddress!, $0.baseAddress!, colour) }
                    }
                    for l in 0..<16 where px[l] != (whole == 0 ? before[l] : colour) {
                        XCTFail("15-bit blend not exact at m \(m) (m8 \(whole)): d \(before[l]) c \(colour) gave \(px[l])")
                        return
                    }
                    checked += 16
                }
            }
        }
        XCTAssertGreaterThan(checked, 130 * 256 * 256, "15-bit blend exactness: too few coverages checked")
    }

    // MARK: - the cell bitmap

    /// The sweep visits only the chunks whose bit is set and paints a
    /// constant run between them, so the accumulation's bitmap must mark
    /// every chunk holding a non-zero cell; and it marks only chunks that
    /// an edge crossing the row reaches (brute force: the cells from the
    /// edge's leftmost to one past its rightmost column), or the sweep
    /// does needless work. On random edges in one strip of a canvas wide
    /// enough for two bitmap words a row, some edges spanning both.
    func testCellBitmapMarksEveryNonZeroCellAndOnlyTouchedChunks() {
        let (width, rows) = (1100, FillStrips.rows)
        var rng = SeededGenerator(seed: 19)
        var list = FillStageTests.randomEdges(&rng, count: 160, width: Float(width), height: Float(rows))
        for i in 0..<20 { // long shallow edges across the word boundary (chunk 64, cell 1024)
            let y = Float(i) * 1.5 + Float(rng.unit())
            list.append(SIMD4(Float(rng.unit()) * 500, y, 1000 + Float(rng.unit()) * 100, y + Float(rng.unit()) * 3 + 0.1))
        }
        let scratch = Scratch()
        let strips = list.withUnsafeBufferPointer { FillStrips($0, samples: 0, range: 0..<1, scratch: scratch) }
        var walk = FillStripWalk(strips, scratch: scratch)
        let layout = CellLayout(cells: 0 ..< width + 2, rows: 0..<rows)
        XCTAssertEqual(layout.words, 2, "bitmap: two words a row")
        let cellCount = rows * layout.stride + SIMDFillAccumulator.cellGuard, wordCount = rows * layout.words
        let cells = UnsafeMutablePointer<UInt32>.allocate(capacity: cellCount)
        let bitmap = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount)
        let lanes = UnsafeMutablePointer<Float16Lanes>.allocate(capacity: SIMDFillAccumulator.laneVectors)
        defer { cells.deallocate(); bitmap.deallocate(); lanes.deallocate() }
        cells.initialize(repeating: 0, count: cellCount)
        bitmap.initialize(repeating: 0, count: wordCount)
        lanes.initialize(repeating: Float16Lanes(), count: SIMDFillAccumulator.laneVectors)
        let store = SIMDFillCells(layout: layout, cells: cells, bitmap: bitmap)
        SIMDFillAccumulator(cells: store, lanes: lanes)
            .add(&walk, strip: 0, top: 0, bottom: rows)
        var marked = 0
        for y in 0..<rows {
            let row = store.cellRow(y, top: 0), bits = store.bitRow(y, top: 0)
            // Chunks an edge crossing row y may write, by brute force.
            var reach = Set<Int>()
            for e in list where min(e.y, e.w) < Float(y + 1) && max(e.y, e.w) > Float(y) {
                let first = Int(min(e.x, e.z).rounded(.down)), last = Int(max(e.x, e.z).rounded(.down)) + 1
                for chunk in (first >> FillLanes.shift)...(last >> FillLanes.shift) { reach.insert(chunk) }
            }
            for chunk in 0 ..< layout.stride >> FillLanes.shift {
                let set = bits[chunk >> 6] & (1 << UInt64(chunk & 63)) != 0
                let nonZero = (0..<FillLanes.width).contains { row[chunk * FillLanes.width + $0] != 0 }
                if nonZero { XCTAssertTrue(set, "bitmap: row \(y) chunk \(chunk) holds a non-zero cell but is unmarked") }
                if set { XCTAssertTrue(reach.contains(chunk), "bitmap: row \(y) chunk \(chunk) marked but no edge reaches it") }
                if set { marked += 1 }
            }
        }
        XCTAssertGreaterThan(marked, 200, "bitmap: the random edges mark many chunks")
    }

    // MARK: - the batch's transposes

    /// The staging's two transposes (raster_fill.h), whichever path the
    /// build takes, against the index arithmetic they stand for: a batch's
    /// edges, staged as rows of four floats, become four lanes vectors, and
    /// the four cells' values a batch computes in lanes become rows of four.
    func testBatchTransposesMoveEveryLaneToItsPlace() {
        let w = Int(RASTER_OMP_FILL_LANES)
        var rng = SeededGenerator(seed: 21)
        for _ in 0..<8 {
            let rows = (0..<4 * w).map { _ in Float(rng.unit() * 2000 - 1000) }
            var lanes = rows
            lanes.withUnsafeMutableBufferPointer { raster_fill_edges_to_lanes($0.baseAddress!) }
            for l in 0..<w {
                for k in 0..<4 {
                    XCTAssertEqual(lanes[k * w + l].bitPattern, rows[4 * l + k].bitPattern,
                                   "edges to lanes: edge \(l) value \(k)")
                }
            }
            let vectors = (0..<4 * w).map { _ in UInt32.random(in: .min ... .max, using: &rng) }
            var out = vectors
            out.withUnsafeMutableBufferPointer { raster_fill_lanes_to_rows($0.baseAddress!) }
            for l in 0..<w {
                for k in 0..<4 {
                    XCTAssertEqual(out[4 * l + k], vectors[k * w + l], "lanes to rows: lane \(l) vector \(k)")
                }
            }
        }
    }

    // MARK: - crossing sort

    /// Sorted by x at every length, through the insertion limit and well
    /// above it (the heap sort), with ties, negatives and the same multiset.
    func testCrossingSortAboveAndBelowItsInsertionLimit() {
        var rng = SeededGenerator(seed: 5)
        for n in Array(0...3) + [CrossingSort.insertionLimit - 1, CrossingSort.insertionLimit,
                                 CrossingSort.insertionLimit + 1, 100, 1000] {
            for trial in 0..<4 {
                let list = (0..<n).map { _ -> SIMD2<Float> in
                    let x = trial % 2 == 0 ? Float(rng.unit() * 200 - 100) : Float(Int(rng.unit() * 8)) // ties
                    return SIMD2(x, rng.unit() < 0.5 ? 1 : -1)
                }
                var sorted = list
                sorted.withUnsafeMutableBufferPointer { CrossingSort.byX($0) }
                XCTAssertEqual(sorted.map(\.x), list.map(\.x).sorted(), "crossing sort: \(n) crossings not in x order")
                let key = { (v: SIMD2<Float>) in "\(v.x),\(v.y)" }
                XCTAssertEqual(sorted.map(key).sorted(), list.map(key).sorted(), "crossing sort: \(n) crossings changed")
            }
        }
    }

    // MARK: - the painter

    /// The painter against the blend's formula per pixel, d = round(c m +
    /// d (1 - m c.a / 255)): chunks of partial coverage, whole coverage
    /// (the 8-bit path) and runs, opaque and translucent, whole and
    /// fractional colours (partial coverage under an opaque whole-channel
    /// colour: the 15-bit rule, tested against the formula below); and the
    /// 8-bit blend equal to the Float blend wherever every coverage is 0 or 1.
    func testPainterMatchesTheBlendFormula() {
        var rng = SeededGenerator(seed: 11)
        let colours = [Color(straightR: 200, g: 10, b: 90), Color(premultipliedR: 100, g: 50, b: 0, a: 128),
                       Color(straightR: 255, g: 215, b: 0, a: 192), Color(premultipliedR: 0, g: 0, b: 0, a: 0)]
        func formula(_ d: UInt32, _ m: Float, _ c: SIMD4<Float>) -> UInt32 {
            let inverse = 1 - m * (c.w / 255)
            var out: UInt32 = 0
            for ch in 0..<4 {
                let v = c[ch] * m + Float(d >> (8 * UInt32(ch)) & 0xFF) * inverse
                out |= UInt32((v + 0.5).rounded(.down)) << (8 * UInt32(ch))
            }
            return out
        }
        for colour in colours {
            let painter = FillPainter(colour)
            for trial in 0..<64 {
                var d = Word16Lanes(), m = Float16Lanes()
                for l in 0..<FillLanes.width {
                    let a = UInt32(rng.unit() * 256)
                    // Premultiplied destination pixels: channels <= alpha.
                    d[l] = (0..<3).reduce(a << 24) { $0 | UInt32(rng.unit() * Double(a + 1)) << (8 * UInt32($1)) }
                    m[l] = trial % 3 == 0 ? (rng.unit() < 0.5 ? 0 : 1) : Float(rng.unit())
                }
                if trial % 3 == 0 && painter.integral {
                    let m8 = FillPainter.coverage8(FillPainter.biased8(m))
                    XCTAssertEqual(painter.blend(d, coverage8: m8), painter.blendExact(d, coverage: m),
                                   "painter: 8-bit and Float blends differ at whole coverage, colour \(colour)")
                }
                var pixels = (0..<FillLanes.width).map { d[$0] }
                pixels.withUnsafeMutableBytes { painter.chunk($0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: FillLanes.width, coverage: m) }
                // A partly covered chunk under an opaque whole-channel colour
                // takes the 15-bit blend (tested against the formula below).
                let fifteenBit = painter.opaque && painter.integral && !FillPainter.wholeCoverage(FillPainter.biased8(m))
                for l in 0..<FillLanes.width {
                    let expected = fifteenBit ? FillStageTests.opaqueRule(d[l], m[l], painter.solid) : formula(d[l], m[l], colour.simd)
                    XCTAssertEqual(pixels[l], expected, "painter: chunk pixel \(l), coverage \(m[l]), colour \(colour)")
                }
                let coverage = m[0], count = 1 + Int(rng.unit() * 40)
                var run = (0..<count).map { d[$0 % FillLanes.width] }
                run.withUnsafeMutableBytes { painter.run($0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count, coverage: coverage) }
                let snapped = coverage < FillPainter.runEpsilon ? 0 : (coverage > 1 - FillPainter.runEpsilon ? 1 : coverage)
                let runFifteenBit = painter.opaque && painter.integral && snapped > 0 && snapped < 1
                    && !FillPainter.wholeCoverage(FillPainter.biased8(Float16Lanes(repeating: snapped)))
                for i in 0..<count {
                    let expected = runFifteenBit ? FillStageTests.opaqueRule(d[i % FillLanes.width], snapped, painter.solid)
                        : formula(d[i % FillLanes.width], snapped, colour.simd)
                    XCTAssertEqual(run[i], expected, "painter: run pixel \(i) of \(count), coverage \(coverage), colour \(colour)")
                }
            }
        }
    }
}
