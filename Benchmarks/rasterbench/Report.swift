import ArgumentParser
import Foundation
import RasterHarness
import RasterKit
import RasterReport

/// `rasterbench report A.csv [B.csv ...] -o report.html`: one self-contained page.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One self-contained HTML page of charts and rendered scenes from one or more reports.",
        discussion: """
            Several reports appear side by side (two hosts, before/after), each labelled by host, \
            commit and file name. The page needs no network: charts are inline SVG, the scenes are \
            rendered by RasterKit (a PNG frame and an animated WebP each) and embedded.
              rasterbench report runs/REPORT.csv -o runs/report.html
            """)

    @Argument(help: "Reports (.csv, or .json from run --json).")
    var reports: [String] = []

    @Option(name: .shortAndLong, help: "Output .html file (its directory must exist).")
    var output: String?

    func run() throws {
        guard let output, !output.isEmpty else {
            throw HarnessError.invalidArgument(name: "--output (-o)", value: "missing", accepted: "a .html file")
        }
        guard !reports.isEmpty else {
            throw HarnessError.invalidArgument(name: "reports", value: "none", accepted: "one or more report files (.csv or .json)")
        }
        try HTMLReport.checkOutput(output)
        try OutputPath.requireDistinct([("--output (-o)", output)], inputs: reports.map { ("report", $0) })
        let (url, bytes) = try HTMLReport.write(reports: reports, to: output)
        print("wrote \(TerminalText.safe(url.path)) (\(reports.count) report\(reports.count == 1 ? "" : "s"), \(bytes / 1024) KiB)")
    }
}
