@testable import RasterKit
import RasterReference
import XCTest

/// K4's exact variant where curves are flattened coarsely (`CurvePieces`
/// marks them lone): outlines alone, outlines passing within a pixel of
/// each other, and arcs so large that their chords are long, each against
/// the reference within the bound of docs/contract.md §3 on every backend.
final class FillLoneCurveTests: XCTestCase {
    /// A circle of four cubics (the usual 0.5523 handle), optionally
    /// squashed vertically into an ellipse.
    static func circle(_ path: inout Path, cx: Double, cy: Double, r: Double, squash: Double = 1) {
        let k = 0.5523 * r, ry = r * squash, ky = k * squash
        path.move(to: Point(cx + r, cy))
        path.cubic(c1: Point(cx + r, cy + ky), c2: Point(cx + k, cy + ry), to: Point(cx, cy + ry))
        path.cubic(c1: Point(cx - k, cy + ry), c2: Point(cx - r, cy + ky), to: Point(cx - r, cy))
        path.cubic(c1: Point(cx - r, cy - ky), c2: Point(cx - k, cy - ry), to: Point(cx, cy - ry))
        path.cubic(c1: Point(cx + k, cy - ry), c2: Point(cx + r, cy - ky), to: Point(cx + r, cy))
        path.close()
    }

    func testLoneAndNearlyTouchingCurvesStayWithinSpecBound() throws {
        var rng = SeededGenerator(seed: 280)
        var paths: [(String, Path)] = []
        for i in 0..<6 {
            // One outline alone, radius 3..60, at a sub-pixel centre.
            var p = Path()
            FillLoneCurveTests.circle(&p, cx: 64 + rng.unit(), cy: 64 + rng.unit(), r: 3 + 57 * rng.unit(),
                                      squash: 0.3 + 0.7 * rng.unit())
            paths.append(("lone outline \(i)", p))
            // Two outlines 0.2..2 px apart: crowded near the gap, lone elsewhere.
            var q = Path()
            let r = 10 + 20 * rng.unit(), gap = 0.2 + 1.8 * rng.unit()
            FillLoneCurveTests.circle(&q, cx: 60 - r, cy: 64 + rng.unit(), r: r)
            FillLoneCurveTests.circle(&q, cx: 60 + gap + r, cy: 64 + rng.unit(), r: r)
            paths.append(("outlines \(gap) px apart", q))
        }
        // Arcs of circles far larger than the canvas: long chords, each
        // sagging its full tolerance across many pixels.
        var big = Path()
        FillLoneCurveTests.circle(&big, cx: 64.3, cy: 2000.7, r: 1940)
        paths.append(("an arc of radius 1940", big))
        var lone = 0
        for (name, path) in paths {
            lone += CurvePieces(path)?.lone.filter { $0 }.count ?? 0
            for rule in [FillRule.nonzero, .evenodd] {
                let fill = try PathFill(path: path, rule: rule, color: Color(straightR: 0x32, g: 0xCB, b: 0x54))
                let bg = try Image(width: 128, height: 128)  // transparent: no blend hides the error
                let reference = Reference.fill(fill, onto: bg.view)
                for kind in BackendKind.allCases {
                    for threads in kind == .naive ? [1] : [1, 2] {
                        let image = try Image(width: 128, height: 128)
                        try kind.make(threads: threads).fill(fill, variant: .exact, onto: image.view, scratch: Scratch())
                        let diff = ImageDiff(image.view, reference: reference)
                        XCTAssertLessThanOrEqual(diff.maxError, 2, "\(name) \(rule) \(kind)@\(threads): \(diff)")
                        XCTAssertLessThanOrEqual(diff.meanError, 0.05, "\(name) \(rule) \(kind)@\(threads): \(diff)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(lone, 100, "the coarse flattening was exercised")
    }
}
