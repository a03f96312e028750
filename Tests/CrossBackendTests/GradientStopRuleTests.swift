import RasterKit
import RasterReference
import XCTest

/// Degenerate gradients: coincident and nearly coincident
/// stops at 0, in the middle and at 1, every extend mode, linear and radial,
/// every backend at 1/2/7 threads. The rule (`Gradient`'s doc comment): the
/// last stop at or before t starts the interval, so beyond the last offset
/// the last stop's colour wins (CSS's rule), and where stops coincide the
/// later one wins from the offset on.
final class GradientStopRuleTests: XCTestCase {
    let a = try! Color(hex: "#FF0000"), b = try! Color(hex: "#00FF00")
    let c = try! Color(hex: "#0000FF"), d = try! Color(hex: "#FFFFFF80")

    func stops(_ pairs: [(Double, Color)]) -> [Gradient.Stop] { pairs.map { Gradient.Stop(offset: $0.0, color: $0.1) } }

    /// Stop sets, each with the colour expected far beyond the last offset
    /// and before the first (pad).
    var stopSets: [(name: String, stops: [Gradient.Stop])] {
        [("two at 0", stops([(0, a), (0, b), (1, c)])),
         ("nearly two at 0", stops([(0, a), (1e-12, b), (1, c)])),
         ("two at 0.5", stops([(0, a), (0.5, b), (0.5, c), (1, d)])),
         ("nearly two at 0.5", stops([(0, a), (0.5, b), (0.5000001, c), (1, d)])),
         ("two at 1", stops([(0, a), (1, b), (1, c)])),
         ("nearly two at 1", stops([(0, a), (0.9999999999999999, b), (1, c)])),
         ("three at 1", stops([(0, a), (1, b), (1, c), (1, d)])),
         ("only two, both at 1", stops([(1, a), (1, b)])),
         ("only two, both at 0", stops([(0, a), (0, b)]))]
    }

    /// Geometry whose pixel centres never have u within Float's error of a
    /// multiple of 1/2 (linear: u = (x - 11.5) / 8 = odd / 16; radial from an
    /// integer centre: u^2 * 64 = (odd^2 + odd^2) / 4, never 16 k^2), so a
    /// hard edge cannot fall on a pixel and every backend must match exactly.
    let shapes: [(Gradient.Shape, Int, Int)] = [
        (.linear(start: Point(12, 0), end: Point(20, 0)), 40, 2),
        (.linear(start: Point(0, 12), end: Point(0, 20)), 2, 40),
        (.radial(center: Point(0, 0), radius: 8), 24, 24),
        (.radial(center: Point(11, 9), radius: 8), 30, 22)]

    func testEveryBackendFollowsTheReferenceOnCoincidentStops() throws {
        for (name, stops) in stopSets {
            for (shape, w, h) in shapes {
                for extend in ExtendMode.allCases {
                    let g = try Gradient(shape: shape, stops: stops, extend: extend)
                    let reference = Reference.gradient(g, width: w, height: h)
                    for backend in backendMatrix {
                        let image = try paddedImage(width: w, height: h)
                        try backend.gradient(g, into: image.view)
                        assertWithin(.exactGradient, image.view, reference, "\(name) \(shape) \(extend) on \(label(backend))")
                        assertPaddingIntact(image)
                    }
                }
            }
        }
    }

    /// The reference itself follows the rule (so the test above cannot pass
    /// by every implementation sharing one mistake).
    func testReferenceFollowsTheStopRule() throws {
        func colour(_ s: [Gradient.Stop], _ u: Double, _ e: ExtendMode) throws -> SIMD4<Double> {
            Reference.gradientColor(try Gradient(shape: .linear(start: Point(0, 0), end: Point(8, 0)), stops: s, extend: e), parameter: u)
        }
        // Beyond the last offset (pad): the last stop, even when it shares offset 1.
        XCTAssertEqual(try colour(stops([(0, a), (1, b), (1, c)]), 1.0625, .pad), c.components)
        XCTAssertEqual(try colour(stops([(0, a), (0.9999999999999999, b), (1, c)]), 1.0625, .pad), c.components)
        XCTAssertEqual(try colour(stops([(1, a), (1, b)]), 5, .pad), b.components)
        // Before the first offset (pad): the first stop, even when it shares offset 0.
        XCTAssertEqual(try colour(stops([(0, a), (0, b), (1, c)]), -0.0625, .pad), a.components)
        XCTAssertEqual(try colour(stops([(0, a), (0, b)]), -3, .pad), a.components)
        // Just after a coincident pair: interpolating away from the later one.
        let mid = stops([(0, a), (0.5, b), (0.5, c), (1, d)])
        XCTAssertEqual(try colour(mid, 0.5, .pad), c.components)
        XCTAssertEqual(try colour(mid, 0.75, .pad), (c.components + d.components) / 2)
        XCTAssertEqual(try colour(mid, 0.25, .pad), (a.components + b.components) / 2)
        // repeat at an integer u: t = 0, the later of the stops at 0.
        XCTAssertEqual(try colour(stops([(0, a), (0, b), (1, c)]), 2, .repeat), b.components)
        // reflect at an odd u: t = 1, the last stop.
        XCTAssertEqual(try colour(stops([(0, a), (1, b), (1, c)]), 3, .reflect), c.components)
        // Nearly coincident stops (closer than InputRange.minStopGap) are coincident.
        let near = try Gradient(shape: .radial(center: Point(0, 0), radius: 1), stops: stops([(0, a), (0.5, b), (0.5000001, c), (1, d)]))
        XCTAssertEqual(near.stops[1].offset, near.stops[2].offset)
    }

    /// The issue's two examples, pixel by pixel: x >= 8 on a 16-px row past
    /// two stops at 1 is the last stop's colour on every backend.
    func testIssueExamples() throws {
        let linear = try Gradient(shape: .linear(start: Point(0, 0), end: Point(8, 0)), stops: stops([(0, a), (1, c), (1, a)]))
        let radial = try Gradient(shape: .radial(center: Point(0, 0), radius: 8),
                                  stops: stops([(0, c), (0.9999999999999999, c), (1, a)]))
        for backend in backendMatrix {
            for g in [linear, radial] {
                let image = try Image(width: 16, height: 1)
                try backend.gradient(g, into: image.view)
                for x in 8..<16 { XCTAssertEqual(image[x, 0], a.rgba8, "x = \(x) \(g.shape) on \(label(backend))") }
            }
        }
    }
}
