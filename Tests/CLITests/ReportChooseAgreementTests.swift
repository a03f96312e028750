import Foundation
import RasterHarness
import RasterKit
import RasterReport
import XCTest

/// The HTML report's answer table against `rasterbench choose --json` on the
/// same report, target by target and cell by cell: the committed run, and
/// random reports in which the K7 kernel and the scene are both named mesh
/// and fill comes in two shapes. The page is built in process with small
/// pictures (their rendering is not what is tested); choose is the executable.
final class ReportChooseAgreementTests: CLITestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The current committed run: the one report at the top of Results/
    /// (Results/README.md; a new run replaces it).
    static func currentRun() throws -> String {
        let results = root.appendingPathComponent("Results")
        let reports = try FileManager.default.contentsOfDirectory(atPath: results.path).filter { $0.hasSuffix(".csv") }
        XCTAssertEqual(reports.count, 1, "Results/ holds one current run: \(reports)")
        return results.appendingPathComponent(try XCTUnwrap(reports.sorted().last)).path
    }

    func testCommittedReportAgreesWithChoose() throws {
        let csv = try Self.currentRun()
        let names = try assertAgreement(csv)
        // The mesh scene's frame-time chart holds the scene's rows only, not the kernel's grid=3x3 ones.
        let html = try HTMLReport.html([try ReportSource.load(csv, index: 0)], options: .init(animationFrames: 1, mediaWidth: 8))
        let meshTimes = try XCTUnwrap(html.range(of: "id=\"frametime-iphone-6-mesh\"")).upperBound
        let figure = html[meshTimes...]
        let end = figure.range(of: "</svg>")?.lowerBound ?? figure.endIndex
        XCTAssertTrue(figure[..<end].contains("mesh=coarse"))
        XCTAssertFalse(figure[..<end].contains("grid=3x3"))
        // Every fill shape and both meshes have their own row.
        for name in ["fill shape=blob", "fill shape=stars", "mesh", "mesh grid=3x3"] {
            XCTAssertTrue(names.contains(name), "\(name) missing from \(names)")
        }
    }

    func testRandomReportsWithAMeshKernelAndSceneAgreeWithChoose() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            let path = dir.appendingPathComponent("random\(seed).csv").path
            try ReportCSV.document(Self.randomRows(seed: seed)).write(toFile: path, atomically: true, encoding: .utf8)
            let names = try assertAgreement(path)
            XCTAssertEqual(Set(names), ["mesh", "mesh grid=3x3", "fill shape=blob", "fill shape=stars", "aurora"], "seed \(seed)")
        }
    }

    /// Asserts that every profile's answer table equals choose's choices;
    /// returns the targets of the first profile.
    @discardableResult
    func assertAgreement(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let source = try ReportSource.load(path, index: 0)
        let html = try HTMLReport.html([source], options: .init(animationFrames: 1, mediaWidth: 8))
        var first: [String]? = nil
        for profile in source.profiles {
            let r = try run(["choose", "--from", path, "--profile", profile, "--json"])
            XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            struct Output: Decodable { var choices: [Choice] }
            let choices = try decoder.decode(Output.self, from: Data(r.stdout.utf8)).choices
            let expected = choices.map(ChoiceText.cells)
            let shown = Self.answerRows(html, id: "answer-\(profile)-1")
            XCTAssertEqual(shown.count, expected.count, "\(path) \(profile)", file: file, line: line)
            for (s, e) in zip(shown, expected) { XCTAssertEqual(s, e, "\(path) \(profile)", file: file, line: line) }
            // The front chart of each target rings the same choice.
            for c in choices {
                guard let chosen = c.chosen else { continue }
                let id = "front-\(profile)-\(c.name)".lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
                    .reduce(into: "") { s, ch in if !(ch == "-" && s.hasSuffix("-")) { s.append(ch) } }
                guard let start = html.range(of: "id=\"\(id)\"") else {
                    if chosen.psnrDb != nil { XCTFail("no chart \(id)", file: file, line: line) }
                    continue
                }
                let figure = html[start.upperBound...]
                let end = figure.range(of: "</svg>")?.lowerBound ?? figure.endIndex
                XCTAssertTrue(figure[..<end].contains("chosen: \(Self.escaped(chosen.label))"), "\(id): \(chosen.label)", file: file, line: line)
            }
            if first == nil { first = expected.map { $0[0] } }
        }
        return first ?? []
    }

    /// The cells of the answer table inside the element with this id.
    static func answerRows(_ html: String, id: String) -> [[String]] {
        guard let start = html.range(of: "id=\"\(id)\"") else { return [] }
        let rest = html[start.upperBound...]
        guard let table = rest.range(of: "<table class=\"answer\">"), let end = rest.range(of: "</table>") else { return [] }
        let body = String(rest[table.upperBound..<end.lowerBound])
        let row = try! NSRegularExpression(pattern: "<tr class=\"(?:fit|nofit)\">(.*?)</tr>", options: [.dotMatchesLineSeparators])
        let cell = try! NSRegularExpression(pattern: "<td>(.*?)</td>", options: [.dotMatchesLineSeparators])
        func text(_ r: NSRange, in s: String) -> String { String(s[Range(r, in: s)!]) }
        return row.matches(in: body, range: NSRange(body.startIndex..., in: body)).map { m in
            let r = text(m.range(at: 1), in: body)
            return cell.matches(in: r, range: NSRange(r.startIndex..., in: r)).map { unescaped(text($0.range(at: 1), in: r)) }
        }
    }

    static func unescaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// A report of random times and qualities: the mesh kernel (grid=3x3)
    /// and the mesh scene, fill's blob and stars, aurora at three scales;
    /// every backend at 1 and 2 threads; some rows failed, some without a
    /// PSNR, some within rounding of the reference.
    static func randomRows(seed: UInt64) -> [ReportRow] {
        var g = SeededGenerator(seed: seed)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(g.next() >> 11) / Double(1 << 53) }
        let targets: [(String, [String], String, [Double])] = [
            ("mesh", ["exact", "coarse"], "grid=3x3", [1]),
            ("mesh", ["exact", "mesh=coarse"], "", [1, 0.5]),
            ("fill", ["exact", "ss4", "tol1"], "shape=blob", [1]),
            ("fill", ["exact", "ss4", "tol1"], "shape=stars", [1]),
            ("aurora", ["exact", "blur=iir"], "", [1, 0.5, 0.25]),
        ]
        var rows: [ReportRow] = []
        for (kernel, variants, param, scales) in targets {
            for v in variants {
                for scale in scales {
                    for (backend, threads) in [(BackendKind.naive, 1), (.simd, 1), (.simd, 2), (.openmp, 2)] {
                        var r = ReportRow()
                        r.host = "test"; r.hostCPU = "Test CPU"; r.hostCores = 2; r.gitCommit = "abc1234"
                        r.profile = "iphone-6"; r.fps = 60; r.budgetMs = 1000.0 / 60 * 0.25; r.budgetShare = 0.25
                        r.kernel = kernel; r.variant = v; r.backend = backend; r.threads = threads
                        r.width = 750; r.height = 1334
                        r.parameters = param; r.renderScale = scale
                        r.rounds = g.below(2) == 0 ? 1 : 3
                        r.loadAverage = uniform(0.2, 3)
                        if g.below(12) == 0 { r.status = .error; rows.append(r); continue }
                        let p95 = uniform(0.5, 8)
                        r.p95Ms = p95; r.medianMs = p95 * uniform(0.8, 1)
                        switch g.below(5) {
                        case 0: r.psnrDb = nil
                        case 1: r.psnrDb = .infinity; r.maxErr = 0
                        case 2: r.psnrDb = uniform(80, 110); r.maxErr = 1
                        default: r.psnrDb = uniform(20, 60); r.maxErr = uniform(2, 40)
                        }
                        rows.append(r)
                    }
                }
            }
        }
        return rows
    }
}
