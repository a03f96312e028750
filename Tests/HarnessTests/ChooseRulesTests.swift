import RasterKit
import XCTest
@testable import RasterHarness

/// `choose`'s rules on report rows, without the command: row filtering,
/// the missing-targets rule and wisdom's one host and one build.
final class ChooseRulesTests: XCTestCase {
    static func row(_ target: String, backend: BackendKind = .simd, profile: String = "iphone-6", threads: Int = 2,
                    status: RowStatus = .ok) -> ReportRow {
        var r = ChooserTests.row("exact", target: target, backend: backend, threads: threads, p95: 1, psnr: 40,
                                 status: status, profile: profile)
        r.hostCPU = "CPU"; r.hostCores = 4; r.os = "Linux"; r.gitCommit = "abc"; r.compilerFlags = "-O"
        return r
    }

    func testRowsAreTheProfilesSelectedTargetsAndBackends() throws {
        let rows = [Self.row("aurora"), Self.row("aurora", backend: .naive, threads: 1), Self.row("liquid"),
                    Self.row("aurora", profile: "iphone-11")]
        let kept = try ChooseRules.rows(rows, profile: "iphone-6", targets: ["aurora"], backends: [.simd])
        XCTAssertEqual(kept, [rows[0]])
        XCTAssertEqual(ChooseRules.measuredThreads(rows), 2)
        XCTAssertNil(ChooseRules.measuredThreads([Self.row("aurora", status: .error)]))
        XCTAssertThrowsError(try ChooseRules.rows(rows, profile: "ipad", targets: ["aurora"], backends: [.simd])) { e in
            XCTAssertEqual("\(e)", "invalid profile: 'ipad' (accepted: a profile the report(s) measured: iphone-11, iphone-6)")
        }
        XCTAssertThrowsError(try ChooseRules.rows([Self.row("aurora", profile: "")], profile: "ipad", targets: [], backends: [])) { e in
            XCTAssertTrue("\(e)".hasSuffix("(accepted: no profile rows in the report(s))"), "\(e)")
        }
    }

    func testMissingTargetsNeedAnExplicitSelectionOrAMentionInTheRows() {
        let rows = [Self.row("aurora"), Self.row("liquid", status: .error)]
        let fronts = QualityFront.fronts(from: rows)
        let selected = ["aurora", "liquid", "morph"]
        XCTAssertEqual(ChooseRules.missingTargets(selected: selected, fronts: fronts, rows: rows, explicit: true), ["liquid", "morph"])
        XCTAssertEqual(ChooseRules.missingTargets(selected: selected, fronts: fronts, rows: rows, explicit: false), ["liquid"],
                       "a report need not hold every target; one it names but could not use is missing")
    }

    func testWisdomTakesOneHostAndOneBuild() throws {
        var a = Self.row("aurora"); a.host = "box-1"
        var b = Self.row("liquid"); b.host = "box-2"
        let (host, build) = try ChooseRules.wisdomSource([a, b])
        XCTAssertEqual(host.cpu, "CPU"); XCTAssertEqual(build.commit, "abc")
        var otherBuild = b; otherBuild.gitCommit = "def"
        var otherHost = b; otherHost.hostCores = 8
        for rows in [[a, otherBuild], [a, otherHost], []] {
            XCTAssertThrowsError(try ChooseRules.wisdomSource(rows)) { e in
                XCTAssertTrue("\(e)".hasPrefix("invalid wisdomRows: rows from"), "\(e)")
            }
        }
    }
}
