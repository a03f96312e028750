import RasterKit
import XCTest

final class ColorTests: XCTestCase {
    func testParsesAndPremultiplies() throws {
        let c = try Color(hex: "#FF8000")
        XCTAssertEqual(c.rgba8, RGBA8(r: 255, g: 128, b: 0, a: 255))
        let half = try Color(hex: "#FF800080")
        XCTAssertEqual(half.a, 128)
        XCTAssertEqual(half.r, 128, accuracy: 1e-12)           // 255 * 128 / 255
        XCTAssertEqual(half.g, 128.0 * 128 / 255, accuracy: 1e-12) // unrounded
        XCTAssertEqual(try Color(hex: "#12345600"), .transparent)
        XCTAssertEqual(try Color(hex: "#abcdef").rgba8, RGBA8(r: 0xAB, g: 0xCD, b: 0xEF, a: 255))
    }

    func testRejectsMalformedHex() {
        for bad in ["", "#", "FF0000", "#FF00", "#FF00000", "#GG0000", "#FF0000FF00", "# FF000", "#+F0000"] {
            XCTAssertThrowsError(try Color(hex: bad), bad)
        }
    }

    /// docs/contract.md §1: round to nearest, ties away from zero, clamped.
    func testQuantizeRoundsHalfAwayFromZero() {
        XCTAssertEqual(Color.quantize(127.5), 128)
        XCTAssertEqual(Color.quantize(127.49999), 127)
        XCTAssertEqual(Color.quantize(0.5), 1)
        XCTAssertEqual(Color.quantize(-3), 0)
        XCTAssertEqual(Color.quantize(300), 255)
    }
}
