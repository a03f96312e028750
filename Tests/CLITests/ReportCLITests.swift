import Foundation
import XCTest

/// `rasterbench report` from the command line: bad input is one line on
/// stderr with a non-zero exit below 128, and no output file.
final class ReportCLITests: CLITestCase {
    func testBadInputsGiveOneLineErrors() throws {
        let cases: [([String], String)] = [
            (["report", "missing.csv", "-o", "r.html"], "no such file"),
            (["report", "not-a-report.csv", "-o", "r.html"], "rasterbench report"),
            (["report", "good.csv", "-o", "nowhere/r.html"], "does not exist"),
            (["report", "good.csv"], "--output"),
            (["report", "-o", "r.html"], "reports"),
        ]
        try "name,value\r\na,1\r\n".write(to: dir.appendingPathComponent("not-a-report.csv"), atomically: true, encoding: .utf8)
        let header = "kernel,variant,backend,threads,width,height,median_ms,p95_ms,profile\r\n"
        try (header + "fill,exact,naive,1,64,64,1.5,1.7,iphone-6\r\n")
            .write(to: dir.appendingPathComponent("good.csv"), atomically: true, encoding: .utf8)
        for (args, text) in cases {
            let r = try run(args)
            XCTAssertTrue(r.status > 0 && r.status < 128, "\(args): exit \(r.status)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(text), "\(args): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.html").path))
    }

    func testAKernelOnlyReportWritesAPage() throws {
        let header = "kernel,variant,backend,threads,width,height,median_ms,p95_ms,profile,psnr_db\r\n"
        try (header + "fill,exact,naive,1,64,64,1.5,1.7,iphone-6,80\r\nfill,exact,simd,1,64,64,0.5,0.6,iphone-6,80\r\n")
            .write(to: dir.appendingPathComponent("k.csv"), atomically: true, encoding: .utf8)
        let r = try run(["report", "k.csv", "-o", "k.html"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("wrote "), r.stdout)
        let html = try String(contentsOf: dir.appendingPathComponent("k.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("id=\"speedup-iphone-6\"") && html.contains("id=\"front-iphone-6-fill\""))
    }
}
