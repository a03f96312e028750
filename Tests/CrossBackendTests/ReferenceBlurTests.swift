import Foundation
import XCTest
import RasterKit
import RasterReference

/// The blur reference itself, against K3's definition written out per output
/// pixel: out(x, y) = sum_j w_j sum_i w_i src(x + i, y + j), with samples
/// outside the image skipped (transparent) or clamped to the edge. Sizes
/// both above and below the kernel's reach (r = ceil(4 sigma) = 6 and 16),
/// so every split of a line into below / inside / above is met.
final class ReferenceBlurTests: XCTestCase {
    func testTheReferenceIsTheDefinition() throws {
        for (w, h) in [(9, 7), (3, 40), (1, 1)] {
            for sigma in [1.5, 4.0] {
                for edge in BlurEdge.allCases {
                    let blur = try GaussianBlur(sigma: sigma, edge: edge)
                    let source = BlurFixture.image(width: w, height: h, padding: 4, seed: UInt64(w * 31 + h))
                    let got = Reference.blur(source.view, blur)
                    let r = blur.radius
                    let taps = (-r...r).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
                    let total = taps.reduce(0, +)
                    func weight(_ k: Int) -> Double { taps[k + r] / total }
                    func sample(_ x: Int, _ y: Int, _ c: Int) -> Double? {
                        var x = x, y = y
                        if x < 0 || x >= w || y < 0 || y >= h {
                            guard edge.isClamp else { return nil }
                            x = min(max(x, 0), w - 1); y = min(max(y, 0), h - 1)
                        }
                        return Double(source.view.row(y)[4 * x + c])
                    }
                    for y in 0..<h {
                        for x in 0..<w {
                            for c in 0..<4 {
                                var want = 0.0
                                for j in -r...r {
                                    for i in -r...r {
                                        if let s = sample(x + i, y + j, c) { want += weight(j) * weight(i) * s }
                                    }
                                }
                                let label = "\(w)x\(h) sigma \(sigma) \(edge) (\(x), \(y)) channel \(c)"
                                XCTAssertEqual(got[(y * w + x) * 4 + c], want, accuracy: 1e-9 * max(1, want), label)
                            }
                        }
                    }
                }
            }
        }
    }
}
