import Foundation
import XCTest

/// An `ImageView` does not own its pixels, so the view of a temporary
/// `Image` (`f(Image(...).view)`, `f(try make().view)`) dangles once the
/// optimiser ends the image's life, which it may do right after `.view` is
/// read: in release builds only, so debug tests and ASan do not see it. A
/// blur reference built that way read freed memory in a full run and every
/// blur row's PSNR came out as 8 dB. The image must be held in a `let` and
/// kept alive (`withExtendedLifetime`) while the view is used; this test
/// finds any `.view` taken of a call's result in the package's Swift code.
final class ImageViewLifetimeTests: XCTestCase {
    func testNoViewIsTakenOfATemporaryImage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let pattern = try NSRegularExpression(pattern: #"\)\s*\.view\b"#)
        var offenders: [String] = []
        var files = 0
        for folder in ["Sources", "Tests", "Fuzz"] {
            guard let walk = FileManager.default.enumerator(at: root.appendingPathComponent(folder),
                                                            includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where url.pathExtension == "swift" {
                files += 1
                let text = try String(contentsOf: url, encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.components(separatedBy: "//").first ?? ""
                    let range = NSRange(code.startIndex..., in: code)
                    if pattern.firstMatch(in: code, range: range) != nil {
                        offenders.append("\(url.path.dropFirst(root.path.count + 1)):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        XCTAssertGreaterThan(files, 100, "the scan found the package's sources")
        XCTAssertEqual(offenders, [], "views of temporary images:\n" + offenders.joined(separator: "\n"))
    }
}
