import RasterKit
import RasterReference
import XCTest

/// Every backend at the thread counts the tests exercise: 1 (inline), 2 (this
/// machine's cores) and 7 (more bands than cores, and an odd split).
let backendMatrix: [any RasterBackend] = BackendKind.allCases.flatMap { kind in
    (kind == .naive ? [1] : [1, 2, 7]).map { try! kind.make(threads: $0) }
}

func label(_ b: any RasterBackend) -> String { "\(b.name)@\(b.threads)" }

/// Asserts that `image` is within `tolerance` of `reference`.
func assertWithin(_ tolerance: Tolerance, _ image: ImageView, _ reference: [Double], _ what: String,
                  file: StaticString = #filePath, line: UInt = #line) {
    let d = ImageDiff(image, reference: reference)
    XCTAssert(tolerance.accepts(d), "\(what): \(d) breaks \(tolerance)", file: file, line: line)
}

/// An image whose row padding holds a sentinel, to catch kernels that write
/// past `width * 4` bytes of a row.
func paddedImage(width: Int, height: Int, padding: Int = 36) throws -> Image {
    let image = try Image(width: width, height: height, stride: width * 4 + padding)
    for y in 0..<height { (image.pixels + y * image.stride + width * 4).update(repeating: 0xA5, count: padding) }
    return image
}

func assertPaddingIntact(_ image: Image, file: StaticString = #filePath, line: UInt = #line) {
    for y in 0..<image.height {
        let pad = image.pixels + y * image.stride + image.width * 4
        for i in 0..<(image.stride - image.width * 4) where pad[i] != 0xA5 {
            XCTFail("row \(y) padding byte \(i) overwritten", file: file, line: line)
            return
        }
    }
}
