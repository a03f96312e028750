import Foundation
import XCTest

/// `rasterbench choose` from a small hand-written report: the table, the
/// JSON, the wisdom file and one-line errors.
final class ChooseCLITests: CLITestCase {
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// iphone-6 at 60 fps, 25%: budget 4.1667 ms, limit 3.75 ms.
    /// aurora: exact 9 ms (no), iir@0.5 simd t=2 3 ms 41 dB (chosen), down4 openmp t=1 2 ms 33 dB (runner-up).
    /// telegram: nothing under 5 ms: misses by 1.25 ms. mesh: only a failed row.
    static let report = """
        host_cpu,host_cores,os,git_commit,compiler_flags,optimized,openmp,swift_version,profile,fps,kernel,variant,backend,threads,width,height,sweep,param,status,median_ms,p95_ms,psnr_db,max_err
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,aurora,exact,simd,2,750,1334,,,ok,8,9,inf,0
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,aurora,blur=iir,simd,2,750,1334,,scale=0.5,ok,2.5,3,41,4
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,aurora,blur=down4,openmp,1,750,1334,,,ok,1.8,2,33,9
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,aurora,exact,simd,2,64,64,size,,ok,0.1,0.1,,
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,telegram,exact,simd,2,750,1334,,,ok,6,7,98,1
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,telegram,freeform=fit80,openmp,2,750,1334,,,ok,4.5,5,64,3
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-6,60,mesh,exact,naive,1,750,1334,,,error,,,,
        Test CPU,2,Linux,abc1234,swift -O,true,true,6.3,iphone-11,60,aurora,exact,simd,2,828,1792,,,ok,2,3,inf,0

        """

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Self.report.write(toFile: path("r.csv"), atomically: true, encoding: .utf8)
    }

    func testTableWithChoiceRunnerUpMarginAndMisses() throws {
        let r = try run(["choose", "--from", "r.csv", "--scenes", "aurora,telegram,mesh", "--kernels", "none"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let aurora = r.stdout.split(separator: "\n").first { $0.hasPrefix("aurora") }.map(String.init) ?? ""
        XCTAssertTrue(aurora.contains("blur=iir @0.5 simd t=2"), r.stdout)
        XCTAssertTrue(aurora.contains("750 us"), "margin 3.75 - 3: \(aurora)")
        XCTAssertTrue(aurora.contains("blur=down4 openmp t=1"), "runner-up: \(aurora)")
        XCTAssertTrue(r.stdout.contains("limit 3.75 ms"), r.stdout)
        XCTAssertTrue(r.stdout.contains("telegram: fastest is freeform=fit80 openmp t=2") && r.stdout.contains("by 1.25 ms"), r.stdout)
        XCTAssertTrue(r.stdout.contains("No usable rows:\n  mesh: not measured"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Nothing fits:"))
        // A larger share fits telegram's exact variant (98 dB within rounding beats 64 dB).
        let wide = try run(["choose", "--from", "r.csv", "--scenes", "telegram", "--kernels", "none", "--share", "50%"])
        XCTAssertTrue(wide.stdout.split(separator: "\n").contains { $0.hasPrefix("telegram") && $0.contains("exact simd t=2") }, wide.stdout)
        XCTAssertFalse(wide.stdout.contains("Nothing fits"), wide.stdout)
    }

    func testJSONParsesAndFiltersApply() throws {
        let r = try run(["choose", "--from", "r.csv", "--json", "--scenes", "aurora,telegram", "--kernels", "none", "--min-psnr", "35"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(doc["limitMs"] as? Double ?? 0, 3.75, accuracy: 1e-9)
        let choices = try XCTUnwrap(doc["choices"] as? [[String: Any]])
        XCTAssertEqual(choices.map { $0["target"] as? String }, ["aurora", "telegram"])
        let aurora = choices[0]
        XCTAssertEqual((aurora["chosen"] as? [String: Any])?["variant"] as? String, "blur=iir")
        XCTAssertEqual((aurora["chosen"] as? [String: Any])?["scale"] as? Double, 0.5)
        XCTAssertNil(aurora["runnerUp"], "down4 (33 dB) is below --min-psnr 35")
        let fronts = try XCTUnwrap(doc["fronts"] as? [[String: Any]])
        XCTAssertEqual((fronts[0]["options"] as? [Any])?.count, 3, "the sweep row is not an option")
        // --backends openmp keeps only the report's openmp rows.
        let omp = try run(["choose", "--from", "r.csv", "--json", "--scenes", "aurora", "--kernels", "none", "--backends", "openmp"])
        let dOmp = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(omp.stdout.utf8)) as? [String: Any])
        let fOmp = try XCTUnwrap((dOmp["fronts"] as? [[String: Any]])?.first?["options"] as? [[String: Any]])
        XCTAssertEqual(fOmp.map { $0["backend"] as? String }, ["openmp"])
        // --threads 1 leaves only down4 for aurora.
        let one = try run(["choose", "--from", "r.csv", "--json", "--scenes", "aurora", "--kernels", "none", "--threads", "1"])
        let d1 = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let c1 = try XCTUnwrap((d1["choices"] as? [[String: Any]])?.first)
        XCTAssertEqual((c1["chosen"] as? [String: Any])?["variant"] as? String, "blur=down4")
    }

    func testSaveWritesWisdomOfTheReportsHostAndBuild() throws {
        let r = try run(["choose", "--from", "r.csv", "--scenes", "aurora", "--kernels", "none", "--save", "w/wisdom.json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = try Data(contentsOf: dir.appendingPathComponent("w/wisdom.json"))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual((doc["host"] as? [String: Any])?["cpu"] as? String, "Test CPU")
        XCTAssertEqual((doc["build"] as? [String: Any])?["commit"] as? String, "abc1234")
        XCTAssertEqual((doc["profile"] as? [String: Any])?["name"] as? String, "iphone-6")
        XCTAssertEqual((doc["choices"] as? [Any])?.count, 1)
        XCTAssertNotNil(doc["fronts"])
        XCTAssertEqual(doc["headroom"] as? Double, 0.1)
    }

    func testProfileWithMoreCoresThanTheHostSaysSo() throws {
        let r = try run(["choose", "--from", "r.csv", "--profile", "iphone-11", "--scenes", "aurora", "--kernels", "none"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("profile iphone-11 has 6 cores, the measuring host 2"), r.stdout)
        XCTAssertTrue(r.stdout.split(separator: "\n").contains { $0.hasPrefix("aurora") && $0.contains("exact simd t=2") }, r.stdout)
    }

    /// Without --from: measures only what it needs (one scene, one backend,
    /// --quick), with the progress line, and chooses from that.
    func testMeasuresWhenNoReportIsGiven() throws {
        let r = try run(["choose", "--quick", "--scenes", "morph", "--kernels", "none", "--backends", "openmp",
                         "--threads", "1", "--json", "--out", "measured.csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("[1/5] morph/exact/openmp t=1"), r.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let choice = try XCTUnwrap((doc["choices"] as? [[String: Any]])?.first)
        XCTAssertEqual(choice["target"] as? String, "morph")
        XCTAssertTrue(choice["chosen"] != nil || choice["fastest"] != nil, "\(choice)")
        let options = try XCTUnwrap((doc["fronts"] as? [[String: Any]])?.first?["options"] as? [[String: Any]])
        XCTAssertEqual(options.count, 5)
        XCTAssertTrue(options.allSatisfy { $0["backend"] as? String == "openmp" && $0["threads"] as? Int == 1 })
        let csv = try String(contentsOfFile: path("measured.csv"), encoding: .utf8)
        XCTAssertEqual(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 6)
    }

    func testBadOptionsGiveOneLineErrors() throws {
        let cases: [([String], String)] = [
            (["--headroom", "150%"], "--headroom"),
            (["--headroom", "lots"], "--headroom"),
            (["--min-psnr", "-3"], "--min-psnr"),
            (["--threads", "0"], "--threads"),
            (["--share", "0"], "--share"),
            (["--fps", "0"], "--fps"),
            (["--profile", "nokia-3310"], "--profile"),
            (["--profile", "iphone-se1"], "iphone-11, iphone-6"),  // not in the report: names what is
            (["--scenes", "nope"], "nope"),
            (["--out", "x.csv"], "--out"),
            (["--quick"], "--quick"),
            (["--backends", "cuda"], "cuda"),
        ]
        for (args, needle) in cases {
            let r = try run(["choose", "--from", "r.csv"] + args)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            XCTAssertTrue(r.stdout.isEmpty, "\(args): \(r.stdout)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("error:") && r.stderr.contains(needle), "\(args): \(r.stderr)")
        }
        let missing = try run(["choose", "--from", "nothing.csv"])
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nothing.csv"), missing.stderr)
    }
}
