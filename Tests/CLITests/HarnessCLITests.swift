import Foundation
import XCTest

/// `run`, `bench` and `compare` as a user meets them: exit codes, files
/// written, one-line errors. Tiny frames and --quick: these check
/// behaviour, never speed.
final class HarnessCLITests: CLITestCase {
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let tinyRun = ["--quick", "--runs", "3", "--size", "32x24", "--no-dram", "--kernels", "composite,linear,controlpoints"]

    func testRunWritesCSVAndJSONAndCompareMatchesThem() throws {
        let r = try run(["run"] + HarnessCLITests.tinyRun + ["--out", "a.csv", "--json", "out/a.json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("composite"), r.stdout)
        XCTAssertTrue(r.stdout.contains("UNSUPPORTED") || r.stdout.contains("controlpoints"), "K5 is listed either way")
        XCTAssertTrue(r.stderr.contains("[1/"), "progress line: \(r.stderr)")
        let csv = try String(contentsOfFile: path("a.csv"), encoding: .utf8)
        XCTAssertTrue(csv.hasPrefix("suite_version,git_commit,date,host,host_cpu,"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/a.json")))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".tmp") })

        // A report against itself: everything matches, nothing regresses.
        let same = try run(["compare", "a.csv", "out/a.json", "--fail-above", "5%"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("geomean"), same.stdout)

        // A copy 50% slower everywhere: a regression past 5% exits non-zero.
        let slower = try slowedDown(csv, by: 1.5)
        try slower.write(toFile: path("b.csv"), atomically: true, encoding: .utf8)
        let reg = try run(["compare", "a.csv", "b.csv", "--fail-above", "5"])
        XCTAssertNotEqual(reg.status, 0, reg.stdout)
        XCTAssertTrue(reg.stdout.contains("REGRESSION"), reg.stdout)

        // Backends inside one report.
        let backends = try run(["compare", "a.csv", "--baseline", "naive"])
        XCTAssertEqual(backends.status, 0, backends.stderr)
        XCTAssertTrue(backends.stdout.contains("speed-up"), backends.stdout)
    }

    /// Multiplies every time column of a report, keeping everything else.
    func slowedDown(_ csv: String, by k: Double) throws -> String {
        var lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let timeColumns = Set(["median_ms", "p95_ms", "p99_ms", "min_ms", "max_ms", "mean_ms", "mad_ms", "samples_ms"])
        for i in 1..<lines.count {
            // The tiny report's fields hold no quoted commas except in known
            // text columns; split on a parser that respects quotes.
            var fields = try quotedSplit(lines[i])
            for (c, name) in header.enumerated() where timeColumns.contains(name) && !fields[c].isEmpty {
                fields[c] = fields[c].split(separator: " ").map { String(Double($0)! * k) }.joined(separator: " ")
            }
            lines[i] = fields.map { $0.contains(",") || $0.contains("\"") ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0 }
                .joined(separator: ",")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func quotedSplit(_ line: String) throws -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var chars = Array(line), i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" { if i + 1 < chars.count && chars[i + 1] == "\"" { field.append("\""); i += 1 } else { quoted = false } }
                else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { fields.append(field); field = "" }
            else { field.append(c) }
            i += 1
        }
        fields.append(field)
        chars = []
        return fields
    }

    func testMalformedReportIsRejectedWithItsLine() throws {
        try "kernel,variant,backend,threads,width,height,median_ms\r\nk,v,naive,1,8,8,1.5\r\nk,v,simd,two,8,8,1\r\n"
            .write(toFile: path("bad.csv"), atomically: true, encoding: .utf8)
        try "kernel,variant,backend,threads,width,height,median_ms\r\nk,v,naive,1,8,8,1.5\r\n"
            .write(toFile: path("good.csv"), atomically: true, encoding: .utf8)
        let r = try run(["compare", "good.csv", "bad.csv"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.csv:3:"), r.stderr)
        let one = try run(["compare", "good.csv"])
        XCTAssertNotEqual(one.status, 0, "one report without --baseline")
    }

    func testBadRunArgumentsAreOneLineErrors() throws {
        for (args, word) in [(["run", "--profile", "nokia-3310"], "iphone-6"), (["run", "--threads", "0"], "--threads"),
                             (["run", "--share", "150%"], "--share"), (["run", "--kernels", "teapot"], "--kernels"),
                             (["run", "--sweep", "colour"], "--sweep"), (["run", "--size", "0x10"], "--size"),
                             (["run", "--kernels", "fill", "--variants", "exakt"], "--variants"),
                             (["run", "--kernels", "fill", "--filter", "shape=teapot"], "--filter")] {
            let r = try run(args)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(word), "\(args): \(r.stderr)")
        }
    }

    /// --variants and --filter narrow the suite to the rows asked for, and
    /// the table tells fill's two shapes apart by their parameter.
    func testRunSelectsVariantsAndFilters() throws {
        let r = try run(["run", "--quick", "--runs", "3", "--size", "48x32", "--no-dram", "--kernels", "fill",
                         "--variants", "exact,tol1", "--filter", "shape=stars", "--backends", "naive,simd", "--out", "f.csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let csv = try String(contentsOfFile: path("f.csv"), encoding: .utf8)
        let rows = csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        XCTAssertEqual(rows.count, 4, "2 variants x 2 backends, stars only: \(rows)")
        XCTAssertTrue(rows.allSatisfy { $0.contains("shape=stars") && ($0.contains(",exact,") || $0.contains(",tol1,")) }, "\(rows)")
        XCTAssertTrue(r.stdout.contains("param") && r.stdout.contains("shape=stars"), r.stdout)
    }

    func testBenchTimesAJobAndPrintsACSVRow() throws {
        let job = """
        { "width": 24, "height": 16, "background": "#000000FF",
          "ops": [ { "op": "freeform", "points": [ { "x": 2, "y": 2, "color": "#7FA381" }, { "x": 20, "y": 14, "color": "#FBE37D" } ] } ] }
        """
        try job.write(toFile: path("job.json"), atomically: true, encoding: .utf8)
        let text = try run(["bench", "job.json", "--quick", "--runs", "3", "--backend", "naive"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("ops"), text.stdout)
        XCTAssertTrue(text.stdout.contains("clear canvas"), text.stdout)
        let csv = try run(["bench", "job.json", "--quick", "--runs", "3", "--csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let lines = csv.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("suite_version,"))
        XCTAssertTrue(lines[1].contains(",job,job,simd,"), String(lines[1]))
        let missing = try run(["bench", "nope.json"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
    }
}
