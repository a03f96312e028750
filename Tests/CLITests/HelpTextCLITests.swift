import Foundation
import XCTest

/// What `--help` tells a user: each default once, the exit statuses, the
/// `--adaptive` options apart from the suite's, and examples that do not
/// overwrite a file the repository tracks.
final class HelpTextCLITests: CLITestCase {
    static let commands = ["run", "bench", "compare", "ab", "render", "verify", "list", "choose", "governor", "report"]

    /// One help entry per option: its first line starts with two spaces
    /// and a dash; continuation lines are indented further.
    func entries(_ help: String) -> [String] {
        var out: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") { out.append(String(line)) }
            else if line.hasPrefix("      "), !out.isEmpty { out[out.count - 1] += " " + line.trimmingCharacters(in: .whitespaces) }
            else if !line.hasPrefix("  ") { out.append("") }
        }
        return out.filter { !$0.isEmpty }
    }

    func testEveryDefaultIsStatedOnce() throws {
        for command in Self.commands {
            let r = try run([command, "--help"])
            XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
            for entry in entries(r.stdout) {
                let count = entry.lowercased().components(separatedBy: "default").count - 1
                XCTAssertLessThanOrEqual(count, 1, "\(command): \(entry)")
            }
        }
    }

    func testExamplesDoNotWriteOverTrackedFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for command in [""] + Self.commands {
            let r = try run(command.isEmpty ? ["--help"] : [command, "--help"])
            let words = r.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            for (i, word) in words.enumerated().dropLast() where ["-o", "--out", "--output", "--save", "--json", "--record"].contains(word) {
                let target = words[i + 1]
                guard !target.hasPrefix("<") else { continue } // the option's own synopsis
                XCTAssertFalse(target.hasPrefix("Results/"), "\(command) --help writes into the committed Results/: \(word) \(target)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path),
                               "\(command) --help's example overwrites \(target), which the repository holds")
            }
        }
    }

    func testExitStatusesAndTheAdaptiveGroupAreShown() throws {
        let top = try run(["--help"])
        XCTAssertTrue(top.stdout.contains("Exit status: 0 success, 1 bad input") && top.stdout.contains("2 usage"), top.stdout)
        let help = try run(["run", "--help"]).stdout
        let group = try XCTUnwrap(help.range(of: "ADAPTIVE RUN"), help)
        let adaptive = help[group.lowerBound...].prefix { _ in true }
        let section = adaptive.components(separatedBy: "\n\n").first ?? ""
        for option in ["--adaptive", "--stress", "--buffer", "--frames"] { XCTAssertTrue(section.contains(option), "\(option) in \(section)") }
        XCTAssertFalse(section.contains("--rounds"), section)
    }
}
