import Foundation
import XCTest

/// `rasterbench render --scene ...` end to end: frames, sequences, sheets,
/// emitted jobs, and docs/contract.md §10's treatment of bad options.
final class SceneCLITests: CLITestCase {
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func testFrameAndEmittedJobGiveTheSameBytes() throws {
        let direct = try run(["render", "--scene", "liquid", "--frame", "42", "--size", "90x160", "-o", "direct.rgba"])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        let emitted = try run(["render", "--scene", "liquid", "--frame", "42", "--size", "90x160", "--emit-job"])
        XCTAssertEqual(emitted.status, 0, emitted.stderr)
        try emitted.stdout.write(toFile: path("job.json"), atomically: true, encoding: .utf8)
        let again = try run(["render", "job.json", "-o", "again.rgba"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let a = try Data(contentsOf: URL(fileURLWithPath: path("direct.rgba")))
        XCTAssertEqual(a.count, 90 * 160 * 4)
        XCTAssertEqual(a, try Data(contentsOf: URL(fileURLWithPath: path("again.rgba"))))
        // bench works on the emitted job.
        let bench = try run(["bench", "job.json", "--quick", "--runs", "2", "--no-quality", "--per-op"])
        XCTAssertEqual(bench.status, 0, bench.stderr)
        XCTAssert(bench.stdout.contains("blob"), bench.stdout)
    }

    func testSequencesAndSheets() throws {
        let pngs = try run(["render", "--scene", "morph", "--frames", "10..13", "--size", "60x100", "-o", "frames/"])
        XCTAssertEqual(pngs.status, 0, pngs.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: path("frames")).sorted()
        XCTAssertEqual(names, ["frame-00010.png", "frame-00011.png", "frame-00012.png", "frame-00013.png"])
        let webp = try run(["render", "--scene", "morph", "--frames", "0..89", "--step", "3", "--size", "60x100", "-o", "m.webp"])
        XCTAssertEqual(webp.status, 0, webp.stderr)
        XCTAssert(webp.stdout.contains("30 frames"), webp.stdout)
        let exact = try run(["render", "--scene", "morph", "--frames", "0..5", "--size", "60x100", "--webp-quality", "lossless", "-o", "l.webp"])
        XCTAssertEqual(exact.status, 0, exact.stderr)
        XCTAssert(exact.stdout.contains("lossless"), exact.stdout)
        let header = try Data(contentsOf: URL(fileURLWithPath: path("m.webp"))).prefix(16)
        XCTAssertEqual(String(decoding: header[8..<12], as: UTF8.self), "WEBP")
        let sheet = try run(["render", "--scene", "aurora", "--sheet", "--size", "60x100", "--theme", "dark", "-o", "s.png"])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        XCTAssert(FileManager.default.fileExists(atPath: path("s.png")))
    }

    /// Every bad option: one line on stderr, a status in 1...127, no output.
    func testBadOptionsFailCleanlyBeforeWriting() throws {
        let cases: [[String]] = [
            ["render", "--scene", "nope", "-o", "x.png"],
            ["render", "--scene", "morph", "--theme", "dark", "-o", "x.png"],
            ["render", "--scene", "aurora", "--mode", "loud\nly", "-o", "x.png"],
            ["render", "--scene", "telegram", "--style", "android", "-o", "x.png"],
            ["render", "--scene", "morph", "--scale", "0.3", "-o", "x.png"],
            ["render", "--scene", "morph", "--frame", "-4", "-o", "x.png"],
            ["render", "--scene", "morph", "--frames", "5..2", "-o", "x/"],
            ["render", "--scene", "morph", "--frames", "0..20000", "-o", "x/"],
            ["render", "--scene", "morph", "--frames", "a..b", "-o", "x/"],
            ["render", "--scene", "morph", "--frames", "0..3", "-o", "x.png"],
            ["render", "--scene", "morph", "--step", "2", "-o", "x.png"],
            ["render", "--scene", "morph", "--frame", "1", "--sheet", "-o", "x.png"],
            ["render", "--scene", "morph", "--sheet", "-o", "x.rgba"],
            ["render", "--scene", "morph", "-o", "x.jpg"],
            ["render", "--scene", "morph", "--size", "0x10", "-o", "x.png"],
            ["render", "--scene", "morph", "--profile", "nokia", "-o", "x.png"],
            ["render", "--scene", "morph", "--variant", "blur=nope", "-o", "x.png"],
            ["render", "--scene", "morph", "-o", "missing-dir/x.png"],
            ["render", "--scene", "morph", "--frames", "0..2", "-o", "missing-dir/x.webp"],
            ["render", "job.json", "--scene", "morph", "-o", "x.png"],
            ["render", "--frame", "3", "-o", "x.png"],
            ["render", "--scene", "morph", "--frames", "0..2", "--webp-quality", "101", "-o", "x.webp"],
            ["render", "--scene", "morph", "--frames", "0..2", "--webp-quality", "nan", "-o", "x.webp"],
            ["render", "--scene", "morph", "--frames", "0..2", "--webp-quality", "90", "-o", "x/"],
            ["render", "--scene", "morph", "--webp-quality", "90", "-o", "x.png"],
        ]
        for args in cases {
            let o = try run(args)
            let what = args.joined(separator: " ")
            XCTAssert((1...127).contains(o.status), "\(what): status \(o.status)")
            let lines = o.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(what): \(o.stderr)")
            XCTAssert(o.stderr.hasPrefix("error: "), "\(what): \(o.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            XCTAssertEqual(left, [], "\(what) left \(left)")
        }
    }

    func testListShowsScenes() throws {
        let o = try run(["list"])
        XCTAssertEqual(o.status, 0)
        for name in ["telegram", "aurora", "liquid", "mesh", "morph", "reduce-transparency", "contest", "layer=full|quarter"] {
            XCTAssert(o.stdout.contains(name), "list does not mention \(name)")
        }
    }
}
