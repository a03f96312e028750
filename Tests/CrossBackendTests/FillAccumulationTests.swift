import RasterKit
import RasterReference
import XCTest

/// K4's accumulation stage alone (`FillStages.windings`: cells plus row
/// prefix sums, before the rule and the composite), per backend, against an
/// exact Double accumulation of the same Float edges, so a failure names
/// the stage. Beyond accuracy, the fixed-point cells promise exactness:
/// order does not matter, N copies give exactly N times the winding, and
/// right of a closed path the winding is exactly 0.
final class FillAccumulationTests: XCTestCase {
    static let width = 64, height = 48

    /// Random closed polygons with Float vertices inside the canvas (some
    /// on whole rows), as the clipper would hand them over.
    static func edges(seed: UInt64) -> [SIMD4<Float>] {
        var rng = SeededGenerator(seed: seed)
        var out: [SIMD4<Float>] = []
        for p in 0..<24 {
            let n = 3 + Int(rng.unit() * 6)
            let points = (0..<n).map { _ -> SIMD2<Float> in
                var y = Float(rng.unit() * Double(height))
                if p % 4 == 0 { y = y.rounded(.down) }
                return SIMD2(Float(rng.unit() * Double(width)), y)
            }
            for i in 0..<n {
                let a = points[i], b = points[(i + 1) % n]
                if a.y != b.y { out.append(SIMD4(a.x, a.y, b.x, b.y)) }
            }
        }
        return out
    }

    /// The exact signed area right of each edge per pixel, in Double:
    /// a step from (xa, ya) to (xz, yz) in one row adds to column i
    /// dir (yz - ya) times the mean over the step of clamp(i + 1 - x, 0, 1).
    static func exact(_ edges: [SIMD4<Float>]) -> (winding: [Double], steps: [Int]) {
        let columns = width + 2
        var out = [Double](repeating: 0, count: height * columns)
        var steps = [Int](repeating: 0, count: height)
        // Integral of clamp(x - i, 0, 1).
        func k(_ x: Double, _ i: Double) -> Double {
            x <= i ? 0 : (x < i + 1 ? (x - i) * (x - i) / 2 : x - i - 0.5)
        }
        for e in edges {
            let (x0, y0, x1, y1) = (Double(e.x), Double(e.y), Double(e.z), Double(e.w))
            let dir: Double = y1 > y0 ? 1 : -1
            let (top, bottom) = (min(y0, y1), max(y0, y1))
            for row in Int(top.rounded(.down))..<Int(bottom.rounded(.up)) {
                let ya = max(top, Double(row)), yz = min(bottom, Double(row + 1))
                if yz <= ya { continue }
                steps[row] += 1
                let xa = x0 + (ya - y0) / (y1 - y0) * (x1 - x0), xz = x0 + (yz - y0) / (y1 - y0) * (x1 - x0)
                for i in 0..<columns {
                    let c = Double(i)
                    let mean = abs(xz - xa) < 1e-6
                        ? min(1, max(0, c + 1 - (xa + xz) / 2))
                        : 1 - (k(xz, c) - k(xa, c)) / (xz - xa)
                    out[row * columns + i] += dir * (yz - ya) * mean
                }
            }
        }
        return (out, steps)
    }

    func testAccumulationMatchesExactDoubleOnRandomEdges() throws {
        let columns = FillAccumulationTests.width + 2
        let one = Double(FillStages.one)
        for seed in 1...4 as ClosedRange<UInt64> {
            let edges = FillAccumulationTests.edges(seed: seed)
            let (exact, steps) = FillAccumulationTests.exact(edges)
            for kind in BackendKind.allCases {
                let w = try FillStages.windings(edges, width: FillAccumulationTests.width,
                                                height: FillAccumulationTests.height, backend: kind)
                var worst = 0.0
                for y in 0..<FillAccumulationTests.height {
                    // Float interpolation of x (<= ~4e-6 px here) and half a
                    // fixed-point unit per step, with room to spare.
                    let bound = 1e-5 * Double(steps[y]) + 1e-6
                    for x in 0..<columns {
                        let d = abs(Double(w[y * columns + x]) / one - exact[y * columns + x])
                        worst = max(worst, d)
                        if d > bound {
                            XCTFail("\(kind) seed \(seed): winding at (\(x), \(y)) is \(Double(w[y * columns + x]) / one), exact \(exact[y * columns + x]), bound \(bound)")
                            return
                        }
                    }
                    XCTAssertEqual(w[y * columns + columns - 1], 0, "\(kind) seed \(seed) row \(y): winding right of closed paths")
                }
                print(String(format: "accumulation %@ seed %d: max |winding - exact| %.2e px", kind.rawValue, Int(seed), worst))
            }
        }
    }

    func testAccumulationIsExactUnderReorderingAndStacking() throws {
        let (w, h) = (FillAccumulationTests.width, FillAccumulationTests.height)
        let edges = FillAccumulationTests.edges(seed: 9)
        for kind in BackendKind.allCases {
            let single = try FillStages.windings(edges, width: w, height: h, backend: kind)
            let reversed = try FillStages.windings(edges.reversed(), width: w, height: h, backend: kind)
            XCTAssertTrue(single == reversed, "\(kind): edge order changed the winding")
            let copies: Int32 = 1000
            let stacked = try FillStages.windings(Array(repeating: edges, count: Int(copies)).flatMap { $0 },
                                                  width: w, height: h, backend: kind)
            XCTAssertTrue(stacked == single.map { $0 &* copies }, "\(kind): 1,000 copies are not 1,000 times one")
        }
    }

    func testOutOfCanvasEdgeIsATypedError() {
        XCTAssertThrowsError(try FillStages.windings([SIMD4(-1, 0, 5, 5)], width: 8, height: 8, backend: .naive))
        XCTAssertThrowsError(try FillStages.windings([SIMD4(1, 2, 5, 2)], width: 8, height: 8, backend: .simd))
    }
}
