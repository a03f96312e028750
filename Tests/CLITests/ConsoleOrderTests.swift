import Foundation
import XCTest

/// stdout is block-buffered into a pipe, stderr is not: a note written to
/// stderr while the table sits in stdout's buffer used to land in the
/// middle of the table (`2>&1 | tee`). Here both go into one pipe.
final class ConsoleOrderTests: CLITestCase {
    func testNotesComeAfterTheTableTheyFollow() throws {
        let p = Process()
        p.executableURL = executable
        p.arguments = ["run"] + HarnessCLITests.tinyRun + ["--out", "a.csv"]
        p.currentDirectoryURL = dir
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        let lines = text.components(separatedBy: "\n")
        let wrote = try XCTUnwrap(lines.lastIndex { $0.hasPrefix("wrote ") }, text)
        let table = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("kernel") || $0.contains("median") }, text)
        // Progress lines (stderr) come before the table, never inside it.
        XCTAssertFalse(lines[table..<wrote].contains { $0.contains("[1/") }, text)
        // A debug build warns after writing: the warning follows the "wrote" line, whole.
        if let warning = lines.lastIndex(where: { $0.contains("DEBUG (-Onone) build") }) {
            XCTAssertGreaterThan(warning, wrote, text)
            XCTAssertTrue(lines[warning].hasPrefix("WARNING"), lines[warning])
        }
        // Every line is either a note/warning or has no note glued into it.
        for l in lines where l.contains("note: load average") { XCTAssertTrue(l.hasPrefix("note: load average"), l) }
    }
}
