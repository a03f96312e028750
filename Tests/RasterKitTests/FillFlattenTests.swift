import XCTest
import RasterKit

/// K4's flatten stage (`Flattener`) on its own: chords within tolerance,
/// sub-paths closed, chord counts set by flatness, off-canvas pieces culled.
final class FillFlattenTests: XCTestCase {
    /// Flattening: adaptive chord counts stay within tolerance and closing
    /// lines are added.
    func testFlatteningStaysWithinTolerance() throws {
        struct Collect: LineSink {
            var lines: [(Point, Point)] = []
            mutating func line(from a: Point, to b: Point) { lines.append((a, b)) }
        }
        let path = try Path(svg: "M 0 0 C 0 100 100 100 100 0")
        for tolerance in [1.0, 0.25, 0.05, 1.0 / 256] {
            var sink = Collect()
            Flattener(tolerance: tolerance).flatten(path, into: &sink)
            // Every chord's midpoint is within tolerance of the curve: the
            // curve point at the same parameter is the nearest by symmetry bounds.
            func curve(_ t: Double) -> Point {
                let s = 1 - t
                return Point(0, 0) * (s * s * s) + Point(0, 100) * (3 * s * s * t) + Point(100, 100) * (3 * s * t * t) + Point(100, 0) * (t * t * t)
            }
            var worst = 0.0
            for (a, b) in sink.lines.dropLast() {
                let m = (a + b) * 0.5
                // Coarse scan, then a ternary search around the best sample.
                var bestT = 0.0, best = Double.infinity
                for i in 0...1000 {
                    let t = Double(i) / 1000, d = (curve(t) - m).length
                    if d < best { best = d; bestT = t }
                }
                var lo = max(0, bestT - 0.001), hi = min(1, bestT + 0.001)
                for _ in 0..<80 {
                    let t1 = lo + (hi - lo) / 3, t2 = hi - (hi - lo) / 3
                    if (curve(t1) - m).length < (curve(t2) - m).length { hi = t2 } else { lo = t1 }
                }
                worst = max(worst, (curve((lo + hi) / 2) - m).length)
            }
            XCTAssertLessThanOrEqual(worst, tolerance * 1.05, "tolerance \(tolerance)")
            // Closed implicitly: the last segment returns to the start.
            XCTAssertEqual(sink.lines.last!.1, Point(0, 0))
            XCTAssertEqual(sink.lines.count - 1, Flattener(tolerance: tolerance).segmentCount(path) - 1)
        }
        // Coarser tolerance, fewer chords (split by flatness, not a fixed count).
        XCTAssertLessThan(Flattener(tolerance: 1).segmentCount(path), Flattener(tolerance: 0.05).segmentCount(path))
        // A straight "curve" needs one chord.
        XCTAssertEqual(Flattener(tolerance: 0.01).segmentCount(try Path(svg: "M 0 0 C 10 0 20 0 30 0 Z")), 2)
    }

    /// Off-canvas pieces of a huge curve cost a few chords, not millions.
    func testCullingKeepsHugeCurvesCheap() throws {
        let path = try Path(svg: "M -1e7 -1e7 C 1e7 0 -1e7 50 1e7 1e7 Z")
        let culled = Flattener(tolerance: 1.0 / 256, visible: (0, 0, 100, 100)).segmentCount(path)
        XCTAssertLessThan(culled, 20_000)
    }
}
