import Foundation
import RasterHarness
import RasterKit
import XCTest

/// One set of rules for a report row, whichever format it came in: every
/// field's bad values written as CSV and as JSON are refused by both
/// readers, with the file, the line and the field; JSON errors also name
/// the column of the offending value or of the syntax error.
final class ReportRowRulesTests: XCTestCase {
    /// A valid row with every optional field set.
    static func good() -> ReportRow { CSVTests.sampleRow() }

    /// (field as CSV column, as JSON key, a bad value set on the typed row).
    static let cases: [(String, String, (inout ReportRow) -> Void)] = {
        var out: [(String, String, (inout ReportRow) -> Void)] = []
        func add(_ column: String, _ key: String, _ set: @escaping (inout ReportRow) -> Void) { out.append((column, key, set)) }
        for v in [0, -0.5, 1.5, .nan, .infinity] { add("render_scale", "renderScale") { $0.renderScale = v } }
        for v in [0, -1, BackendKind.maxThreads + 1] { add("threads", "threads") { $0.threads = v } }
        for v in [-1, Image.maxDimension + 1, Int.min] {
            add("width", "width") { $0.width = v }
            add("height", "height") { $0.height = v }
        }
        add("host_cores", "hostCores") { $0.hostCores = -1 }
        add("samples", "samples") { $0.samples = -1 }
        for v in [0, -1] { add("batch", "batch") { $0.batch = v } }
        add("median_ms", "medianMs") { $0.medianMs = nil }
        let badTimes: [Double] = [-1, 0, .nan, .infinity, -.infinity, 1e-10, 1e10, 5e-324, .greatestFiniteMagnitude]
        let times: [(String, String, WritableKeyPath<ReportRow, Double?>)] = [
            ("median_ms", "medianMs", \.medianMs), ("p95_ms", "p95Ms", \.p95Ms), ("p99_ms", "p99Ms", \.p99Ms),
            ("min_ms", "minMs", \.minMs), ("max_ms", "maxMs", \.maxMs), ("mean_ms", "meanMs", \.meanMs),
        ]
        for (column, key, kp) in times { for v in badTimes { add(column, key) { $0[keyPath: kp] = v } } }
        for v in [-1, .nan, .infinity, 1e10] { add("mad_ms", "madMs") { $0.madMs = v } }
        let amounts: [(String, String, WritableKeyPath<ReportRow, Double?>)] = [
            ("load_avg", "loadAverage", \.loadAverage), ("fps", "fps", \.fps), ("mpix_per_s", "mpixPerS", \.mpixPerS),
            ("gb_per_s", "gbPerS", \.gbPerS), ("copy_gb_per_s", "copyGBPerS", \.copyGBPerS), ("bw_fraction", "bwFraction", \.bwFraction),
            ("dram_copy_gb_per_s", "dramCopyGBPerS", \.dramCopyGBPerS), ("speedup", "speedup", \.speedup),
            ("budget_ms", "budgetMs", \.budgetMs), ("budget_share", "budgetShare", \.budgetShare), ("max_err", "maxErr", \.maxErr),
            ("round_spread", "roundSpread", \.roundSpread),
        ]
        for (column, key, kp) in amounts { for v in [-1, .nan, .infinity] { add(column, key) { $0[keyPath: kp] = v } } }
        for v in [0.0] { add("fps", "fps") { $0.fps = v }; add("budget_ms", "budgetMs") { $0.budgetMs = v } }
        add("psnr_db", "psnrDb") { $0.psnrDb = -1 }
        add("psnr_db", "psnrDb") { $0.psnrDb = -.infinity }
        let ints: [(String, String, WritableKeyPath<ReportRow, Int?>)] = [
            ("outliers", "outliers", \.outliers), ("items_per_run", "itemsPerRun", \.itemsPerRun), ("bytes_per_run", "bytesPerRun", \.bytesPerRun),
            ("rounds", "rounds", \.rounds),
        ]
        for (column, key, kp) in ints { add(column, key) { $0[keyPath: kp] = -1 } }
        add("rounds", "rounds") { $0.rounds = 0 }
        for v in [-1, .nan, .infinity, 1e10] { add("samples_ms", "samplesMs") { $0.samplesMs[1] = v } }
        add("sample_rounds", "sampleRounds") { $0.sampleRounds = [1, -1, 2] }
        add("sample_rounds", "sampleRounds") { $0.sampleRounds = [1] }
        add("contend", "contend") { $0.contend = -1 }
        add("contend", "contend") { $0.contend = Contention.maximum + 1 }
        return out
    }()

    func testTheGoodRowReadsInBothFormats() throws {
        let rows = [Self.good(), Self.good()]
        XCTAssertEqual(try ReportCSV.parse(ReportCSV.document(rows)), rows)
        XCTAssertEqual(try RunReport.decode(try Self.json(rows), path: "r.json").rows, rows)
    }

    func testEveryFieldsBadValuesAreRefusedByBothReaders() throws {
        for (column, key, set) in Self.cases {
            var bad = Self.good()
            set(&bad)
            let rows = [Self.good(), bad]
            // CSV: the second data row is line 3 (the sample row's note holds one newline, quoted: line 4).
            let csv = ReportCSV.document(rows)
            XCTAssertThrowsError(try ReportCSV.parse(csv, path: "r.csv"), "\(column): \(bad)") { e in
                guard case let HarnessError.malformedReport(path, line, _, reason) = e else { return XCTFail("\(e)") }
                XCTAssertEqual(path, "r.csv")
                XCTAssertEqual(line, 4, "\(column): \(e)")
                XCTAssertTrue(reason.hasPrefix(column + " "), "\(column): \(e)")
                XCTAssertEqual("\(e)".split(separator: "\n").count, 1, "\(e)")
            }
            // JSON: the line and column of the value (or of its row when the key is absent).
            let data = try Self.json(rows)
            XCTAssertThrowsError(try RunReport.decode(data, path: "r.json"), "\(key)") { e in
                guard case let HarnessError.malformedReport(path, line, col, reason) = e else { return XCTFail("\(e)") }
                XCTAssertEqual(path, "r.json")
                XCTAssertTrue(reason.hasPrefix("rows[1].\(key)"), "\(key): \(e)")
                let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                guard let col, line >= 1, line <= lines.count else { return XCTFail("no position: \(e)") }
                let text = Array(lines[line - 1])
                XCTAssertLessThanOrEqual(col, text.count + 1, "\(e)")
                if String(text).contains("\"\(key)\"") {
                    XCTAssertFalse(String(text[(col - 1)...]).hasPrefix(" "), "the column points at the value: \(e)")
                } else {
                    XCTAssertTrue(String(text).contains("{"), "no key, so the row's opening brace: \(e)")
                }
                XCTAssertEqual("\(e)".split(separator: "\n").count, 1, "\(e)")
            }
        }
    }

    func testCSVErrorsNameTheColumn() {
        let text = "kernel,variant,backend,threads,width,height,median_ms\nk,v,a|b,1,10,10,2.5\n"
        XCTAssertThrowsError(try ReportCSV.parse(text, path: "r.csv")) { e in
            XCTAssertTrue("\(e)".hasPrefix("r.csv:2: backend 'a|b' is not a backend"), "\(e)")
            XCTAssertTrue("\(e)".hasSuffix("(column 3)"), "\(e)")
        }
    }

    /// Syntax errors and values of the wrong type: the line and column where they are.
    func testJSONErrorsGiveLineAndColumn() throws {
        func position(_ text: String) -> (Int, Int?, String)? {
            do { _ = try RunReport.decode(Data(text.utf8), path: "r.json"); return nil } catch let HarnessError.malformedReport(_, l, c, reason) {
                return (l, c, reason)
            } catch { XCTFail("\(error)"); return nil }
        }
        let p1 = position("{\n  \"rows\": [1, x]\n}")
        XCTAssertEqual(p1?.0, 2); XCTAssertEqual(p1?.1, 15, "\(String(describing: p1))")
        let p2 = position("{\n  \"a\": \"unterminated\n}")
        XCTAssertEqual(p2?.0, 2); XCTAssertEqual(p2?.1, 8)
        let p3 = position("{\"a\": [1, 2}")
        XCTAssertEqual(p3?.0, 1); XCTAssertEqual(p3?.1, 12)
        let p4 = position("{\"a\": 1} x")
        XCTAssertEqual(p4?.0, 1); XCTAssertEqual(p4?.1, 10)
        let p5 = position("{\"a\":\n")
        XCTAssertEqual(p5?.0, 2); XCTAssertEqual(p5?.1, 1, "the end of the document")
        // A value of the wrong type inside a valid report: its own line and column.
        var text = String(decoding: try Self.json([Self.good(), Self.good()]), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let target = try XCTUnwrap(lines.indices.filter { lines[$0].contains("\"threads\" : 2") }.dropFirst().first)
        text = lines.enumerated().map { $0.offset == target ? $0.element.replacingOccurrences(of: ": 2", with: ": \"two\"") : $0.element }
            .joined(separator: "\n")
        let p6 = position(text)
        XCTAssertEqual(p6?.0, target + 1, "\(String(describing: p6))")
        XCTAssertEqual(p6?.1, (lines[target].firstIndex(of: "2")?.utf16Offset(in: lines[target]) ?? 0) + 1)
        XCTAssertTrue(p6?.2.hasPrefix("rows[1].threads") ?? false, "\(String(describing: p6))")
        // Committed JSON reports still read.
        let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Results")
        // (vm-2026-11-22-022438.json predates the sampler's floorSamples and never read.)
        for name in try FileManager.default.contentsOfDirectory(atPath: results.path)
        where (name.hasSuffix(".json") || name.hasSuffix(".csv")) && name != "vm-2026-11-22-022438.json" {
            XCTAssertNoThrow(try ReportFile.load(results.appendingPathComponent(name).path), name)
        }
    }

    static let host = HostInfo.current()

    static func json(_ rows: [ReportRow]) throws -> Data {
        try RunReport(date: "2026-11-22T00:00:00Z", host: host, profile: .default, budget: try Budget(fps: 60),
                      sampler: .quick, bandwidth: [], rows: rows).encoded()
    }
}
