import Foundation
import XCTest

/// Numeric input through the executable: extreme but finite numbers and jobs too
/// large for memory end in one line and an exit status below 128 (never a
/// trap or an allocation failure), leave no output file, and fail fast.
final class NumericInputCLITests: CLITestCase {
    func write(_ name: String, _ json: String) throws -> String {
        try json.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return name
    }

    func assertOneLineError(_ o: Outcome, _ what: String, mentions: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssert((1...127).contains(o.status), "\(what): status \(o.status) \(o.stderr)", file: file, line: line)
        XCTAssertEqual(o.stderr.filter { $0 == "\n" }.count, 1, "\(what): \(o.stderr)", file: file, line: line)
        XCTAssert(o.stderr.contains(mentions), "\(what): \(o.stderr)", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.png").path), "\(what): output left", file: file, line: line)
    }

    func testTrappingNumbersGiveOneLineErrorsOnEveryBackend() throws {
        let cases: [(String, String, String)] = [
            ("blur sigma 1e-200", ##"{"op":"blur","sigma":1e-200}"##, "sigma"),
            ("blur sigma 5e-324", ##"{"op":"blur","sigma":5e-324}"##, "sigma"),
            ("influence 1e39", ##"{"op":"freeform","points":[{"x":1e20,"y":0,"color":"#FF0000"}],"influence":1e39}"##, "influence"),
            ("influence 1e300", ##"{"op":"freeform","points":[{"x":3,"y":0,"color":"#FF0000"}],"influence":1e300}"##, "influence"),
            ("point at 1e20", ##"{"op":"freeform","points":[{"x":1e20,"y":0,"color":"#FF0000"}],"influence":10}"##, "points[0]"),
            ("start at 1e308", ##"{"op":"linear","start":[1e308,0],"end":[0,0],"stops":[{"offset":0,"color":"#FF0000"},{"offset":1,"color":"#00FF00"}]}"##, "start"),
            ("radius 1e-50", ##"{"op":"radial","center":[3,3],"radius":1e-50,"extend":"repeat","stops":[{"offset":0,"color":"#FF0000"},{"offset":1,"color":"#00FF00"}]}"##, "radius")]
        for (what, op, mentions) in cases {
            let job = try write("j.json", ##"{"width":16,"height":16,"ops":["## + op + "]}")
            for backend in ["naive", "simd", "openmp"] {
                for variant in ["freeform=lut,blur=iir", "freeform=full,blur=exact"] {
                    let o = try run(["render", job, "-o", "o.png", "--backend", backend, "--variant", variant])
                    assertOneLineError(o, "\(what) on \(backend) \(variant)", mentions: mentions)
                }
            }
        }
    }

    func testExtremeArcsRenderOnEveryBackend() throws {
        for d in ["M0 0 A1e-300 1e-300 0 0 0 5 5 Z", "M0 0 A3 4 1e308 0 0 5 5 Z", "M0 0 A1e300 1e300 0 0 1 5 5 Z"] {
            let job = try write("a.json", ##"{"width":16,"height":16,"ops":[{"op":"fill","path":""## + d + ##"","color":"#FF0000"}]}"##)
            for backend in ["naive", "simd", "openmp"] {
                let o = try run(["render", job, "-o", "o.png", "--backend", backend])
                XCTAssertEqual(o.status, 0, "\(d) on \(backend): \(o.stderr)")
                try? FileManager.default.removeItem(at: dir.appendingPathComponent("o.png"))
            }
        }
    }

    /// A 32768x32768 canvas with nested layers and two images: refused from
    /// its shape, in well under a second's work and without allocating it
    /// (the children's peak resident memory stays far below one canvas).
    /// The large arc of a 1e300-px ellipse really is 1e300 px away: a
    /// one-line error (the path's coordinate range), not a trap.
    func testAnArcFarOffTheCoordinateRangeIsAnError() throws {
        let job = try write("a.json", ##"{"width":16,"height":16,"ops":[{"op":"fill","path":"M0 0 A1e300 1 0 1 1 5 5 Z","color":"#FF0000"}]}"##)
        assertOneLineError(try run(["render", job, "-o", "o.png"]), "far arc", mentions: "path")
    }

    func testJobsBeyondTheMemoryBudgetFailFast() throws {
        let job = try write("big.json", ##"{"width":32768,"height":32768,"ops":[{"op":"image","file":"x.png"},{"op":"image","file":"y.png"},"##
                            + ##"{"op":"layer","ops":[{"op":"layer","ops":[{"op":"blur","sigma":3}]}]}]}"##)
        for args in [["render", job, "-o", "o.png"], ["render", job, "-o", "o.png", "--max-memory", "8G"],
                     ["bench", job, "--max-memory", "1G"]] {
            let start = Date()
            let (o, peakKiB, inheritedKiB) = try runMeasuringPeak(args)
            XCTAssertLessThan(Date().timeIntervalSince(start), 20, "\(args)")
            assertOneLineError(o, "\(args)", mentions: "--max-memory")
            // Below 1 GiB, or (under ASan, whose test process is bigger than
            // that) no higher than the mark the child inherited.
            XCTAssert(peakKiB < 1 << 20 || peakKiB <= inheritedKiB,
                      "\(args): peak RSS \(peakKiB) KiB, inherited \(inheritedKiB) KiB; one 32768^2 canvas is 4 GiB")
        }
    }

    /// What `--max-memory` bounds besides a canvas: a job file's size, a
    /// PNG it draws, a scene frame at a reduced render scale (with the
    /// full-size canvas it is resampled to), and `bench`'s double-precision
    /// reference. Each is refused before it is allocated (files before they
    /// are read: sparse files, only their size is real).
    func testEverythingAJobHoldsIsCheckedAgainstTheMemoryBudget() throws {
        func sparse(_ name: String, bytes: UInt64) throws {
            let url = dir.appendingPathComponent(name)
            FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: bytes)
            try handle.close()
        }
        try sparse("huge-job.json", bytes: 2 << 20)
        try sparse("huge.png", bytes: 64 << 20)
        let png = try write("png.json", ##"{"width":8,"height":8,"ops":[{"op":"image","file":"huge.png"}]}"##)
        let nested = try write("nested.json", ##"{"width":3000,"height":3000,"ops":[{"op":"layer","ops":[{"op":"layer","ops":[{"op":"blur","sigma":2}]}]}]}"##)
        let cases: [([String], String)] = [
            (["render", "huge-job.json", "-o", "o.png", "--max-memory", "16M"], "under --max-memory 16 MiB"),
            (["render", png, "-o", "o.png", "--max-memory", "16M"], "ops[0].file"),
            (["render", "--scene", "aurora", "--size", "6000x6000", "--scale", "0.5", "-o", "o.png", "--max-memory", "300M"], "at scale 0.5"),
            (["render", "--scene", "aurora", "--size", "6000x6000", "--frames", "0..1", "-o", "frames/", "--max-memory", "300M"], "--max-memory"),
            (["render", "--scene", "aurora", "--size", "6000x6000", "--sheet", "-o", "sheet.png", "--max-memory", "300M"], "--max-memory"),
            (["bench", nested, "--max-memory", "2G", "--runs", "1", "--quick"], "--no-quality"),
        ]
        for (args, mentions) in cases {
            let (o, peakKiB, inheritedKiB) = try runMeasuringPeak(args)
            assertOneLineError(o, "\(args)", mentions: mentions)
            XCTAssert(peakKiB < 256 << 10 || peakKiB <= inheritedKiB, "\(args): peak RSS \(peakKiB) KiB, inherited \(inheritedKiB) KiB")
        }
    }

    func testMaxMemoryValuesAreChecked() throws {
        let job = try write("s.json", ##"{"width":8,"height":8,"ops":[]}"##)
        for bad in ["", "lots", "-5M", "1K", "1G\n2"] {
            assertOneLineError(try run(["render", job, "-o", "o.png", "--max-memory", bad]), "--max-memory \(bad)", mentions: "--max-memory")
        }
        XCTAssertEqual(try run(["render", job, "-o", "o.png", "--max-memory", "64M"]).status, 0)
    }
}
