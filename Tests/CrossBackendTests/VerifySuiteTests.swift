import RasterKit
import RasterReference
import XCTest

/// The same fixed cases `rasterbench verify` runs, at 1, 2 and 7 threads.
final class VerifySuiteTests: XCTestCase {
    func testEveryCaseOnEveryBackend() throws {
        for c in try VerifySuite.cases() {
            for backend in backendMatrix {
                let d = try c.check(backend)
                XCTAssert(c.tolerance.accepts(d),
                          "\(c.kernel)/\(c.variant) '\(c.name)' on \(label(backend)): \(d) breaks \(c.tolerance)")
            }
        }
    }

    /// Results must not depend on the thread count: bit-identical images.
    func testThreadCountDoesNotChangePixels() throws {
        for c in try VerifySuite.cases() {
            for kind in [BackendKind.simd, .openmp] {
                let one = try Renderer(backend: kind.make(threads: 1), variants: c.variants).render(c.job)
                for t in [2, 3, 7] {
                    let many = try Renderer(backend: kind.make(threads: t), variants: c.variants).render(c.job)
                    XCTAssertEqual(one.packedBytes, many.packedBytes, "\(kind) \(c.name) at \(t) threads")
                }
            }
        }
    }
}
