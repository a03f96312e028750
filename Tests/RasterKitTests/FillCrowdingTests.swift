@testable import RasterKit
import XCTest

/// K4's crowding test (`CurvePieces`) against brute force on random curves:
/// a piece flattened coarsely must be one no other piece comes within a
/// pixel of, and its run of neighbours must turn as little as the accuracy
/// argument assumes.
final class FillCrowdingTests: XCTestCase {
    /// A point of the cubic p0..p3 at t.
    static func point(_ c: (Point, Point, Point, Point), _ t: Double) -> Point {
        let s = 1 - t
        return c.0 * (s * s * s) + c.1 * (3 * s * s * t) + c.2 * (3 * s * t * t) + c.3 * (t * t * t)
    }

    /// The tangent of the cubic at t (not normalised).
    static func tangent(_ c: (Point, Point, Point, Point), _ t: Double) -> Point {
        let s = 1 - t
        return (c.1 - c.0) * (s * s) + (c.2 - c.1) * (2 * s * t) + (c.3 - c.2) * (t * t)
    }

    /// The pixels a piece's arc passes through, by dense sampling (steps
    /// far below a pixel), as x * 1_000_003 + y keys.
    static func pixels(_ c: (Point, Point, Point, Point)) -> Set<Int> {
        let length = (c.1 - c.0).length + (c.2 - c.1).length + (c.3 - c.2).length
        let n = max(8, Int(length * 40))
        var out = Set<Int>()
        for k in 0...n {
            let p = point(c, Double(k) / Double(n))
            out.insert(Int(p.x.rounded(.down)) * 1_000_003 + Int(p.y.rounded(.down)))
        }
        return out
    }

    /// Random paths: smooth closed outlines (circles of four cubics, some
    /// stacked or touching), random cubics and quadratics, lines between.
    static func randomPath(_ rng: inout SeededGenerator) -> Path {
        var path = Path()
        for _ in 0..<(1 + Int(rng.next() % 4)) {
            switch rng.next() % 3 {
            case 0:
                let r = 2 + 40 * rng.unit(), cx = 100 * rng.unit(), cy = 100 * rng.unit(), k = 0.5523 * r
                path.move(to: Point(cx + r, cy))
                path.cubic(c1: Point(cx + r, cy + k), c2: Point(cx + k, cy + r), to: Point(cx, cy + r))
                path.cubic(c1: Point(cx - k, cy + r), c2: Point(cx - r, cy + k), to: Point(cx - r, cy))
                path.cubic(c1: Point(cx - r, cy - k), c2: Point(cx - k, cy - r), to: Point(cx, cy - r))
                path.cubic(c1: Point(cx + k, cy - r), c2: Point(cx + r, cy - k), to: Point(cx + r, cy))
                path.close()
            default:
                func p() -> Point { Point(100 * rng.unit(), 100 * rng.unit()) }
                path.move(to: p())
                for _ in 0..<(1 + Int(rng.next() % 5)) {
                    switch rng.next() % 3 {
                    case 0: path.line(to: p())
                    case 1: path.quad(control: p(), to: p())
                    default: path.cubic(c1: p(), c2: p(), to: p())
                    }
                }
            }
        }
        return path
    }

    /// Brute force: every two pieces whose arcs share a pixel are both
    /// crowded unless they are neighbours (end to start, barely turning),
    /// and the tangents of a lone piece and its neighbours stay within the
    /// 40.5 degrees (5 times the cone limit) the argument's bound assumes.
    func testLonePiecesMeetNoOtherPieceAndTurnLittle() throws {
        var rng = SeededGenerator(seed: 2026)
        var lonePieces = 0, crowdedPieces = 0
        let turnLimit = 5 * acos(CurvePieces.maxTurnCosine) + 1e-9
        for trial in 0..<300 {
            let path = FillCrowdingTests.randomPath(&rng)
            guard let pieces = CurvePieces(path) else { continue }
            let n = pieces.pieceCount
            let cells = (0..<n).map { FillCrowdingTests.pixels(pieces.piece($0)) }
            func joined(_ i: Int, _ j: Int) -> Bool {
                // End to start, with tangents within the cone limit.
                let a = pieces.piece(i), b = pieces.piece(j)
                guard a.3 == b.0 else { return false }
                let u = FillCrowdingTests.tangent(a, 1), v = FillCrowdingTests.tangent(b, 0)
                return u.dot(v) >= CurvePieces.maxTurnCosine * u.length * v.length - 1e-12
            }
            for i in 0..<n where pieces.lone[i] {
                lonePieces += 1
                var run = [i]
                for j in 0..<n where j != i && !cells[i].isDisjoint(with: cells[j]) {
                    XCTAssert(joined(i, j) || joined(j, i),
                              "trial \(trial): lone piece \(i) shares a pixel with piece \(j), not its neighbour, on \(path.elements)")
                    run.append(j)
                }
                // The tangent directions over the piece and every piece it
                // shares a pixel with lie within one arc of turnLimit.
                var angles: [Double] = []
                for k in run {
                    for s in 0...32 {
                        let t = FillCrowdingTests.tangent(pieces.piece(k), Double(s) / 32)
                        if t.length > 1e-9 { angles.append(atan2(t.y, t.x)) }
                    }
                }
                guard let first = angles.first else { continue }
                let spread = angles.map { a -> Double in
                    var d = a - first
                    while d > .pi { d -= 2 * .pi }
                    while d < -.pi { d += 2 * .pi }
                    return d
                }
                XCTAssertLessThanOrEqual(spread.max()! - spread.min()!, turnLimit,
                                         "trial \(trial): lone piece \(i)'s run turns too far on \(path.elements)")
            }
            crowdedPieces += pieces.lone.filter { !$0 }.count
        }
        // The test tests something: both kinds occur.
        XCTAssertGreaterThan(lonePieces, 100)
        XCTAssertGreaterThan(crowdedPieces, 100)
    }

    /// A lone outline is flattened coarsely (fewer chords than at the fine
    /// tolerance); the same outline twice is crowded everywhere, as is a
    /// curve meeting a second one, and a path without curves has no pieces.
    func testLoneOutlineIsCoarseAndStackedOutlinesAreFine() throws {
        let circle = "M 90 50 C 90 72 72 90 50 90 C 28 90 10 72 10 50 C 10 28 28 10 50 10 C 72 10 90 28 90 50 Z"
        let lone = try XCTUnwrap(CurvePieces(try Path(svg: circle)))
        XCTAssert(lone.lone.allSatisfy { $0 }, "a lone circle: every piece lone")
        let stacked = try XCTUnwrap(CurvePieces(try Path(svg: circle + " " + circle)))
        XCTAssert(stacked.lone.allSatisfy { !$0 }, "two copies of a circle: every piece crowded")
        XCTAssertNil(CurvePieces(try Path(svg: "M 0 0 L 10 0 L 10 10 Z")))

        let fine = FillVariant.exactTolerance, coarse = FillVariant.loneTolerance
        let path = try Path(svg: circle)
        let adaptive = Flattener(tolerance: fine, loneTolerance: coarse, for: path).segmentCount(path)
        XCTAssertLessThan(adaptive, Flattener(tolerance: fine).segmentCount(path))
        XCTAssertGreaterThanOrEqual(adaptive, Flattener(tolerance: coarse).segmentCount(path))
        // A flattener given another path than its own flattens it finely.
        let other = try Path(svg: "M 0 0 C 0 100 100 100 100 0 Z")
        XCTAssertEqual(Flattener(tolerance: fine, loneTolerance: coarse, for: path).segmentCount(other),
                       Flattener(tolerance: fine).segmentCount(other))
        let twice = try Path(svg: circle + " " + circle)
        // Crowded pieces at the fine tolerance: a few more chords than the
        // whole curves (each piece rounds its chord count up).
        let crowded = Flattener(tolerance: fine, loneTolerance: coarse, for: twice).segmentCount(twice)
        let whole = Flattener(tolerance: fine).segmentCount(twice)
        XCTAssert(crowded >= whole && crowded <= whole + whole / 10, "\(crowded) chords crowded, \(whole) whole")
    }

    /// The pieces' key sort (a heap sort, which allocates nothing) orders
    /// like the standard sort, at every length through the sift's edges.
    func testHeapSortOrdersAsTheStandardSort() {
        var rng = SeededGenerator(seed: 7)
        for n in [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 1000] {
            var keys = (0..<n).map { _ in Int(rng.next() % 64) - 32 }  // ties and negatives
            let want = keys.sorted()
            keys.withUnsafeMutableBufferPointer { CurvePieces.heapSort($0) }
            XCTAssertEqual(keys, want, "n \(n)")
        }
    }

    /// The pieces' chords stay within each piece's tolerance of the curve,
    /// and `segmentCount` counts what `flatten` emits.
    func testPieceChordsStayWithinTheirTolerance() throws {
        struct Collect: LineSink {
            var lines: [(Point, Point)] = []
            mutating func line(from a: Point, to b: Point) { lines.append((a, b)) }
        }
        var rng = SeededGenerator(seed: 7)
        var checked = 0
        for _ in 0..<30 {
            let path = FillCrowdingTests.randomPath(&rng)
            let flattener = Flattener(tolerance: FillVariant.exactTolerance, loneTolerance: FillVariant.loneTolerance,
                                      for: path)
            var sink = Collect()
            flattener.flatten(path, into: &sink)
            XCTAssertEqual(sink.lines.count, flattener.segmentCount(path))
            guard let pieces = flattener.pieces else { continue }
            // A piece's chords follow each other from its start to its end;
            // every fifth chord's midpoint is checked against the nearest
            // curve point (a coarse scan, then a ternary search).
            var k = 0
            for i in 0..<pieces.pieceCount {
                let c = pieces.piece(i), tolerance = pieces.lone[i] ? FillVariant.loneTolerance : FillVariant.exactTolerance
                while k < sink.lines.count && sink.lines[k].0 != c.0 { k += 1 }
                let first = k
                while k < sink.lines.count {
                    let (a, b) = sink.lines[k]
                    k += 1
                    if (k - first) % 5 == 1 {
                        let m = (a + b) * 0.5
                        func d(_ t: Double) -> Double { (FillCrowdingTests.point(c, t) - m).length }
                        let best = (0...400).min { d(Double($0) / 400) < d(Double($1) / 400) }!
                        var lo = max(0, Double(best - 1) / 400), hi = min(1, Double(best + 1) / 400)
                        for _ in 0..<60 {
                            let t1 = lo + (hi - lo) / 3, t2 = hi - (hi - lo) / 3
                            if d(t1) < d(t2) { hi = t2 } else { lo = t1 }
                        }
                        XCTAssertLessThanOrEqual(d((lo + hi) / 2), tolerance * 1.05, "piece \(i) (lone \(pieces.lone[i]))")
                        checked += 1
                    }
                    if b == c.3 { break }
                }
            }
        }
        XCTAssertGreaterThan(checked, 500)
    }

    /// One object planned path after path (as a fill's scratch keeps it,
    /// its arrays moved out for the planning and back) holds exactly what a
    /// fresh one planned from the same path holds, after paths with more
    /// pieces, fewer pieces and none (a failed plan) alike.
    func testReplanningAKeptObjectMatchesAFreshOne() throws {
        var rng = SeededGenerator(seed: 0x5EED_C0DE)
        let kept = CurvePieces()
        let lines = try Path(svg: "M 0 0 L 10 0 L 10 10 Z")
        var compared = 0
        for k in 0..<200 {
            let path = k % 7 == 3 ? lines : FillCrowdingTests.randomPath(&rng)
            let planned = kept.plan(path)
            guard let fresh = CurvePieces(path) else {
                XCTAssertFalse(planned, "path \(k): a failed plan reports it")
                continue
            }
            XCTAssert(planned, "path \(k)")
            // What a plan holds, independent of how it was made: one count
            // per curve, adding up to the pieces, four points a piece.
            let curves = path.elements.filter {
                if case .quad = $0 { return true }
                if case .cubic = $0 { return true }
                return false
            }.count
            XCTAssertEqual(kept.counts.count, curves, "path \(k)")
            XCTAssertEqual(kept.counts.reduce(0) { $0 + Int($1) }, kept.pieceCount, "path \(k)")
            XCTAssertGreaterThanOrEqual(kept.pieceCount, curves, "path \(k)")
            XCTAssertEqual(kept.points.count, 4 * kept.pieceCount, "path \(k)")
            XCTAssertEqual(kept.lone.count, kept.pieceCount, "path \(k)")
            XCTAssertEqual(kept.pieceCount, fresh.pieceCount, "path \(k)")
            XCTAssertEqual(kept.points, fresh.points, "path \(k)")
            XCTAssertEqual(kept.lone, fresh.lone, "path \(k)")
            XCTAssertEqual(kept.counts, fresh.counts, "path \(k)")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 100)
    }
}
