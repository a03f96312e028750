import Foundation
import RasterHarness
import RasterKit
@testable import RasterReport
import XCTest

/// The report describes a profile from what the rows say, or says that
/// they do not: no frame size or refresh rate is made up.
final class ReportProfileTests: XCTestCase {
    func testAnUnknownProfileWithoutASizedRowHasNoFrame() {
        var r = ReportHTMLTests.row("controlpoints", backend: .simd, median: 1, host: "h", commit: "c")
        r.profile = "lab-panel"; r.width = 0; r.height = 0; r.fps = nil
        XCTAssertNil(HTMLReport.deviceProfile("lab-panel", rows: [r]))
        let data = ProfileData(profile: "lab-panel", sources: [ReportSource(path: "r.csv", rows: [r], index: 0)], rows: [[r]])
        let text = HTMLReport.summary(nil, data: data)
        XCTAssertTrue(text.hasPrefix("No frame size or refresh rate in the rows."), text)
        XCTAssertFalse(text.contains("750") || text.contains("1334"), text)
    }

    func testAnUnknownProfileTakesItsFrameFromTheRows() throws {
        var r = ReportHTMLTests.row("aurora", backend: .simd, median: 1, size: (320, 480), host: "h", commit: "c")
        r.profile = "lab-panel"; r.fps = 90
        let p = try XCTUnwrap(HTMLReport.deviceProfile("lab-panel", rows: [r]))
        XCTAssertEqual([p.width, p.height], [320, 480]); XCTAssertEqual(p.fps, 90)
        XCTAssertEqual(HTMLReport.deviceProfile("iphone-6", rows: [])?.name, "iphone-6")
    }

    func testScenesOfAProfileWithoutAFrameAreNotDrawnAndSaySo() throws {
        var r = ReportHTMLTests.row("aurora", backend: .simd, median: 1, size: (0, 0), host: "h", commit: "c")
        r.profile = "lab-panel"; r.fps = nil
        let html = try HTMLReport.html([ReportSource(path: "r.csv", rows: [r], index: 0)], options: ReportHTMLTests.quick)
        XCTAssertTrue(html.contains("aurora is not drawn: the rows give no frame size"))
        XCTAssertFalse(html.contains("750×1334"))
    }
}
