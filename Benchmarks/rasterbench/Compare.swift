import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench compare A.csv B.csv [C.csv ...]`: benchstat for reports.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare reports (or the backends of one report) row by row, with noise-aware verdicts.",
        discussion: """
            Rows match on kernel, variant, backend, profile, threads, size, sweep and parameters. \
            Every report after the first is compared with the first. Each row gets a 95% interval \
            for the ratio of medians, by a bootstrap over rounds (run --rounds K), then samples \
            within them, and a verdict: faster/slower when the whole interval lies beyond the \
            noise threshold, ~ when it lies wholly within it, ? (inconclusive: run more rounds) \
            otherwise, and always with fewer than 3 rounds a side (one run cannot tell run-to-run \
            noise apart). For each ?, the change the data could resolve (half the interval's \
            width) and the rounds a side that would resolve the threshold; rows whose rounds ran \
            at two speeds are named. With --baseline, each report's backends are compared with that backend.

            Named baselines: `compare --save-as NAME REPORT.csv` saves a report as NAME in \
            \(BaselineStore.defaultDirectory)/ under the working directory (untracked; NAME is letters, \
            digits, - _ . and replaces an earlier NAME); then any report argument written @NAME is that \
            saved report, e.g. `compare @before new.csv`.
            """)

    @Argument(help: "Reports (.csv, or .json from run --json), or @NAME for a baseline saved with --save-as.")
    var reports: [String]

    @Option(name: .long, parsing: .unconditional, help: "Exit non-zero if any row is slower with its whole interval beyond this, e.g. 5%.")
    var failAbove: String?

    @Option(name: .long, parsing: .unconditional, help: "Noise threshold: changes within it count as ~.")
    var threshold: String = "2%"

    @Option(name: .long, parsing: .unconditional, help: "Compare the backends inside each report against this one (e.g. naive).")
    var baseline: String?

    @Option(name: .long, help: "Save the one report given as a named baseline (in \(BaselineStore.defaultDirectory)/) and compare nothing.")
    var saveAs: String?

    @Option(name: .long, help: "Output: text, or markdown (a table for a CI comment).")
    var format: String = "text"

    @Option(name: .long, help: "Row order: name, or change (the largest change either way first).")
    var sort: String = "name"

    @Flag(name: .long, help: "Only the rows called faster or slower in the table (the counts still cover every row).")
    var changed = false

    func validate() throws {
        if saveAs != nil {
            if reports.count != 1 { throw ValidationError("compare --save-as NAME takes exactly one report (got \(reports.count))") }
            return
        }
        if baseline == nil && reports.count < 2 {
            throw ValidationError("compare needs at least two reports, or one report and --baseline BACKEND")
        }
        if reports.isEmpty { throw ValidationError("compare needs at least one report") }
    }

    func run() throws {
        let threshold = try failAbove.map { try parseChangePercent($0, flag: "--fail-above") }
        let rule = VerdictRule(threshold: try parseChangePercent(self.threshold, flag: "--threshold") / 100)
        let view = try Compare.view(format: format, sort: sort, changed: changed)
        let store = BaselineStore()
        if let saveAs {
            // The name first, so a bad one is refused before the report is read.
            try BaselineStore.validate(saveAs)
            let rows = try ReportFile.load(try store.resolve(reports[0]))
            let path = try store.save(rows, as: saveAs)
            print("saved \(TerminalText.safe(reports[0])) as baseline '\(saveAs)' (\(path), \(rows.count) rows); "
                  + "compare with it: rasterbench compare @\(saveAs) NEW.csv")
            return
        }
        let loaded = try reports.map { ($0, try ReportFile.load(try store.resolve($0))) }
        var comparisons: [RasterHarness.Comparison] = []
        if let baseline {
            for (path, rows) in loaded {
                guard let kind = BackendKind(rawValue: baseline), rows.contains(where: { $0.backend == kind }) else {
                    let present = Array(Set(rows.map { $0.backend.rawValue })).sorted().joined(separator: ", ")
                    throw HarnessError.invalidArgument(name: "--baseline", value: "'\(baseline)'",
                                                       accepted: "a backend present in \(path): \(present)")
                }
                comparisons.append(RasterHarness.Compare.backends(rows, baseline: kind, name: path, rule: rule))
            }
        } else {
            let (basePath, baseRows) = loaded[0]
            for (path, rows) in loaded.dropFirst() {
                comparisons.append(RasterHarness.Compare.reports(base: baseRows, new: rows, baseName: describe(basePath, baseRows),
                                                                 newName: describe(path, rows), rule: rule))
            }
        }
        var regressions = 0
        for (i, c) in comparisons.enumerated() {
            if i > 0 { print("\n" + (view.format == .markdown ? "---" : String(repeating: "=", count: 72)) + "\n") }
            print(RasterHarness.Compare.render(c, speedups: baseline != nil, view: view))
            if let threshold { regressions += Compare.reportRegressions(c, above: threshold) }
        }
        if regressions > 0 {
            print("\n\(regressions) regression(s) past \(Human.number(threshold!))%")
            throw ExitCode(ExitStatus.checkFailed)
        }
    }

    /// --format, --sort and --changed, each refused with the values it takes.
    static func view(format: String, sort: String, changed: Bool) throws -> CompareView {
        guard let f = CompareView.Format(rawValue: format) else {
            throw HarnessError.invalidArgument(name: "--format", value: "'\(Console.escaped(format))'",
                                               accepted: CompareView.Format.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let s = CompareView.Sort(rawValue: sort) else {
            throw HarnessError.invalidArgument(name: "--sort", value: "'\(Console.escaped(sort))'",
                                               accepted: CompareView.Sort.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return CompareView(format: f, sort: s, changedOnly: changed)
    }

    /// Prints each `slower` row whose whole interval lies beyond +`percent`%; returns how many.
    static func reportRegressions(_ c: RasterHarness.Comparison, above percent: Double) -> Int {
        let r = c.regressions(above: percent)
        for p in r {
            let i = p.interval!
            print("REGRESSION: \(TerminalText.safe(p.key.description)) is \(Human.signedPercent(p.ratio - 1)) (interval \(Human.signedPercent(i.lower - 1)) .. "
                  + "\(Human.signedPercent(i.upper - 1)), threshold +\(Human.number(percent))%)")
        }
        return r.count
    }

    func describe(_ path: String, _ rows: [ReportRow]) -> String {
        guard let r = rows.first else { return "\(path) (empty)" }
        return "\(path) (\(r.host.isEmpty ? "?" : r.host), \(r.hostCPU), commit \(r.gitCommit.isEmpty ? "?" : r.gitCommit), \(r.build))"
    }

}
