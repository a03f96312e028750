import RasterKit
import RasterReference
import XCTest

final class CompositeTests: XCTestCase {
    func testRandomImagesMatchReference() throws {
        var rng = SeededGenerator(seed: 42)
        for (w, h) in [(1, 1), (16, 1), (17, 3), (50, 21)] {
            let src = try rng.image(width: w, height: h, stride: w * 4 + 8)
            let under = try rng.image(width: w, height: h)
            for opacity in [0.0, 0.25, 0.999, 1.0] {
                let reference = Reference.composite(src.view, onto: under.view, opacity: opacity)
                for backend in backendMatrix {
                    let dst = try paddedImage(width: w, height: h)
                    dst.view.copy(from: under.view)
                    try backend.composite(src.view, onto: dst.view, opacity: opacity)
                    assertWithin(.exactComposite, dst.view, reference, "opacity \(opacity) \(w)x\(h) on \(label(backend))")
                    assertPaddingIntact(dst)
                }
            }
        }
    }

    /// Opaque source at full opacity replaces; transparent source changes nothing.
    func testIdentities() throws {
        var rng = SeededGenerator(seed: 1)
        let dstBytes = try rng.image(width: 13, height: 3)
        let opaque = try Image(width: 13, height: 3); opaque.fill(RGBA8(r: 10, g: 20, b: 30, a: 255))
        let clear = try Image(width: 13, height: 3)
        for backend in backendMatrix {
            let d = try Image(width: 13, height: 3); d.view.copy(from: dstBytes.view)
            try backend.composite(clear.view, onto: d.view, opacity: 1)
            XCTAssertEqual(d.packedBytes, dstBytes.packedBytes, label(backend))
            try backend.composite(opaque.view, onto: d.view, opacity: 1)
            XCTAssertEqual(d.packedBytes, opaque.packedBytes, label(backend))
        }
    }

    func testRejectsBadOpacityAndSizes() throws {
        let a = try Image(width: 4, height: 4), b = try Image(width: 5, height: 4)
        for backend in backendMatrix {
            for bad in [-0.1, 1.01, .nan, .infinity] {
                XCTAssertThrowsError(try backend.composite(a.view, onto: a.view, opacity: bad), "\(bad) on \(label(backend))")
            }
            XCTAssertThrowsError(try backend.composite(a.view, onto: b.view, opacity: 1))
        }
    }
}
