import Foundation
import XCTest

/// `compare` and `choose` print report text (host, CPU, commit, profile,
/// variant, parameters, notes) and the file names given: with every one of
/// them hostile, no control character but a newline reaches stdout.
final class TerminalEscapeCLITests: CLITestCase {
    static let hostile = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}evil\u{7F}"

    /// A report of aurora on iphone-6 whose every text field holds `hostile` (quoted: it has no comma or quote).
    static var report: String {
        let h = hostile
        let header = "host,host_cpu,host_cores,os,git_commit,compiler_flags,build,swift_version,date,optimized,openmp,profile,fps,kernel,variant,backend,threads,width,height,sweep,param,status,samples,median_ms,p95_ms,psnr_db,max_err,note,quality_on,samples_ms"
        func row(_ variant: String, _ backend: String, _ median: String, _ psnr: String, _ status: String = "ok") -> String {
            "\(h),\(h),2,\(h),\(h),\(h),\(h),\(h),\(h),true,true,iphone-6,60,aurora,\(variant),\(backend),1,750,1334,,\(h),\(status),3,\(median),\(median),\(psnr),9,\(h),\(h),\(median) \(median) \(median)"
        }
        return [header, row(h, "naive", "9", "41"), row(h + "2", "simd", "8", "40"), row(h + "3", "openmp", "7", "", "unsupported")]
            .joined(separator: "\r\n") + "\r\n"
    }

    func assertNoControl(_ r: Outcome, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let bad = r.stdout.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x202E].contains($0.value)) }
        XCTAssertTrue(bad.isEmpty, "\(what): \(bad.map { String($0.value, radix: 16) }) in \(r.stdout.debugDescription)", file: file, line: line)
        XCTAssertTrue(r.stdout.contains("\\u{1b}]0;pwned"), "\(what): shown escaped: \(r.stdout.debugDescription)", file: file, line: line)
    }

    func testCompareAndChoosePrintNoControlCharacters() throws {
        let name = "r\(Self.hostile).csv"
        try Self.report.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let compare = try run(["compare", name, name])
        XCTAssertEqual(compare.status, 0, compare.stderr)
        assertNoControl(compare, "compare")
        let baseline = try run(["compare", "--baseline", "naive", name])
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        assertNoControl(baseline, "compare --baseline")
        // A tight share: nothing fits, so the misses line prints the fastest option's label too.
        for share in ["25%", "1%"] {
            let choose = try run(["choose", "--from", name, "--scenes", "aurora", "--kernels", "none", "--share", share])
            XCTAssertEqual(choose.status, 0, choose.stderr)
            assertNoControl(choose, "choose --share \(share)")
        }
    }
}
