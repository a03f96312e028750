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
