import XCTest
import RasterKit
import RasterReference

/// K5 on every backend and thread count against `Reference.controlPoints`
/// (Double). Relative error is |got - reference| over the scale of the
/// anchors (the largest |coordinate|, at least 1): control points are
/// positions, so their error is judged against the size of the shape, as
/// the 1e-5 bound of docs/contract.md §3 intends (a control point near the origin of a large
/// blob has large absolute inputs and a tiny value).
final class ControlPointTests: XCTestCase {
    static let bound = 1e-5

    func check(_ anchors: [SIMD2<Float>], _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = Reference.controlPoints(anchors.map { Point(Double($0.x), Double($0.y)) })
        let scale = max(1, anchors.map { max(abs(Double($0.x)), abs(Double($0.y))) }.max() ?? 1)
        var first: [SIMD2<Float>]?
        for kind in BackendKind.allCases {
            for threads in kind == .naive ? [1] : [1, 2, 3, 8] {
                var out = [SIMD2<Float>](repeating: SIMD2(.nan, .nan), count: 2 * anchors.count)
                try anchors.withUnsafeBufferPointer { a in
                    try out.withUnsafeMutableBufferPointer { o in try kind.make(threads: threads).controlPoints(a, into: o) }
                }
                var worst = 0.0
                for (g, r) in zip(out, reference) {
                    let e = max(abs(Double(g.x) - r.x), abs(Double(g.y) - r.y)) / scale
                    worst = max(worst, e.isNaN ? .infinity : e)
                }
                XCTAssertLessThanOrEqual(worst, ControlPointTests.bound, "\(name) \(kind) x\(threads)", file: file, line: line)
                if kind != .naive {
                    if let f = first { XCTAssertEqual(out, f, "\(name) \(kind) x\(threads): depends on threads", file: file, line: line) }
                    if threads == 1 { first = out }
                }
            }
            first = nil
        }
    }

    func random(_ n: Int, seed: UInt64, scale: Float = 500) -> [SIMD2<Float>] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { i in
            let a = Double(i) / Double(n) * 2 * .pi
            let r = Double(scale) * (0.6 + 0.4 * rng.unit())
            return SIMD2(Float(r * cos(a)), Float(r * sin(a)))
        }
    }

    func testTriangle() throws { try check([SIMD2(0, 0), SIMD2(100, 0), SIMD2(50, 80)], "N = 3") }

    func testSquare() throws { try check([SIMD2(10, 10), SIMD2(90, 10), SIMD2(90, 90), SIMD2(10, 90)], "square") }

    /// Sizes around the vector width and block size exercise every tail.
    func testRandomLoopsOfManySizes() throws {
        for n in [5, 15, 16, 17, 18, 31, 33, 100, 511, 512, 513, 1025, 4099] {
            try check(random(n, seed: UInt64(n)), "random N = \(n)")
        }
    }

    func testLargeLoop() throws { try check(random(20_011, seed: 9, scale: 10_000), "N = 20011") }

    /// Coincident anchors: zero tangents and zero chords must give finite,
    /// exact results (controls on the anchors), never NaN.
    func testCoincidentAnchors() throws {
        try check([SIMD2](repeating: SIMD2(5, 7), count: 3), "all equal, N = 3")
        try check([SIMD2](repeating: SIMD2(-3, 2), count: 40), "all equal, N = 40")
        // p_{i+1} == p_{i-1} for every i: tangents are all zero.
        try check((0..<40).map { $0 % 2 == 0 ? SIMD2(0, 0) : SIMD2(10, 5) }, "alternating")
        // Runs of duplicates inside a loop.
        var loop = random(64, seed: 3)
        for i in stride(from: 0, to: 64, by: 5) { loop[i + 1] = loop[i] }
        try check(loop, "duplicated pairs")
    }

    func testBadInputIsATypedError() throws {
        for kind in BackendKind.allCases {
            let backend = try kind.make(threads: 2)
            let two: [SIMD2<Float>] = [SIMD2(0, 0), SIMD2(1, 1)]
            var out = [SIMD2<Float>](repeating: .zero, count: 4)
            XCTAssertThrowsError(try two.withUnsafeBufferPointer { a in
                try out.withUnsafeMutableBufferPointer { o in try backend.controlPoints(a, into: o) }
            })
            let three: [SIMD2<Float>] = [SIMD2(0, 0), SIMD2(1, 1), SIMD2(2, 0)]
            var short = [SIMD2<Float>](repeating: .zero, count: 5)
            XCTAssertThrowsError(try three.withUnsafeBufferPointer { a in
                try short.withUnsafeMutableBufferPointer { o in try backend.controlPoints(a, into: o) }
            })
        }
        XCTAssertThrowsError(try ControlPoints.blobPath(anchors: [Point(0, 0), Point(1, .nan), Point(2, 2)], backend: NaiveBackend()))
    }
}
