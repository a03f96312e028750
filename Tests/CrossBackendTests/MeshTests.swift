import RasterKit
import RasterReference
import XCTest

final class MeshTests: XCTestCase {
    func testNaiveVerifyCases() throws {
        for c in try VerifySuite.cases() where c.kernel == "mesh" {
            let t0 = Date()
            let d = try c.check(NaiveBackend())
            print("\(c.name) \(c.variant): \(d) ref+check \(Date().timeIntervalSince(t0)) s")
        }
    }
}
