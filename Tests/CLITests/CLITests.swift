import Foundation
import XCTest

/// The executable as a user meets it: exit codes, one-line errors, and no
/// output file left behind when something is wrong (docs/contract.md §10).
final class CLITests: CLITestCase {
    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    let goodJob = """
    { "width": 24, "height": 16, "background": "#000000FF",
      "ops": [ { "op": "freeform", "points": [ { "x": 2, "y": 2, "color": "#7FA381" }, { "x": 20, "y": 14, "color": "#FBE37D" } ] } ] }
    """

    /// A bad input: non-zero exit, exactly one line on stderr naming `word`,
    /// nothing on the output path.
    func assertRejected(_ args: [String], mentioning word: String, line: UInt = #line) throws {
        let r = try run(args)
        XCTAssertNotEqual(r.status, 0, "exit status", line: line)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "stderr: \(r.stderr)", line: line)
        XCTAssert(r.stderr.contains(word), "stderr should mention \(word): \(r.stderr)", line: line)
        XCTAssertFalse(r.stderr.contains("Fatal error"), line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path), line: line)
    }

    func testRenderWritesPNGAndRaw() throws {
        let job = try write("job.json", goodJob)
        for backend in ["naive", "simd", "openmp"] {
            let r = try run(["render", job, "-o", "out-\(backend).png", "--backend", backend, "--threads", "2"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try run(["render", job, "-o", "out.rgba", "--variant", "down4"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("out.rgba")).count, 24 * 16 * 4)
        let png = try Data(contentsOf: dir.appendingPathComponent("out-simd.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    func testBadInputIsOneLineAndNonZero() throws {
        let job = try write("job.json", goodJob)
        try assertRejected(["render", "missing.json", "-o", "out.png"], mentioning: "missing.json")
        try assertRejected(["render", job, "-o", "out.bmp"], mentioning: ".png or .rgba")
        try assertRejected(["render", job, "-o", "out.png", "--backend", "cuda"], mentioning: "naive, simd, openmp")
        try assertRejected(["render", job, "-o", "out.png", "--threads", "0"], mentioning: "threads")
        try assertRejected(["render", job, "-o", "out.png", "--variant", "down3"], mentioning: "variant")
        try assertRejected(["render", job, "-o", "no/such/dir/out.png"], mentioning: "does not exist")
        try assertRejected(["render", job], mentioning: "--output")
        try assertRejected(["render", job, "-o", "out.png", "--threads", "many"], mentioning: "threads")
        let bad = try write("bad.json", #"{ "width": 24, "height": -16 }"#)
        try assertRejected(["render", bad, "-o", "out.png"], mentioning: "height")
        let nan = try write("nan.json", ##"{ "width": 24, "height": 16, "ops": [ { "op": "linear", "start": [0, 0], "end": [0, 0], "stops": [ { "offset": 0, "color": "#FFF" } ] } ] }"##)
        try assertRejected(["render", nan, "-o", "out.png"], mentioning: "ops[0].stops")
        try assertRejected(["verify", "--threads", "0"], mentioning: "threads")
        try assertRejected(["verify", "--kernels", "sparkle"], mentioning: "sparkle")
        try assertRejected(["frobnicate"], mentioning: "frobnicate")
    }

    func testListAndVerify() throws {
        let list = try run(["list"])
        XCTAssertEqual(list.status, 0)
        for word in ["freeform", "down10", "lut", "linear", "radial", "composite", "naive", "simd", "openmp"] {
            XCTAssert(list.stdout.contains(word), word)
        }
        let verify = try run(["verify", "--kernels", "composite,linear", "--threads", "1,3"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssert(verify.stdout.contains("all bounds hold"))
    }
}
