import RasterHarness
import RasterKit
import XCTest

/// Report text printed to a terminal: whatever a report's fields hold
/// (escape sequences that set the title or clear the screen, a CR that
/// overwrites the line, C1's one-byte CSI, bidi overrides), no control
/// character but the newlines between lines reaches the output.
final class TerminalTextTests: XCTestCase {
    static let hostile = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\r\u{9B}31m\u{202E}evil\u{2066}\n\tz\u{7F}\u{85}"

    static func assertNoControl(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let bad = text.unicodeScalars.filter { $0 != "\n" && RasterError.isControl($0) }
        XCTAssertTrue(bad.isEmpty, "\(what): \(bad.map { String($0.value, radix: 16) })", file: file, line: line)
    }

    /// A row whose every text field is hostile.
    static func row(backend: BackendKind, status: RowStatus = .ok, median: Double = 10, kernel: String = hostile) -> ReportRow {
        var r = CompareTests.row(kernel, variant: hostile, backend: backend, samples: [median, median * 1.01, median * 0.99, median])
        r.profile = hostile; r.parameters = hostile; r.host = hostile; r.hostCPU = hostile; r.gitCommit = hostile; r.build = hostile
        r.os = hostile; r.date = hostile; r.compilerFlags = hostile; r.swiftVersion = hostile; r.note = hostile
        r.qualityOn = hostile; r.itemUnit = hostile; r.status = status
        return r
    }

    func testCompareOutputEscapesEveryField() {
        let base = [Self.row(backend: .openmp), Self.row(backend: .naive), Self.row(backend: .simd, status: .unsupported),
                    Self.row(backend: .naive, kernel: "only-base" + Self.hostile), Self.row(backend: .naive)]
        let new = [Self.row(backend: .openmp, median: 12), Self.row(backend: .naive, median: 9),
                   Self.row(backend: .simd), Self.row(backend: .naive, kernel: "only-new" + Self.hostile)]
        let c = Compare.reports(base: base, new: new, baseName: Self.hostile, newName: Self.hostile)
        XCTAssertFalse(c.pairs.isEmpty || c.skipped.isEmpty || c.onlyInBase.isEmpty || c.onlyInNew.isEmpty || c.duplicates.isEmpty)
        let text = Compare.render(c)
        Self.assertNoControl(text, "compare")
        XCTAssertTrue(text.contains("\\u{1b}]0;pwned"), "shown escaped, not dropped")
        Self.assertNoControl(Compare.render(Compare.backends(base + new, baseline: .naive, name: Self.hostile), speedups: true), "compare --baseline")
        for p in c.regressions(above: 0) { Self.assertNoControl(TerminalText.safe(p.key.description), "regression") }
    }

    func testRunTablesEscapeEveryField() {
        var rows = [Self.row(backend: .naive), Self.row(backend: .simd, status: .error)]
        for (w, t) in [(64, 1), (128, 2)] {
            var r = Self.row(backend: .naive); r.sweep = .size; r.width = w; r.height = w; r.threads = t; rows.append(r)
            var s = Self.row(backend: .naive); s.sweep = .sigma; s.parameters = "sigma=\(w)"; rows.append(s)
        }
        Self.assertNoControl(RunTable.render(rows), "run table")
        Self.assertNoControl(RunTable.problems(rows).joined(separator: "\n"), "problems")
        for t in [SweepAnalysis.threads(rows), SweepAnalysis.sizes(rows), SweepAnalysis.sigmas(rows)] {
            Self.assertNoControl(t ?? "", "sweep")
        }
        var t = TextTable([Self.hostile, "n"])
        t.add([Self.hostile, "1"])
        Self.assertNoControl(t.render(indent: "  "), "table")
    }

    func testSafeKeepsPrintableTextAndEscapesTheRest() {
        XCTAssertEqual(TerminalText.safe("± × · — ünï ✓"), "± × · — ünï ✓")
        XCTAssertEqual(TerminalText.safe("a\u{1B}[2Jb\u{9B}c\u{202E}d"), "a\\u{1b}[2Jb\\u{9b}c\\u{202e}d")
        XCTAssertEqual(TerminalText.safeLines("a\nb\r\n"), "a\nb\\r\n")
        for v: UInt32 in [0, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069] {
            XCTAssertTrue(RasterError.isControl(Unicode.Scalar(v)!), String(v, radix: 16))
        }
        for v: UInt32 in [0x20, 0x7E, 0xA0, 0xE9, 0x2014] { XCTAssertFalse(RasterError.isControl(Unicode.Scalar(v)!), String(v, radix: 16)) }
    }

    /// JSON output (`choose --json`, wisdom, JSON reports) escapes every
    /// control character, C1 and bidi included, and decodes to the same text.
    func testJSONOutputEscapesEveryControlAndRoundTrips() throws {
        struct Doc: Codable, Equatable { var name: String; var list: [String]; var psnr: Double }
        let doc = Doc(name: Self.hostile, list: [Self.hostile, "plain \u{e9}"], psnr: .infinity)
        let data = try JSONOutput.encode(doc)
        let text = String(decoding: data, as: UTF8.self)
        Self.assertNoControl(text, "JSON")
        XCTAssertTrue(text.contains("\\u009B31m\\u202Eevil\\u2066"), text)
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        XCTAssertEqual(try d.decode(Doc.self, from: data), doc)
    }
}
