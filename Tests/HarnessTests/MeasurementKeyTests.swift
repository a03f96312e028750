import Foundation
import RasterKit
import XCTest
@testable import RasterHarness

/// The typed measurement key: the render scale is its own column, and the
/// one legacy rule reads it out of `param` only in reports that lack it.
final class MeasurementKeyTests: XCTestCase {
    static func key(_ param: String, renderScale: Double?) -> MeasurementKey {
        var k = MeasurementKey(); k.read(param: param, renderScale: renderScale); return k
    }

    func testLegacyRuleReadsTheScaleItemWhateverTheSeparator() {
        for (param, scale, rest) in [("scale=0.5", 0.5, ""), ("blur=iir scale=0.25", 0.25, "blur=iir"),
                                     ("shape=blob,scale=0.5", 0.5, "shape=blob"), ("scale=0.5,shape=blob", 0.5, "shape=blob"),
                                     ("sigma=120", 1, "sigma=120"), ("", 1, ""),
                                     // Not a plain positive decimal: not a scale, kept as a parameter.
                                     ("scale=0x1", 1, "scale=0x1"), ("scale=nan", 1, "scale=nan"), ("scale=-1", 1, "scale=-1"),
                                     ("rescale=0.5", 1, "rescale=0.5")] {
            let k = Self.key(param, renderScale: nil)
            XCTAssertEqual(k.renderScale, scale, param)
            XCTAssertEqual(k.parameters, rest, param)
        }
    }

    func testWithARenderScaleTheParamTextIsNotReadForANumber() {
        // The column decides; param's label is removed only as written.
        XCTAssertEqual(Self.key("scale=0.5", renderScale: 0.5).parameters, "")
        XCTAssertEqual(Self.key("blur=iir scale=0.25", renderScale: 0.25).parameters, "blur=iir")
        let odd = Self.key("scale=0.5", renderScale: 1)
        XCTAssertEqual(odd.renderScale, 1)
        XCTAssertEqual(odd.parameters, "scale=0.5", "a scale of 1 has no label; the text is a parameter")
    }

    func testParamTextIsTheLegacyTextAndReadsBack() {
        for (parameters, scale) in [("", 1.0), ("", 0.5), ("sigma=120", 1), ("blur=iir", 0.25)] {
            let k = MeasurementKey(kernel: "k", variant: "v", backend: .simd, threads: 2, width: 8, height: 8,
                                   renderScale: scale, parameters: parameters)
            for given in [scale, nil] {
                let back = Self.key(k.paramText, renderScale: given)
                XCTAssertEqual(back.parameters, parameters); XCTAssertEqual(back.renderScale, scale)
            }
        }
        XCTAssertEqual(MeasurementKey(kernel: "aurora", variant: "exact", backend: .naive, threads: 1, width: 1, height: 1,
                                      renderScale: 0.5).paramText, "scale=0.5")
    }

    func testCSVAndJSONWriteTheRenderScaleAndReadItBack() throws {
        var row = CSVTests.sampleRow()
        row.renderScale = 0.125; row.parameters = "blur=iir"
        XCTAssertTrue(ReportCSV.header.contains(",contend,render_scale,"), ReportCSV.header)
        let line = ReportCSV.line(row)
        XCTAssertTrue(line.contains(",blur=iir scale=0.125,"), "param keeps its text: \(line)")
        let columns = ReportCSV.header.split(separator: ",")
        let fields = try CSV.parse(line).first?.fields ?? []
        XCTAssertEqual(fields.count, columns.count, line)
        XCTAssertEqual(fields[columns.firstIndex(of: "render_scale")!], "0.125", line)
        XCTAssertEqual(try ReportCSV.parse(ReportCSV.document([row])), [row])
        let json = String(decoding: try JSONOutput.encode(row), as: UTF8.self)
        XCTAssertTrue(json.contains(#""renderScale" : 0.125"#), json)
        let report = RunReport(date: "d", host: .current(), profile: .default, budget: try Budget(fps: 60, share: 0.25),
                               sampler: .quick, bandwidth: [], rows: [row])
        XCTAssertEqual(try RunReport.decode(try report.encoded(), path: "r.json").rows, [row])
    }

    func testAReportWithoutTheColumnReadsByTheLegacyRule() throws {
        let text = "kernel,variant,backend,threads,width,height,param,median_ms\naurora,blur=iir,simd,2,750,1334,scale=0.5,2.5\n"
        let rows = try ReportCSV.parse(text)
        XCTAssertEqual(rows[0].renderScale, 0.5)
        XCTAssertEqual(rows[0].parameters, "")
        XCTAssertEqual(FrontOption(row: rows[0].with { $0.p95Ms = 3 })?.scale, 0.5)
        // An empty render_scale field is the same as no column.
        let empty = "kernel,variant,backend,threads,width,height,param,median_ms,render_scale\naurora,exact,simd,2,750,1334,scale=0.25,2.5,\n"
        XCTAssertEqual(try ReportCSV.parse(empty)[0].renderScale, 0.25)
    }

    func testABadRenderScaleOrBackendIsAOneLineErrorNamingTheColumn() {
        for (field, expected) in [("render_scale", "0"), ("render_scale", "0x1"), ("render_scale", "2")] {
            let text = "kernel,variant,backend,threads,width,height,median_ms,\(field)\nk,v,simd,1,10,10,2.5,\(expected)\n"
            XCTAssertThrowsError(try ReportCSV.parse(text, path: "r.csv")) { e in
                XCTAssertTrue("\(e)".hasPrefix("r.csv:2: render_scale"), "\(e)")
                XCTAssertEqual("\(e)".split(separator: "\n").count, 1)
            }
        }
        let json = #"{"profile":"","kernel":"k","variant":"v","backend":"gpu","threads":1,"width":1,"height":1,"sweep":"","param":""}"#
        XCTAssertThrowsError(try JSONDecoder().decode(MeasurementKey.self, from: Data(json.utf8))) { e in
            XCTAssertTrue("\(e)".contains("'gpu' is not a backend"), "\(e)")
        }
    }

    /// A committed run written before `render_scale` existed (its telegram
    /// and mesh rows, kernel and scene, every scale) reads in both forms with
    /// the same keys and its scenes' scales.
    func testARunWithoutTheScaleColumnReadsByTheLegacyRule() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let csv = fixtures.appendingPathComponent("vm-2026-11-23-010503-telegram-mesh.csv").path
        let json = fixtures.appendingPathComponent("vm-2026-11-23-010503-telegram-mesh.json").path
        let a = try ReportFile.load(csv), b = try ReportFile.load(json)
        XCTAssertEqual(a.map(\.key), b.map(\.key))
        XCTAssertEqual(Set(a.map(\.renderScale)), [1, 0.5, 0.25])
        XCTAssertFalse(a.contains { $0.parameters.contains("scale=") }, "no scale is left in the parameters")
        let scaled = a.filter { $0.renderScale != 1 }
        XCTAssertFalse(scaled.isEmpty)
        XCTAssertTrue(scaled.allSatisfy { $0.paramText == "scale=\(NumberFormat.decimal($0.renderScale))" })
        // Written again, it reads back the same, now through the column.
        XCTAssertEqual(try ReportCSV.parse(ReportCSV.document(a)), a)
    }
}

extension ReportRow {
    func with(_ change: (inout ReportRow) -> Void) -> ReportRow { var r = self; change(&r); return r }
}
