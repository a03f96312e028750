import Foundation
import XCTest

/// `run`, `bench` and `compare` as a user meets them: exit codes, files
/// written, one-line errors. Tiny frames and --quick: these check
/// behaviour, never speed.
final class HarnessCLITests: CLITestCase {
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let tinyRun = ["--quick", "--runs", "3", "--size", "32x24", "--no-dram", "--kernels", "composite,linear,controlpoints"]

    func testRunWritesCSVAndJSONAndCompareMatchesThem() throws {
        let r = try run(["run"] + HarnessCLITests.tinyRun + ["--rounds", "3", "--seed", "5", "--out", "a.csv", "--json", "out/a.json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("composite"), r.stdout)
        XCTAssertTrue(r.stdout.contains("UNSUPPORTED") || r.stdout.contains("controlpoints"), "K5 is listed either way")
        XCTAssertTrue(r.stderr.contains("[1/"), "progress line: \(r.stderr)")
        let csv = try String(contentsOfFile: path("a.csv"), encoding: .utf8)
        XCTAssertTrue(csv.hasPrefix("suite_version,git_commit,date,host,host_cpu,"))
        XCTAssertTrue(r.stdout.contains("rounds: 3") && r.stdout.contains("seed 5"), r.stdout)
        XCTAssertTrue(r.stderr.contains("round 3/3"), r.stderr)
        // Every measured row keeps each round's samples with their round id.
        let header = try quotedSplit(csv.components(separatedBy: "\r\n")[0])
        let (status, rounds, ids) = (header.firstIndex(of: "status")!, header.firstIndex(of: "rounds")!, header.firstIndex(of: "sample_rounds")!)
        let measured = try csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map(quotedSplit).filter { $0[status] == "ok" }
        XCTAssertFalse(measured.isEmpty)
        for f in measured {
            XCTAssertEqual(f[rounds], "3")
            XCTAssertEqual(Set(f[ids].split(separator: " ")), ["1", "2", "3"], f[ids])
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/a.json")))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasSuffix(".tmp") })

        // A report against itself: everything matches, nothing regresses.
        let same = try run(["compare", "a.csv", "out/a.json", "--fail-above", "5%"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("geomean"), same.stdout)

        // A copy twice as slow everywhere: a regression past 5% exits non-zero.
        let slower = try slowedDown(csv, by: 2)
        try slower.write(toFile: path("b.csv"), atomically: true, encoding: .utf8)
        let reg = try run(["compare", "a.csv", "b.csv", "--fail-above", "5%"])
        XCTAssertNotEqual(reg.status, 0, reg.stdout)
        XCTAssertTrue(reg.stdout.contains("REGRESSION"), reg.stdout)

        // A named baseline: saved into the untracked store, then compared by
        // name, it gives what comparing the two files gave (the name standing
        // where the path stood).
        let saved = try run(["compare", "--save-as", "before", "a.csv"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("runs/baselines/before.csv")), saved.stdout)
        let byName = try run(["compare", "@before", "b.csv", "--fail-above", "5%"])
        XCTAssertEqual(byName.status, reg.status, byName.stderr)
        XCTAssertEqual(byName.stdout.replacingOccurrences(of: "@before", with: "a.csv"), reg.stdout)

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

    /// `ab` with two fake builds: scripts that log their turn and write a
    /// canned one-round report, B's twice as slow as A's, each with the
    /// commit its build recorded (A an older one): ab names both.
    func testABRunsFreshProcessesInABBAOrderAndPairsRounds() throws {
        let log = path("order.log")
        let commits = ["A": "0ld0ld0ld0ld", "B": "2e2e2e2e2e2e-dirty"]
        func fake(_ name: String, scale: Double) throws -> String {
            let samples = [1.0, 1.01, 0.99, 1.02, 1.0].map { String($0 * scale) }
            // A busy host (load 5 on 2 cores), which compare answers with advice to use ab.
            let csv = "git_commit,host_cores,load_avg,kernel,variant,backend,threads,width,height,profile,status,samples,median_ms,samples_ms\r\n"
                + "\(commits[name]!),2,5,composite,exact,simd,2,32,24,iphone-6,ok,5,\(samples[0]),\(samples.joined(separator: " "))\r\n"
            try csv.write(toFile: path(name + ".csv"), atomically: true, encoding: .utf8)
            let script = """
                #!/bin/sh
                echo "\(name) $*" >> '\(log)'
                while [ $# -gt 0 ]; do [ "$1" = --out ] && cp '\(path(name + ".csv"))' "$2"; shift; done
                """
            try script.write(toFile: path(name), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path(name))
            return path(name)
        }
        let a = try fake("A", scale: 1), b = try fake("B", scale: 2)
        let r = try run(["ab", a, "--new-executable", b, "--rounds", "4", "--kernels", "composite", "--threads", "2",
                         "--quick", "--fail-above", "5%", "--out", "ab"])
        XCTAssertEqual(r.status, 3, "B is 100% slower past --fail-above 5%: \(r.stdout) \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("base: A \(a), commit 0ld0ld0ld0ld") && r.stdout.contains("new:  B \(b), commit 2e2e2e2e2e2e-dirty"), r.stdout)
        XCTAssertTrue(r.stdout.contains("both sides ran side by side"), r.stdout)
        XCTAssertFalse(r.stdout.contains("prefer"), "ab's own output does not advise ab: \(r.stdout)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.map { String($0.prefix(1)) }, ["A", "B", "B", "A", "A", "B", "B", "A"])
        XCTAssertTrue(lines.allSatisfy { $0.contains(" run ") && $0.contains("--kernels composite") && $0.contains("--threads 2")
                                         && $0.contains("--quick") && $0.contains("--out ") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("--rounds") }, "each child runs one round: an older base needs no --rounds")
        XCTAssertTrue(r.stdout.contains("slower"), r.stdout)
        XCTAssertTrue(r.stdout.contains("4/4p"), "4 rounds a side, paired: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("REGRESSION"), r.stdout)
        let merged = try String(contentsOfFile: path("ab/new.csv"), encoding: .utf8)
        XCTAssertTrue(merged.contains("2e2e2e2e2e2e-dirty") && !merged.contains("0ld0ld0ld0ld"), merged)
        XCTAssertTrue(try String(contentsOfFile: path("ab/base.csv"), encoding: .utf8).contains("0ld0ld0ld0ld"))
        XCTAssertTrue(merged.contains(",4,0,1 1 1 1 1 2 2 2 2 2 3 3 3 3 3 4 4 4 4 4,,1,,,,,\r\n"),
                      "rounds, spread, round ids (contend empty, render_scale 1, the work model's columns empty): \(merged)")

        let missing = try run(["ab", path("nope")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
    }

    func testMalformedReportIsRejectedWithItsLine() throws {
        try "kernel,variant,backend,threads,width,height,median_ms\r\nk,v,naive,1,8,8,1.5\r\nk,v,simd,two,8,8,1\r\n"
            .write(toFile: path("bad.csv"), atomically: true, encoding: .utf8)
        try "kernel,variant,backend,threads,width,height,median_ms\r\nk,v,naive,1,8,8,1.5\r\n"
            .write(toFile: path("good.csv"), atomically: true, encoding: .utf8)
        let r = try run(["compare", "good.csv", "bad.csv"])
        XCTAssertEqual(r.status, 1)
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
                             (["run", "--kernels", "fill", "--filter", "shape=teapot"], "--filter"),
                             (["run", "--rounds", "0"], "--rounds"), (["run", "--sweep", "sigma", "--sigmas", "-1"], "--sigmas"),
                             (["compare", "a.csv", "b.csv", "--threshold", "lots"], "--threshold")] {
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
