import ArgumentParser
import Foundation
import RasterHarness

/// `rasterbench compare A.csv B.csv [C.csv ...]`: benchstat for reports.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare reports (or the backends of one report) row by row, with noise-aware verdicts.",
        discussion: """
            Rows match on kernel, variant, backend, profile, threads, size, sweep and parameters. \
            Every report after the first is compared with the first. A difference is significant \
            when a Mann-Whitney U test on the raw samples gives p < 0.05 (or, without raw samples, \
            when the medians differ by more than the two MADs together); otherwise the verdict is ~. \
            With --baseline, each report's backends are compared with that backend instead.
            """)

    @Argument(help: "Reports (.csv, or .json from run --json).")
    var reports: [String]

    @Option(name: .long, help: "Exit non-zero if any row is significantly slower by more than this, e.g. 5%.")
    var failAbove: String?

    @Option(name: .long, help: "Compare the backends inside each report against this one (e.g. naive).")
    var baseline: String?

    func validate() throws {
        if baseline == nil && reports.count < 2 {
            throw ValidationError("compare needs at least two reports, or one report and --baseline BACKEND")
        }
        if reports.isEmpty { throw ValidationError("compare needs at least one report") }
    }

    func run() throws {
        let threshold = try failAbove.map(Compare.parsePercent)
        let loaded = try reports.map { ($0, try ReportFile.load($0)) }
        var comparisons: [RasterHarness.Comparison] = []
        if let baseline {
            for (path, rows) in loaded {
                guard rows.contains(where: { $0.backend == baseline }) else {
                    let present = Array(Set(rows.map(\.backend))).sorted().joined(separator: ", ")
                    throw HarnessError.invalidArgument(name: "--baseline", value: "'\(baseline)'",
                                                       accepted: "a backend present in \(path): \(present)")
                }
                comparisons.append(RasterHarness.Compare.backends(rows, baseline: baseline, name: path))
            }
        } else {
            let (basePath, baseRows) = loaded[0]
            for (path, rows) in loaded.dropFirst() {
                comparisons.append(RasterHarness.Compare.reports(base: baseRows, new: rows, baseName: describe(basePath, baseRows),
                                                                 newName: describe(path, rows)))
            }
        }
        var regressions = 0
        for (i, c) in comparisons.enumerated() {
            if i > 0 { print("\n" + String(repeating: "=", count: 72) + "\n") }
            print(RasterHarness.Compare.render(c, speedups: baseline != nil))
            if let threshold {
                let r = c.regressions(above: threshold)
                regressions += r.count
                for p in r {
                    print("REGRESSION: \(p.key) is \(Human.signedPercent(p.ratio - 1)) (threshold +\(Human.number(threshold))%)")
                }
            }
        }
        if regressions > 0 {
            print("\n\(regressions) regression(s) past \(Human.number(threshold!))%")
            throw ExitCode(1)
        }
    }

    func describe(_ path: String, _ rows: [ReportRow]) -> String {
        guard let r = rows.first else { return "\(path) (empty)" }
        return "\(path) (\(r.host.isEmpty ? "?" : r.host), \(r.hostCPU), commit \(r.gitCommit.isEmpty ? "?" : r.gitCommit), \(r.build))"
    }

    /// "5%", "5" or "0.5%": a percentage, >= 0.
    static func parsePercent(_ text: String) throws -> Double {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let v = Double(t.hasSuffix("%") ? String(t.dropLast()) : t), v.isFinite, v >= 0 else {
            throw HarnessError.invalidArgument(name: "--fail-above", value: "'\(text)'", accepted: "a percentage >= 0, e.g. 5%")
        }
        return v
    }
}
