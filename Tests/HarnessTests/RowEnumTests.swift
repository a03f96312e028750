import Foundation
import XCTest
import RasterKit
@testable import RasterHarness

/// `ReportRow.status` and `.sweep` are enums; the CSV and JSON texts are
/// the ones reports had when they were strings.
final class RowEnumTests: XCTestCase {
    func testCSVTextOfStatusAndSweepIsUnchanged() throws {
        var a = ReportRow(); a.kernel = "blur"; a.variant = "iir"; a.backend = .simd; a.medianMs = 1
        var b = a; b.sweep = .sigma; b.parameters = "sigma=4"
        var c = a; c.status = .unsupported; c.medianMs = nil
        let text = ReportCSV.document([a, b, c])
        let lines = text.components(separatedBy: "\r\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let (s, w) = (header.firstIndex(of: "status")!, header.firstIndex(of: "sweep")!)
        let fields = lines[1...3].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(fields.map { $0[s] }, ["ok", "ok", "unsupported"])
        XCTAssertEqual(fields.map { $0[w] }, ["", "sigma", ""])
        XCTAssertEqual(try ReportCSV.parse(text), [a, b, c])
        // An unknown status is a malformed report, named.
        let bad = text.replacingOccurrences(of: ",unsupported,", with: ",exploded,")
        XCTAssertThrowsError(try ReportCSV.parse(bad, path: "r.csv")) { e in
            XCTAssertTrue("\(e)".contains("status 'exploded'"), "\(e)")
        }
    }

    func testJSONTextOfStatusAndSweepIsUnchanged() throws {
        var a = ReportRow(); a.sweep = .size; a.status = .error
        let json = String(decoding: try JSONEncoder().encode([a, ReportRow()]), as: UTF8.self)
        XCTAssertTrue(json.contains(#""sweep":"size""#) && json.contains(#""status":"error""#), json)
        XCTAssertTrue(json.contains(#""sweep":"""#) && json.contains(#""status":"ok""#), json)
        XCTAssertEqual(try JSONDecoder().decode([ReportRow].self, from: Data(json.utf8)), [a, ReportRow()])
    }

    func testCommittedReportsRewriteIdentically() throws {
        let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Results").standardized
        let files = (try? FileManager.default.contentsOfDirectory(atPath: results.path))?.filter { $0.hasSuffix(".csv") } ?? []
        try XCTSkipIf(files.isEmpty, "no committed reports")
        var compared = 0
        for f in files {
            let text = try String(contentsOf: results.appendingPathComponent(f), encoding: .utf8)
            let rows = try ReportCSV.parse(text, path: f)
            guard text.hasPrefix(ReportCSV.header) else { continue } // written before a column was added
            XCTAssertEqual(ReportCSV.document(rows), text, f)
            compared += 1
        }
        if compared == 0 { throw XCTSkip("no committed report has this build's columns") }
    }
}
