import XCTest
import RasterHarness
import RasterKit

final class CSVTests: XCTestCase {
    /// The report format, pinned. Changing a column is a format change:
    /// update this string, bump `SuiteVersion`, and say so in docs/measurement.md §6.
    static let pinnedHeader =
        "suite_version,git_commit,date,host,host_cpu,host_cores,os,swift_version,build,optimized,compiler_flags,openmp,load_avg,"
        + "profile,fps,kernel,variant,backend,threads,width,height,sweep,param,status,samples,batch,"
        + "median_ms,p95_ms,p99_ms,min_ms,max_ms,mad_ms,mean_ms,outliers,mpix_per_s,items_per_run,item_unit,"
        + "bytes_per_run,gb_per_s,copy_gb_per_s,bw_fraction,dram_copy_gb_per_s,speedup,budget_ms,budget_share,"
        + "fits_budget,psnr_db,max_err,quality_on,note,samples_ms,rounds,round_spread,sample_rounds,contend,render_scale,"
        + "work_bytes,work_flops,peak_gflops,limit_ms,limit_share"

    func testHeaderIsPinned() {
        XCTAssertEqual(ReportCSV.header, CSVTests.pinnedHeader)
        // docs/measurement.md §6's minimum columns are all there.
        for c in ["suite_version", "git_commit", "host_cpu", "date", "kernel", "variant", "backend", "threads", "width",
                  "height", "samples", "median_ms", "p95_ms", "p99_ms", "mad_ms", "mpix_per_s", "budget_ms",
                  "budget_share", "fits_budget", "psnr_db", "max_err"] {
            XCTAssertTrue(ReportCSV.columnNames.contains(c), c)
        }
    }

    func testQuoting() {
        XCTAssertEqual(CSV.quote("plain"), "plain")
        XCTAssertEqual(CSV.quote(""), "")
        XCTAssertEqual(CSV.quote("a,b"), "\"a,b\"")
        XCTAssertEqual(CSV.quote("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(CSV.quote("two\nlines"), "\"two\nlines\"")
        XCTAssertEqual(CSV.quote("crlf\r\nhere"), "\"crlf\r\nhere\"")
        XCTAssertEqual(CSV.quote(" padded "), "\" padded \"")
        XCTAssertEqual(CSV.record(["a", "b,c", "\""]), "a,\"b,c\",\"\"\"\"")
    }

    func testParseRoundTripOfAwkwardFields() throws {
        let fields = ["Intel(R) Xeon(R), 2.1 GHz", "quote \" inside", "multi\nline\r\nfield", "", " lead", "ünïcødé ✓"]
        let text = CSV.record(fields) + "\r\n" + CSV.record(["x", "y", "z", "", "", ""]) + "\r\n"
        let records = try CSV.parse(text)
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records[0].fields, fields)
        XCTAssertEqual(records[0].line, 1)
        XCTAssertEqual(records[1].line, 4, "the embedded newlines count as physical lines")
    }

    func testParseAcceptsLFAndMissingFinalNewlineAndBOM() throws {
        let r = try CSV.parse("\u{FEFF}a,b\nc,d")
        XCTAssertEqual(r.map(\.fields), [["a", "b"], ["c", "d"]])
        XCTAssertEqual(r.map(\.line), [1, 2])
    }

    func testParseErrorsNameTheLine() {
        assertMalformed("a,b\r\nc,\"open\r\nstill open", line: 2, containing: "never closed")
        assertMalformed("a,b\nc,\"x\"y\n", line: 2, containing: "after a closing quote")
        assertMalformed("a,b\nc\nd,e\"f\n", line: 3, containing: "double quote")
    }

    func assertMalformed(_ text: String, line: Int, containing: String, file: StaticString = #filePath, lineNo: UInt = #line) {
        XCTAssertThrowsError(try CSV.parse(text, path: "r.csv"), file: file, line: lineNo) { error in
            guard case let HarnessError.malformedReport(path, l, _, reason) = error else {
                return XCTFail("unexpected \(error)", file: file, line: lineNo)
            }
            XCTAssertEqual(path, "r.csv", file: file, line: lineNo)
            XCTAssertEqual(l, line, file: file, line: lineNo)
            XCTAssertTrue(reason.contains(containing), reason, file: file, line: lineNo)
            XCTAssertTrue("\(error)".hasPrefix("r.csv:\(line): "), file: file, line: lineNo)
        }
    }

    static func sampleRow() -> ReportRow {
        var r = ReportRow()
        r.gitCommit = "abc123-dirty"; r.date = "2026-11-22T01:00:00Z"; r.host = "bench-1"
        r.hostCPU = "Intel(R) Xeon(R) Processor, \"fast\""; r.hostCores = 2; r.os = "Debian 12 (Linux, x86_64)"
        r.swiftVersion = "6.3"; r.build = "release"; r.optimized = true; r.compilerFlags = "swift -O; C -O3 -fopenmp"
        r.openMP = true; r.loadAverage = 1.25; r.profile = "iphone-6"; r.fps = 60; r.kernel = "freeform"; r.variant = "down4"
        r.backend = .simd; r.threads = 2; r.width = 750; r.height = 1334; r.parameters = "sigma=120"
        r.samples = 3; r.batch = 1; r.medianMs = 12.3456; r.p95Ms = 13.5; r.p99Ms = 13.9; r.minMs = 12
        r.maxMs = 14; r.madMs = 0.25; r.meanMs = 12.7; r.outliers = 0; r.mpixPerS = 81.04
        r.itemsPerRun = 1_000_500; r.bytesPerRun = 12_006_000; r.gbPerS = 0.97; r.copyGBPerS = 20.5
        r.bwFraction = 0.0473; r.dramCopyGBPerS = 17.25; r.speedup = 1.9; r.budgetMs = 4.16667
        r.budgetShare = 0.25; r.fitsBudget = false; r.psnrDb = .infinity; r.maxErr = 1
        r.qualityOn = "750x1334 frame"; r.note = "line one\nline two, with comma"
        r.samplesMs = [12, 12.3456, 14]
        r.rounds = 2; r.roundSpread = 0.0456; r.sampleRounds = [1, 2, 2]
        r.workBytes = 4_002_000; r.workFlops = 7.3e7; r.peakGflops = 103.6; r.limitMs = 0.7048; r.limitShare = 0.0571
        return r
    }

    func testReportRoundTrip() throws {
        var unsupported = ReportRow()
        unsupported.kernel = "blur"; unsupported.variant = "exact"; unsupported.backend = .naive
        unsupported.status = .unsupported; unsupported.note = "backend 'naive' does not implement blur"
        let rows = [CSVTests.sampleRow(), unsupported]
        let doc = ReportCSV.document(rows)
        XCTAssertTrue(doc.hasPrefix(CSVTests.pinnedHeader + "\r\n"))
        let back = try ReportCSV.parse(doc, path: "x.csv")
        XCTAssertEqual(back, rows)
    }

    func testReaderToleratesExtraAndMissingOptionalColumns() throws {
        let text = "kernel,variant,backend,threads,width,height,median_ms,mad_ms,extra\nk,v,naive,1,10,10,2.5,0.1,ignored\n"
        let rows = try ReportCSV.parse(text)
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0].medianMs, 2.5)
        XCTAssertEqual(rows[0].madMs, 0.1)
        XCTAssertEqual(rows[0].samplesMs, [])
    }

    /// Round ids survive the CSV; a report written before rounds existed
    /// (no round columns) loads as one round.
    func testRoundIdsRoundTripAndOldReportsAreOneRound() throws {
        let back = try ReportCSV.parse(ReportCSV.document([CSVTests.sampleRow()]))
        XCTAssertEqual(back[0].sampleRounds, [1, 2, 2])
        XCTAssertEqual(back[0].rounds, 2)
        XCTAssertEqual(Bootstrap.rounds(of: back[0]), [[12], [12.3456, 14]])
        let old = try ReportCSV.parse("kernel,variant,backend,threads,width,height,median_ms,samples_ms\nk,v,naive,1,10,10,2.5,2.4 2.5 2.6\n")
        XCTAssertNil(old[0].sampleRounds)
        XCTAssertEqual(Bootstrap.rounds(of: old[0]), [[2.4, 2.5, 2.6]])
    }

    func testMalformedReportsAreRejectedWithTheLine() {
        func check(_ text: String, line: Int, _ needle: String) {
            XCTAssertThrowsError(try ReportCSV.parse(text, path: "bad.csv")) { e in
                guard case let HarnessError.malformedReport(_, l, _, reason) = e else { return XCTFail("\(e)") }
                XCTAssertEqual(l, line, reason)
                XCTAssertTrue(reason.contains(needle), reason)
            }
        }
        let head = "kernel,variant,backend,threads,width,height,median_ms\n"
        check("", line: 1, "empty")
        check("kernel,variant\nk,v\n", line: 1, "lacks column")
        check(head + "k,v,naive,1,10,10,2.5\nk,v,naive,1,10\n", line: 3, "5 fields")
        check(head + "k,v,naive,two,10,10,2.5\n", line: 2, "threads 'two'")
        check(head + "k,v,naive,1,10,10,fast\n", line: 2, "median_ms 'fast'")
        check(head + "k,v,naive,1,10,10,\n", line: 2, "median_ms is empty")
        check("kernel,kernel,variant,backend,threads,width,height,median_ms\n", line: 1, "twice")
        let rounds = "kernel,variant,backend,threads,width,height,median_ms,samples_ms,sample_rounds\n"
        check(rounds + "k,v,naive,1,10,10,2.5,2.4 2.5,1\n", line: 2, "1 values for 2 samples")
        check(rounds + "k,v,naive,1,10,10,2.5,2.4 2.5,1 x\n", line: 2, "sample_rounds value 'x'")
    }

    func testNumberFormat() {
        XCTAssertEqual(NumberFormat.decimal(12.345678901), "12.3457")
        XCTAssertEqual(NumberFormat.decimal(0.000123456789), "0.000123457")
        XCTAssertEqual(NumberFormat.decimal(1_234_567), "1234567")
        XCTAssertEqual(NumberFormat.decimal(2), "2")
        XCTAssertEqual(NumberFormat.decimal(0), "0")
        XCTAssertEqual(NumberFormat.decimal(-1.5), "-1.5")
        XCTAssertEqual(NumberFormat.decimal(.infinity), "inf")
        XCTAssertEqual(NumberFormat.parseDouble("inf"), .infinity)
    }

    func testAtomicWriteReplacesWholeFileAndLeavesNoTemporary() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rb-atomic-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sub/report.csv").path
        try AtomicFile.write("first", toPath: path, createDirectory: true)
        try AtomicFile.write("second", toPath: path, createDirectory: true)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "second")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("sub").path)
        XCTAssertEqual(left, ["report.csv"])
        XCTAssertThrowsError(try AtomicFile.write("x", toPath: "/proc/no-such-dir/report.csv", createDirectory: true))
    }

    func testJSONReportRoundTripKeepsEverySample() throws {
        let row = CSVTests.sampleRow()
        let settings = SamplerSettings.quick
        let copy = CopyBandwidth(label: "frame", bytes: 4000, threads: 1, bytesPerSecond: 1e10,
                                 samples: Samples(nanoseconds: [1, 2], batch: 3, warmupRuns: 1, elapsed: 0.1))
        let report = RunReport(date: row.date, host: HostInfo.current(), profile: .default, budget: try Budget(fps: 60),
                               sampler: settings, bandwidth: [copy], rows: [row])
        let back = try RunReport.decode(try report.encoded(), path: "r.json")
        XCTAssertEqual(back.rows, [row])
        XCTAssertEqual(back.bandwidth, [copy])
        XCTAssertEqual(back.host, report.host)
        XCTAssertThrowsError(try RunReport.decode(Data("{}".utf8), path: "r.json"))
    }
}

import Foundation
