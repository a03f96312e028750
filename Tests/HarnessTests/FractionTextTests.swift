import XCTest
import RasterHarness

/// One rule for shares, headrooms and thresholds: a bare number is a
/// fraction, `N%` a percentage, a bare number above 1 an error with a hint.
final class FractionTextTests: XCTestCase {
    func parse(_ text: String) throws -> Double {
        try FractionText.parse(text, name: "share", accepted: "0 < share <= 1") { $0 > 0 && $0 <= 1 }
    }

    func testBareNumbersAreFractionsAndPercentagesAreMarked() throws {
        XCTAssertEqual(try parse("0.25"), 0.25)
        XCTAssertEqual(try parse("1"), 1)
        XCTAssertEqual(try parse("25%"), 0.25)
        XCTAssertEqual(try parse("100%"), 1)
        XCTAssertEqual(try parse("2%"), 0.02)
        XCTAssertEqual(try Budget.parseShare("0.5"), 0.5)
    }

    func testABareNumberAboveOneIsRefusedWithTheLikelyPercentage() {
        for text in ["2", "25", "100", "1.5"] {
            XCTAssertThrowsError(try parse(text)) { e in
                XCTAssertTrue("\(e)".hasSuffix("did you mean \(text)%?)"), "\(e)")
                XCTAssertEqual("\(e)".split(separator: "\n").count, 1)
            }
        }
        XCTAssertThrowsError(try Budget.parseShare("25")) { e in XCTAssertTrue("\(e)".contains("invalid share: '25'"), "\(e)") }
    }

    func testWhatIsNoFractionIsRefused() {
        for text in ["", "%", "0", "0%", "-0.1", "101%", "0x1", "nan", "inf", " 0.5", "25 %", "1e999", "25%%"] {
            XCTAssertThrowsError(try parse(text), text)
        }
    }
}
