import RasterKit
import RasterReference
import XCTest

/// K4's exact variant under stacked geometry, where a Float accumulation
/// loses the winding: The bound of docs/contract.md §3 (max <= 2, mean <= 0.05)
/// for every backend at threads 1, 2 and 7, and the image identical
/// across thread counts. The cases are the limits `PathFill`'s accuracy
/// statement promises: nonzero winding up to +-1000, even-odd with 100
/// overlapping copies, and 10^5 segments.
final class FillPrecisionTests: XCTestCase {
    /// One triangle, `copies` times over, on a 100 x 80 canvas. Off-grid
    /// vertices, so that edge pixels hold every partial coverage.
    static func stackedTriangles(_ copies: Int) -> Path {
        var path = Path()
        for _ in 0..<copies {
            path.move(to: Point(10.3, 5.7))
            path.line(to: Point(90.1, 40.2))
            path.line(to: Point(30.6, 75.9))
            path.close()
        }
        return path
    }

    /// A polyline of `segments` segments zigzagging between x = 5.5 and
    /// x = 94.5 while descending from y = 4.25 to 75.75, closed by one edge
    /// back up: ~1,400 near-horizontal segments cross each row, each adding
    /// a sliver of winding, so every pixel's winding is a sum of a
    /// thousand-odd small terms and wide spans.
    static func zigzag(_ segments: Int) -> Path {
        var path = Path()
        path.move(to: Point(5.5, 4.25))
        for k in 1...segments {
            let y = 4.25 + 71.5 * Double(k) / Double(segments)
            path.line(to: Point(k % 2 == 1 ? 94.5 : 5.5, y))
        }
        path.close()
        return path
    }

    /// `segments` near-vertical segments alternating between y = 4.25 and
    /// y = 75.75 while x advances from 5.5 to 94.5: every row holds ~1,100
    /// steps of alternating winding +-1 per pixel column, which a Float
    /// cell sums with cancellation.
    static func verticalZigzag(_ segments: Int) -> Path {
        var path = Path()
        path.move(to: Point(5.5, 4.25))
        for k in 1...segments {
            path.line(to: Point(5.5 + 89 * Double(k) / Double(segments), k % 2 == 1 ? 75.75 : 4.25))
        }
        path.close()
        return path
    }

    /// (name, fill) per case, on a 100 x 80 canvas.
    static func cases() throws -> [(String, PathFill)] {
        let colour = Color(straightR: 0x20, g: 0x60, b: 0xE0)
        // Fractional premultiplied channels: the Float blend, exact but for
        // the final rounding. (An opaque colour takes the simd/openmp 8-bit
        // blend, whose double rounding moves ~7% of the zigzag's channels,
        // every one of them partly covered, by 1: a compositing error, not
        // accumulation; see the report.)
        let translucent = Color(straightR: 0xFF, g: 0xD7, b: 0x00, a: 0xC0)
        return [
            ("1,000 stacked triangles, nonzero", try PathFill(path: stackedTriangles(1000), rule: .nonzero, color: colour)),
            ("100,000-segment zigzag, nonzero", try PathFill(path: zigzag(100_000), rule: .nonzero, color: translucent)),
            ("100,000-segment zigzag, even-odd", try PathFill(path: zigzag(100_000), rule: .evenodd, color: translucent)),
            ("100 stacked triangles, even-odd", try PathFill(path: stackedTriangles(100), rule: .evenodd, color: colour)),
            ("101 stacked triangles, even-odd", try PathFill(path: stackedTriangles(101), rule: .evenodd, color: colour)),
        ]
    }

    func testStackedGeometryWithinSpecBoundOnEveryBackend() throws {
        let width = 100, height = 80
        for (name, fill) in try FillPrecisionTests.cases() {
            let bg = try FillTests.background(width: width, height: height)
            let reference = Reference.fill(fill, onto: bg.view)
            for backend in backendMatrix {
                let image = try FillTests.background(width: width, height: height)
                try backend.fill(fill, variant: .exact, onto: image.view, scratch: Scratch())
                let diff = ImageDiff(image.view, reference: reference)
                print(String(format: "precision %@ %@: max %.0f mean %.4f", name, label(backend), diff.maxError, diff.meanError))
                XCTAssertLessThanOrEqual(diff.maxError, 2, "\(name) \(label(backend)): \(diff)")
                XCTAssertLessThanOrEqual(diff.meanError, 0.05, "\(name) \(label(backend)): \(diff)")
            }
        }
    }

    /// Beyond the promised range: 10,001 copies under even-odd (the issue's
    /// report). Measured and printed, held to a loose bound that a lost
    /// winding (errors of ~100 and more) breaks.
    func testTenThousandStackedEvenOddStaysClose() throws {
        let fill = try PathFill(path: FillPrecisionTests.stackedTriangles(10_001), rule: .evenodd,
                                color: Color(straightR: 0x20, g: 0x60, b: 0xE0))
        let bg = try FillTests.background(width: 100, height: 80)
        let reference = Reference.fill(fill, onto: bg.view)
        for backend in backendMatrix {
            let image = try FillTests.background(width: 100, height: 80)
            try backend.fill(fill, variant: .exact, onto: image.view, scratch: Scratch())
            let diff = ImageDiff(image.view, reference: reference)
            print(String(format: "precision 10,001 stacked even-odd %@: max %.0f mean %.4f", label(backend), diff.maxError, diff.meanError))
            XCTAssertLessThanOrEqual(diff.maxError, 16, "\(label(backend)): \(diff)")
            XCTAssertLessThanOrEqual(diff.meanError, 0.05, "\(label(backend)): \(diff)")
        }
    }

    /// Stacked geometry with every variant: the thread count never changes a byte.
    func testThreadCountDoesNotChangeStackedFills() throws {
        for (name, fill) in try FillPrecisionTests.cases() {
            for kind in BackendKind.allCases where kind != .naive {
                for variant in [FillVariant.exact, .ss16] {
                    var first: [UInt8]?
                    for threads in [1, 2, 7] {
                        let image = try FillTests.background(width: 100, height: 80)
                        try kind.make(threads: threads).fill(fill, variant: variant, onto: image.view, scratch: Scratch())
                        let bytes = Array(UnsafeBufferPointer(start: image.pixels, count: image.stride * image.height))
                        if let f = first { XCTAssertEqual(f, bytes, "\(name) \(kind) \(variant) threads \(threads)") } else { first = bytes }
                    }
                }
            }
        }
    }
}
