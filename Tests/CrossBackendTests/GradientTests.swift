import RasterKit
import RasterReference
import XCTest

final class GradientTests: XCTestCase {
    func randomStops(_ rng: inout SeededGenerator) -> [Gradient.Stop] {
        let n = Int(rng.next() % 15) + 2
        return (0..<n).map { _ in rng.unit() }.sorted().map { Gradient.Stop(offset: $0, color: rng.color()) }
    }

    func testRandomLinearAndRadialMatchReference() throws {
        var rng = SeededGenerator(seed: 5150)
        for (w, h) in [(1, 1), (15, 4), (37, 11), (70, 19)] {
            for extend in ExtendMode.allCases {
                let linear = try Gradient(
                    shape: .linear(start: Point(rng.uniform(-20...80), rng.uniform(-20...40)),
                                   end: Point(rng.uniform(-20...80), rng.uniform(-20...40))),
                    stops: randomStops(&rng), extend: extend)
                let radial = try Gradient(
                    shape: .radial(center: Point(rng.uniform(-10...80), rng.uniform(-10...30)), radius: rng.uniform(0.5...60)),
                    stops: randomStops(&rng), extend: extend)
                for g in [linear, radial] {
                    let reference = Reference.gradient(g, width: w, height: h)
                    for backend in backendMatrix {
                        let image = try paddedImage(width: w, height: h)
                        try backend.gradient(g, into: image.view)
                        assertWithin(.exactGradient, image.view, reference, "\(g.shape) \(extend) \(w)x\(h) on \(label(backend))")
                        assertPaddingIntact(image)
                    }
                }
            }
        }
    }

    func testDegenerateGeometryPaintsLastStop() throws {
        let stops = [Gradient.Stop(offset: 0, color: try Color(hex: "#FF0000")),
                     Gradient.Stop(offset: 1, color: try Color(hex: "#0000FF80"))]
        let last = stops[1].color.rgba8
        for shape in [Gradient.Shape.linear(start: Point(3, 3), end: Point(3, 3)), .radial(center: Point(1, 1), radius: 0)] {
            let g = try Gradient(shape: shape, stops: stops)
            for backend in backendMatrix {
                let image = try paddedImage(width: 9, height: 4)
                try backend.gradient(g, into: image.view)
                XCTAssert((0..<4).allSatisfy { y in (0..<9).allSatisfy { image[$0, y] == last } }, "\(shape) on \(label(backend))")
                assertPaddingIntact(image)
            }
        }
    }

    /// CSS: an offset below its predecessor is raised to it.
    func testDescendingOffsetsAreRaised() throws {
        let g = try Gradient(shape: .linear(start: Point(0, 0), end: Point(1, 0)),
                             stops: [.init(offset: 0.6, color: .transparent), .init(offset: 0.2, color: .transparent)])
        XCTAssertEqual(g.stops.map(\.offset), [0.6, 0.6])
    }

    func testRejectsBadStops() {
        let c = Color.transparent
        let shape = Gradient.Shape.linear(start: Point(0, 0), end: Point(1, 0))
        XCTAssertThrowsError(try Gradient(shape: shape, stops: [.init(offset: 0, color: c)]))
        XCTAssertThrowsError(try Gradient(shape: shape, stops: [.init(offset: 0, color: c), .init(offset: 1.5, color: c)]))
        XCTAssertThrowsError(try Gradient(shape: shape, stops: [.init(offset: .nan, color: c), .init(offset: 1, color: c)]))
        XCTAssertThrowsError(try Gradient(shape: .radial(center: Point(0, 0), radius: -1), stops: [.init(offset: 0, color: c), .init(offset: 1, color: c)]))
        XCTAssertThrowsError(try Gradient(shape: .linear(start: Point(.nan, 0), end: Point(1, 0)), stops: [.init(offset: 0, color: c), .init(offset: 1, color: c)]))
    }
}
