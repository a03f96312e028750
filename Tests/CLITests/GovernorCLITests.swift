import Foundation
import XCTest

/// `rasterbench governor` and `run --adaptive`: tables printed, bad input
/// rejected with one line.
final class GovernorCLITests: CLITestCase {
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func testGovernorPrintsBothTablesForEveryTrace() throws {
        let r = try run(["governor"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for trace in ["steady", "step", "spike", "noisy", "thermal"] {
            XCTAssertTrue(r.stdout.components(separatedBy: "\n").filter { $0.hasPrefix(trace + " ") }.count == 2,
                          "\(trace) in both tables: \(r.stdout)")
        }
        XCTAssertTrue(r.stdout.contains("latency: B=0"), r.stdout)
    }

    func testRecordedTraceIsReadAndCheckedAndBadOnesRejected() throws {
        var csv = "frame,level,label,psnr_db,ms\n"
        for f in 0..<40 { csv += "\(f),0,cheap,30,\(f == 20 ? 9.0 : 2.0)\n\(f),1,dear,40,\(f % 7 == 0 ? 5.0 : 3.5)\n" }
        try csv.write(toFile: path("t.csv"), atomically: true, encoding: .utf8)
        let r = try run(["governor", "--trace", path("t.csv")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("t ") }.count, 2, r.stdout)

        try "frame,level,label,psnr_db,ms\n0,0,a,30,x\n".write(toFile: path("bad.csv"), atomically: true, encoding: .utf8)
        let bad = try run(["governor", "--trace", path("bad.csv")])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("bad.csv:2"), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    }

    /// The values that trapped (a Double->Int conversion in the buffer
    /// simulation): a 1e308 ms frame in a trace, a budget of 1e-300, 5e-324
    /// or 1e308 ms. Each is now a one-line error naming the value's range.
    func testExtremeTraceTimesAndBudgetsAreOneLineErrors() throws {
        var csv = "frame,level,label,psnr_db,ms\n"
        for f in 0..<20 { csv += "\(f),0,cheap,30,2\n\(f),1,dear,40,\(f == 10 ? "1e308" : "3.5")\n" }
        try csv.write(toFile: path("huge.csv"), atomically: true, encoding: .utf8)
        try csv.replacingOccurrences(of: "1e308", with: "4").write(toFile: path("ok.csv"), atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--trace", path("huge.csv")], "huge.csv:23"),
            (["--trace", path("ok.csv"), "--trace-budget-ms", "1e-300"], "0.001 to 1000000"),
            (["--trace", path("ok.csv"), "--trace-budget-ms", "5e-324"], "0.001 to 1000000"),
            (["--trace", path("ok.csv"), "--trace-budget-ms", "1e308"], "0.001 to 1000000"),
        ]
        for (args, expected) in cases {
            let r = try run(["governor"] + args)
            XCTAssertTrue((1...127).contains(r.status), "\(args): \(r.status)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
        // A --record that cannot be written fails before the recording, in one line.
        for record in ["/proc/nodir/t.csv", path("ok.csv") + "/t.csv", path("t.json")] {
            let r = try run(["governor", "--record", record, "--scene", "liquid", "--frames", "10"])
            XCTAssertTrue((1...127).contains(r.status), "\(record): \(r.status)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(record): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("NSCocoaErrorDomain") || r.stderr.contains("Error Domain"), r.stderr)
        }
        let ok = try run(["governor", "--trace", path("ok.csv"), "--trace-budget-ms", "0.001"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    func testAdaptiveBadInputIsOneLine() throws {
        for args in [["--adaptive"], ["--adaptive", "--scene", "aurora", "--stress", "0.5"],
                     ["--adaptive", "--scene", "aurora", "--frames", "1"], ["--scene", "aurora"],
                     ["--adaptive", "--scene", "nosuch"]] {
            let r = try run(["run"] + args)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
        }
    }
}
