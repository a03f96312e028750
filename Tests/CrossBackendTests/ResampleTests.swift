import RasterKit
import RasterReference
import XCTest

/// `RasterBackend.resample`: bilinear RGBA8 between any sizes.
final class ResampleTests: XCTestCase {
    func randomImage(_ rng: inout SeededGenerator, width: Int, height: Int, padding: Int) throws -> Image {
        let image = try paddedImage(width: width, height: height, padding: padding)
        for y in 0..<height {
            for x in 0..<4 * width { image.view.row(y)[x] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        return image
    }

    /// Up (x2, x4, x1.37, 80 -> 1334), down (plain bilinear, also by more
    /// than 2), non-uniform x/y ratios, 1-pixel sources and targets, padded
    /// strides on both sides, every backend at 1/2/7 threads: within 1 of
    /// the double reference, padding untouched, bytes identical across
    /// thread counts.
    func testMatchesReference() throws {
        var rng = SeededGenerator(seed: 404)
        let sizes: [((Int, Int), (Int, Int))] = [
            ((10, 7), (20, 14)), ((5, 3), (20, 12)), ((100, 73), (137, 100)), ((80, 12), (1334, 20)),
            ((6, 45), (100, 750)), ((30, 20), (41, 80)), ((137, 100), (40, 23)), ((64, 64), (7, 9)),
            ((1, 1), (7, 5)), ((1, 9), (5, 4)), ((9, 1), (3, 6)), ((9, 7), (1, 1)), ((17, 3), (17, 3)),
        ]
        for ((sw, sh), (w, h)) in sizes {
            let src = try randomImage(&rng, width: sw, height: sh, padding: 12)
            let reference = Reference.resample(src.view, width: w, height: h)
            var bytes: [BackendKind: [UInt8]] = [:]
            for backend in backendMatrix {
                let dst = try paddedImage(width: w, height: h)
                try backend.resample(src.view, into: dst.view, scratch: Scratch())
                assertWithin(.exactGradient, dst.view, reference, "\(sw)x\(sh) -> \(w)x\(h) on \(label(backend))")
                assertPaddingIntact(dst)
                if let first = bytes[backend.kind] {
                    XCTAssertTrue(first == dst.packedBytes, "\(sw)x\(sh) -> \(w)x\(h) on \(label(backend)) differs across threads")
                } else {
                    bytes[backend.kind] = dst.packedBytes
                }
            }
        }
    }

    /// An identity resample copies; a 1x1 source paints its pixel everywhere.
    func testIdentityAndFlat() throws {
        var rng = SeededGenerator(seed: 9)
        let src = try randomImage(&rng, width: 23, height: 11, padding: 4)
        let dot = try randomImage(&rng, width: 1, height: 1, padding: 0)
        for backend in backendMatrix {
            let same = try Image(width: 23, height: 11)
            try backend.resample(src.view, into: same.view, scratch: Scratch())
            XCTAssertEqual(same.packedBytes, src.packedBytes, label(backend))
            let flat = try Image(width: 9, height: 4)
            try backend.resample(dot.view, into: flat.view, scratch: Scratch())
            XCTAssertEqual(flat.packedBytes, Array(Array(repeating: dot.packedBytes, count: 36).joined()), label(backend))
        }
    }

    /// One scratch reused across sizes (as a scene reuses it every frame).
    func testScratchReuseAcrossSizes() throws {
        var rng = SeededGenerator(seed: 10)
        let scratch = Scratch()
        for ((sw, sh), (w, h)) in [((40, 30), (7, 5)), ((3, 2), (60, 61)), ((40, 30), (80, 60))] {
            let src = try randomImage(&rng, width: sw, height: sh, padding: 0)
            let reference = Reference.resample(src.view, width: w, height: h)
            for kind in BackendKind.allCases {
                let dst = try Image(width: w, height: h)
                try kind.make(threads: 2).resample(src.view, into: dst.view, scratch: scratch)
                assertWithin(.exactGradient, dst.view, reference, "\(kind) \(sw)x\(sh) -> \(w)x\(h) reused scratch")
            }
        }
    }
}
