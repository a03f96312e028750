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
            // A backend that is not one (it once split a chart's legend key and trapped), and times
            // whose log axis overflowed to inf or underflowed to 0 (an endless tick loop).
            (["report", "pipe.csv", "-o", "r.html"], "pipe.csv:2: backend 'a|b' is not a backend"),
            (["report", "empty-backend.csv", "-o", "r.html"], "empty-backend.csv:2: backend '' is not a backend"),
            (["report", "huge.csv", "-o", "r.html"], "huge.csv:2: p95_ms"),
            (["report", "tiny.csv", "-o", "r.html"], "tiny.csv:2: p95_ms"),
            (["report", "neg.json", "-o", "r.html"], "neg.json:"),
        ]
        let h = "kernel,variant,backend,threads,width,height,median_ms,p95_ms,profile\r\n"
        for (name, line) in [("pipe", "fill,exact,a|b,1,64,64,1.5,1.7,iphone-6"), ("empty-backend", "fill,exact,,1,64,64,1.5,1.7,iphone-6"),
                             ("huge", "fill,exact,naive,1,64,64,1.5,1.7976931348623157e308,iphone-6"),
                             ("tiny", "fill,exact,naive,1,64,64,1.5,5e-324,iphone-6")] {
            try (h + line + "\r\n").write(to: dir.appendingPathComponent(name + ".csv"), atomically: true, encoding: .utf8)
        }
        try #"{"rows": [{"medianMs": -1}]}"#.write(to: dir.appendingPathComponent("neg.json"), atomically: true, encoding: .utf8)
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
