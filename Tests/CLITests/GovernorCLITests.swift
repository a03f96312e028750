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
