import Foundation
import XCTest

/// The bad-input matrix: the real executable, every command and
/// option, each given one missing, malformed, out-of-range or hostile value
/// (docs/contract.md §10's classes and the issue's) while everything else on the
/// command line is valid and cheap (8x8 frames, one quick naive workload).
/// Every case must end with:
/// - exactly one line on stderr,
/// - an exit status in 1...127 (an error, never a signal or a trap),
/// - no output and no temporary file left behind (the working directory,
///   where every output path of the matrix points, is listed before/after),
/// - within 10 s (30 s under a sanitizer: `compare` of a one-row report
///   takes about 10 s in the debug ASan build, its bootstrap's loops
///   unoptimised and checked, against 0.05 s in release) and, unless
///   running under a sanitizer (whose shadow memory needs terabytes of
///   address space), within 4 GB of address space (RLIMIT_AS through
///   `ulimit -v`).
/// The matrix is generated from tables (command x option x value class);
/// its size is printed. Cases that fail today because their class is still
/// being fixed are listed in `knownFailures` under the issue's class name:
/// the test reports them, and fails if a listed case passes (so the list
/// only shrinks) or if an unlisted case fails.
final class BadInputMatrixTests: CLITestCase {
    /// `numericOption`: the option a bad number was given to, whose error
    /// must name it and its accepted range.
    /// `valueOnly`: a bad number or name for an option, refused while the
    /// command line is read, before any file, decoder or kernel runs.
    struct Case: Hashable { var id: String; var args: [String]; var numericOption: String? = nil; var valueOnly = false }

    static let sanitized: Bool = {
        let env = ProcessInfo.processInfo.environment
        return env["ASAN_OPTIONS"] != nil || env["TSAN_OPTIONS"] != nil || env["RASTERBENCH_SANITIZER"] != nil
    }()
    static let timeLimit: TimeInterval = sanitized ? 30 : 10
    static let addressSpaceKiB = 4 * 1024 * 1024

    // MARK: value classes

    /// Bad numbers, for every numeric option.
    static let numbers: [(String, String)] = [
        ("empty", ""), ("minus-one", "-1"), ("zero", "0"), ("nan", "nan"), ("NaN", "NaN"), ("inf", "inf"),
        ("minus-inf", "-inf"), ("1e308", "1e308"), ("hex", "0x10"), ("huge-int", "99999999999999999999999"),
        ("word", "many"), ("newline", "1\n2"), ("control", "1\u{01}"), ("huge-string", String(repeating: "9", count: 100_000)),
        ("space", " 2"), ("comma-only", ","),
    ]
    /// Bad names, for every option naming a backend, scene, profile, kernel...
    static let names: [(String, String)] = [
        ("empty", ""), ("unknown", "nope"), ("newline", "simd\nnaive"), ("escape", "\u{1b}[31mred"),
        ("control", "a\u{01}\u{7f}"), ("huge-string", String(repeating: "x", count: 100_000)),
        ("comma-only", ","), ("double-comma", "naive,,simd"), ("nul-like", "\\0"),
    ]
    /// Bad input files (created by `makeFixtures`).
    static let inputs: [(String, String)] = [
        ("missing", "missing.json"), ("directory", "adir"), ("trailing-slash", "job.json/"), ("fifo", "fifo.json"),
        ("dev-zero", "/dev/zero"), ("dev-null", "/dev/null"), ("empty-file", "empty.json"), ("empty-path", ""),
        ("symlink-to-dir", "dirlink.json"), ("newline-name", "bad\nname.json"), ("huge-name", String(repeating: "j", count: 5000)),
        ("binary", "binary.json"),
    ]
    /// Bad output paths (all relative to the working directory, or devices).
    static let outputs: [(String, String)] = [
        ("empty", ""), ("directory", "adir"), ("trailing-slash", "new.png/"), ("missing-dir", "nodir/out.png"),
        ("dev-full", "/dev/full"), ("fifo", "ofifo.png"), ("symlink-to-dev-full", "fulllink.png"),
        ("wrong-extension", "out.bmp"), ("newline-name", "no\ndir/out.png"), ("huge-name", String(repeating: "o", count: 5000) + ".png"),
        ("dot", "."), ("root", "/"),
    ]
    /// Bad folders for `ab --out` (a folder option: a trailing slash is fine there).
    static let abFolders: [(String, String)] = [
        ("empty", ""), ("dev-full", "/dev/full"), ("fifo", "ofifo.png"), ("symlink-to-dev-full", "fulllink.png"),
        ("regular-file", "job.json"), ("huge-name", String(repeating: "o", count: 5000)), ("unwritable", "/proc/abdir"),
    ]
    /// Hostile recorded traces for `governor --trace`: one bad field in a valid trace.
    static let traces: [(String, String)] = [
        ("ms-1e308", "1e308"), ("ms-nan", "nan"), ("ms-inf", "inf"), ("ms-negative", "-1"), ("ms-hex", "0x10"),
        ("ms-5e-324-psnr-nan", "5e-324+psnr:nan"), ("frame-huge", "frame:99999999999999999999"), ("level-1e308", "level:1e308"),
        ("level-65", "level:65"), ("psnr-nan", "psnr:nan"), ("psnr-negative", "psnr:-1"), ("header-only", "header"),
    ]
    /// Hostile job documents (file name -> contents), for every command taking a job.
    static let jobs: [(String, String)] = [
        ("top-level-null", "null"), ("top-level-array", "[]"), ("zero-size", ##"{"width":0,"height":8,"ops":[]}"##),
        ("negative-size", ##"{"width":-8,"height":8,"ops":[]}"##),
        ("overflowing-size", ##"{"width":4611686018427387904,"height":4,"ops":[]}"##),
        ("huge-canvas-layers", ##"{"width":32768,"height":32768,"ops":[{"op":"layer","opacity":1,"ops":[{"op":"layer","opacity":1,"ops":[]}]}]}"##),
        ("newline-color", ##"{"width":8,"height":8,"background":"#00\n0000","ops":[]}"##),
        ("newline-op", ##"{"width":8,"height":8,"ops":[{"op":"fi\nll"}]}"##),
        ("huge-op-name", ##"{"width":8,"height":8,"ops":[{"op":""## + String(repeating: "z", count: 100_000) + ##""}]}"##),
        ("arc-tiny-radii", ##"{"width":8,"height":8,"ops":[{"op":"fill","path":"M0 0 A1e-300 1e-300 0 0 0 5 5 Z","color":"#FF0000"}]}"##),
        ("arc-huge-rotation", ##"{"width":8,"height":8,"ops":[{"op":"fill","path":"M0 0 A3 3 1e308 0 0 5 5 Z","color":"#FF0000"}]}"##),
        ("nul-in-path", "{\"width\":8,\"height\":8,\"ops\":[{\"op\":\"fill\",\"path\":\"M0 0 L\\u0000 5 5 Z\",\"color\":\"#FF0000\"}]}"),
        ("empty-path", ##"{"width":8,"height":8,"ops":[{"op":"fill","path":"","color":"#FF0000"}]}"##),
        ("tiny-sigma", ##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":1e-200,"edge":"transparent"}]}"##),
        ("huge-sigma", ##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":1e300,"edge":"transparent"}]}"##),
        ("zero-sigma", ##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":0,"edge":"transparent"}]}"##),
        ("huge-influence", ##"{"width":8,"height":8,"ops":[{"op":"freeform","points":[{"x":1e20,"y":1,"color":"#FF0000"}],"influence":1e300,"exponent":4}]}"##),
        ("infinite-number", ##"{"width":8,"height":8,"ops":[{"op":"radial","center":[1e999,4],"radius":3,"stops":[],"extend":"pad"}]}"##),
        ("blob-far-anchors", ##"{"width":8,"height":8,"ops":[{"op":"blob","anchors":[[1e8,1e8],[-1e8,1e8],[0,-1e8]],"color":"#FF0000"}]}"##),
        ("image-fifo", ##"{"width":8,"height":8,"ops":[{"op":"image","file":"fifo.png"}]}"##),
        ("image-dev-zero", ##"{"width":8,"height":8,"ops":[{"op":"image","file":"/dev/zero"}]}"##),
        ("image-directory", ##"{"width":8,"height":8,"ops":[{"op":"image","file":"adir"}]}"##),
        ("image-truncated-png", ##"{"width":8,"height":8,"ops":[{"op":"image","file":"truncated.png"}]}"##),
        ("deep-layers", ##"{"width":8,"height":8,"ops":["## + String(repeating: ##"{"op":"layer","opacity":1,"ops":["##, count: 5000)
            + String(repeating: "]}", count: 5000) + "]}"),
        ("unknown-key", ##"{"width":8,"height":8,"ops":[],"wid\nth":3}"##),
        ("truncated-json", ##"{"width":8,"height":8,"ops":[{"op":"##),
    ]
    /// Hostile CSV reports, for `compare`: whole documents, and numbers put
    /// in the median_ms column of a valid report (`makeFixtures`).
    static let reports: [(String, String)] = [
        ("empty-file", ""), ("header-only-garbage", "a,b,c\r\n"),
        ("unterminated-quote", "kernel,median_ms\r\n\"k,1\r\n"),
        ("newline-field", "kernel,median_ms\r\n\"k\nx\",1\r\n"),
        ("binary", "\u{00}\u{01}\u{02}\u{ff}"),
    ]
    static let medians: [(String, String)] = [
        ("negative", "-1"), ("zero", "0"), ("nan", "NaN"), ("inf", "inf"), ("hex", "0x10"), ("overflow", "1e999"),
        ("word", "fast"), ("empty", ""),
    ]

    // MARK: the matrix

    /// Every case: (id, arguments). `base` gives each command's valid, cheap
    /// arguments; an option under test replaces (or adds) its own value.
    static func matrix() -> [Case] {
        var cases: [Case] = []
        func add(_ id: String, _ args: [String], numeric: String? = nil, valueOnly: Bool = false) {
            cases.append(Case(id: id, args: args, numericOption: numeric, valueOnly: valueOnly))
        }

        let cheapRun = ["--kernels", "composite", "--backends", "naive", "--threads", "1", "--size", "8x8",
                        "--quick", "--runs", "1", "--no-dram"]
        let sceneRender = ["render", "--scene", "liquid", "--size", "8x8"]
        struct Command {
            var name: String; var base: [String]; var numeric: [String]; var named: [String]; var outputs: [String]
            /// Output values this command takes as valid folders to write in ("/" would write into the root).
            var skippedOutputs: Set<String> = []
        }
        let commands = [
            Command(name: "run", base: ["run"] + cheapRun + ["--out", "ok.csv"],
                    numeric: ["--fps", "--share", "--threads", "--rounds", "--seed", "--runs", "--sigmas", "--size", "--contend"],
                    named: ["--profile", "--backends", "--kernels", "--scenes", "--variants", "--filter", "--sweep"],
                    outputs: ["--out", "--json"]),
            Command(name: "render-scene", base: sceneRender + ["-o", "ok.png"],
                    numeric: ["--seed", "--size", "--frame", "--frames", "--step", "--threads", "--scale"],
                    named: ["--scene", "--profile", "--theme", "--mode", "--style", "--backend", "--variant"],
                    outputs: ["-o"]),
            Command(name: "render-job", base: ["render", "job.json", "-o", "ok.png"],
                    numeric: ["--threads", "--scale", "--max-memory", "--max-seconds"], named: ["--backend", "--variant"], outputs: ["-o"]),
            Command(name: "bench", base: ["bench", "job.json", "--backend", "naive", "--runs", "1", "--quick", "--no-quality"],
                    numeric: ["--threads", "--runs", "--fps", "--share", "--scale", "--max-memory", "--max-seconds"], named: ["--backend", "--variant"], outputs: []),
            Command(name: "verify", base: ["verify", "--kernels", "composite", "--threads", "1"],
                    numeric: ["--threads"], named: ["--kernels"], outputs: []),
            Command(name: "compare", base: ["compare", "good.csv", "good.csv"],
                    numeric: ["--threshold", "--fail-above"], named: ["--baseline", "--format", "--sort"], outputs: []),
            // A named baseline saved into the store (a folder under the working directory).
            Command(name: "compare-save", base: ["compare", "--save-as", "ok", "good.csv"],
                    numeric: [], named: ["--save-as"], outputs: []),
            // Every other command with an output option (refused before any work, so cheap).
            Command(name: "render-frames", base: sceneRender + ["--frames", "0..1", "-o", "ok.webp"],
                    numeric: [], named: [], outputs: ["-o"], skippedOutputs: ["root"]),
            Command(name: "render-sheet", base: sceneRender + ["--sheet", "-o", "ok.png"], numeric: [], named: [], outputs: ["-o"]),
            Command(name: "choose-save", base: ["choose", "--from", "good.csv", "--save", "ok.json"],
                    numeric: ["--min-psnr"], named: [], outputs: ["--save"]),
            // A child that writes no report: any number ab accepts fails later, in its own words.
            Command(name: "ab", base: ["ab", "/bin/true", "--rounds", "1"], numeric: ["--child-timeout"], named: [], outputs: []),
            Command(name: "choose-out", base: ["choose", "--kernels", "composite", "--backends", "naive", "--threads", "1",
                                               "--quick", "--out", "ok.csv"], numeric: [], named: [], outputs: ["--out"]),
            Command(name: "report", base: ["report", "good.csv", "-o", "ok.html"], numeric: [], named: [], outputs: ["-o"]),
            Command(name: "governor", base: ["governor", "--trace", "trace.csv"],
                    numeric: ["--trace-budget-ms"], named: [], outputs: []),
            // Every value is refused before the (half-minute) recording starts.
            Command(name: "governor-record", base: ["governor", "--record", "ok.csv", "--scene", "liquid", "--frames", "10"],
                    numeric: ["--frames", "--threads"], named: ["--scene", "--profile", "--backend"], outputs: ["--record"]),
        ]
        func replacing(_ base: [String], _ option: String, _ value: String) -> [String] {
            var args = base
            if let i = args.firstIndex(of: option), i + 1 < args.count { args[i + 1] = value } else { args += [option, value] }
            return args
        }
        // A share, headroom or threshold typed as a bare number above 1: a
        // bare number is a fraction, so "25" is refused (did you mean 25%?).
        let fractions: Set<String> = ["--share", "--headroom", "--threshold", "--fail-above"]
        for c in commands {
            for option in c.numeric {
                for (k, v) in numbers { add("\(c.name) \(option) <\(k)>", replacing(c.base, option, v), numeric: option, valueOnly: true) }
                if fractions.contains(option) {
                    add("\(c.name) \(option) <bare-percent>", replacing(c.base, option, "25"), numeric: option, valueOnly: true)
                }
            }
            for option in c.named {
                for (k, v) in names { add("\(c.name) \(option) <\(k)>", replacing(c.base, option, v), valueOnly: true) }
            }
            for option in c.outputs {
                for (k, v) in outputs where !c.skippedOutputs.contains(k) { add("\(c.name) \(option) <\(k)>", replacing(c.base, option, v)) }
            }
            // An option given without its value, and an unknown option.
            for option in c.numeric + c.named + c.outputs {
                var args = c.base
                if let i = args.firstIndex(of: option) { args.remove(at: i + 1); args.remove(at: i) }
                add("\(c.name) \(option) <missing-value>", args + [option])
            }
            add("\(c.name) <unknown-option>", c.base + ["--no-such-option"])
            add("\(c.name) <stray-argument>", c.base + ["stray\nargument"])
        }
        // Input files in the positional argument of every command reading one.
        for (k, v) in inputs {
            add("render-job <job:\(k)>", ["render", v, "-o", "ok.png"])
            add("bench <job:\(k)>", ["bench", v, "--runs", "1", "--quick", "--no-quality"])
            add("compare <report:\(k)>", ["compare", "good.csv", v])
            add("ab <base-executable:\(k)>", ["ab", v] + cheapRun.filter { $0 != "--no-dram" } + ["--rounds", "3", "--out", "abdir"])
            add("governor <trace:\(k)>", ["governor", "--trace", v])
        }
        // ab's folder: everything but a folder, and one it cannot create.
        for (k, v) in abFolders { add("ab --out <\(k)>", ["ab", "/bin/true", "--rounds", "1", "--out", v]) }
        for (k, _) in traces { add("governor <trace-content:\(k)>", ["governor", "--trace", "trace-\(k).csv"]) }
        // The input is the output, by another spelling or a link.
        for option in ["--share", "--headroom"] {
            add("choose-save \(option) <bare-percent>", ["choose", "--from", "good.csv", "--save", "ok.json", option, "25"],
                numeric: option, valueOnly: true)
        }
        add("choose <save-is-from>", ["choose", "--from", "good.json", "--save", "./good.json"])
        add("report <output-is-report>", ["report", "good.csv", "-o", "goodlink.html"])
        add("render-job <output-is-job>", ["render", "job.json", "-o", "joblink.png"])
        add("governor <record-is-trace>", ["governor", "--trace", "trace.csv", "--record", "./trace.csv"])
        add("governor <trace-and-record>", ["governor", "--trace", "trace.csv", "--record", "ok.csv", "--frames", "10"])
        for (k, _) in jobs {
            add("render-job <job-content:\(k)>", ["render", "job-\(k).json", "-o", "ok.png"])
            add("bench <job-content:\(k)>", ["bench", "job-\(k).json", "--backend", "naive", "--runs", "1", "--quick", "--no-quality"])
        }
        // A baseline by name: every bad name, and an unknown one ("nope").
        for (k, v) in names { add("compare <baseline-name:\(k)>", ["compare", "@" + v, "good.csv"]) }
        add("compare-save <two-reports>", ["compare", "--save-as", "ok", "good.csv", "good.csv"])
        for (k, _) in reports { add("compare <report-content:\(k)>", ["compare", "good.csv", "report-\(k).csv"]) }
        for (k, _) in medians { add("compare <median_ms:\(k)>", ["compare", "good.csv", "median-\(k).csv"]) }
        // Missing arguments and conflicting selections.
        add("render <no-input>", ["render", "-o", "ok.png"])
        add("render <job-and-scene>", ["render", "job.json", "--scene", "liquid", "-o", "ok.png"])
        add("render <frame-and-frames>", sceneRender + ["--frame", "1", "--frames", "0..2", "-o", "ok.png"])
        add("bench <no-job>", ["bench"])
        add("compare <no-reports>", ["compare"])
        add("ab <no-base>", ["ab"])
        add("<unknown-command>", ["no-such-command"])
        add("<mistyped-command:compare>", ["comapre", "good.csv", "good.csv"])
        add("<mistyped-command:render>", ["rendr", "job.json", "-o", "ok.png"])
        add("run <json-equals-out>", ["run"] + cheapRun + ["--out", "same.csv", "--json", "same.csv"])
        return cases
    }

    /// Cases that fail today, by issue-13 class (the class a helper is
    /// fixing). A listed case that passes fails the test: delete it here.
    static let knownFailures: [String: String] = [:]

    /// Cases the tables generate that are valid input, with why: each must
    /// succeed (exit 0), so the matrix also catches a valid value refused.
    static let validCases: [String: String] = [
        "render-scene --frame <zero>": "frame 0 is the cycle's first",
        "render-scene --seed <zero>": "any UInt64 is a seed",
        "run --seed <zero>": "any UInt64 is a seed",
        "compare --threshold <zero>": "no noise threshold: every resolved change counts",
        "compare --fail-above <zero>": "gate on any resolved slowdown",
        "compare-save --save-as <unknown>": "a new name ('nope') is saved",
        "run --threads <space>": "list items are trimmed ('1, 2')",
        "verify --threads <space>": "list items are trimmed ('1, 2')",
        "run --sigmas <space>": "list items are trimmed ('1, 2')",
        "render-job --max-seconds <zero>": "0 is no time limit",
        "run --contend <zero>": "no busy threads (the default)",
        "choose-save --min-psnr <zero>": "every measured PSNR is at least 0 dB",
        "choose-save --min-psnr <1e308>": "a floor above every option's PSNR: nothing fits, and choose says so",
        "choose-save --min-psnr <huge-int>": "a floor above every option's PSNR: nothing fits, and choose says so",
        "bench --max-seconds <zero>": "0 is no time limit",
        "render-job <job-content:arc-tiny-radii>": "SVG scales radii too small for the chord up (README, Accepted input)",
        "bench <job-content:arc-tiny-radii>": "SVG scales radii too small for the chord up",
        "render-job <job-content:arc-huge-rotation>": "the rotation is reduced mod 360",
        "bench <job-content:arc-huge-rotation>": "the rotation is reduced mod 360",
        "render-frames -o <directory>": "an existing folder takes numbered PNGs",
        "render-frames -o <trailing-slash>": "a folder by its spelling (new.png/) takes numbered PNGs",
        "render-frames -o <dot>": "the working directory is a folder",
    ]

    /// The exit status each case must end with (`rasterbench --help`): 2
    /// for the command line's shape (an unknown command or option, a
    /// missing value or argument), 1 for a refused value, file or report.
    static func expectedStatus(_ id: String) -> Int32 {
        let usage = ["<missing-value>", "<unknown-option>", "<stray-argument>", "<unknown-command>", "<mistyped-command",
                     "<no-input>", "<no-job>", "<no-reports>", "<no-base>", "<job-and-scene>", "<frame-and-frames>", "<two-reports>"]
        // compare's and report's extra argument is one more report: a file that cannot be read.
        if id.hasPrefix("compare <stray") || id.hasPrefix("report <stray") { return 1 }
        return usage.contains { id.contains($0) } ? 2 : 1
    }

    /// A debug build's `run`/`bench` say first that their times are not the
    /// product's; that line is the build's, not a reply to the input.
    static func isBuildWarning(_ line: Substring) -> Bool { line.hasPrefix("WARNING: this is a DEBUG") }

    // MARK: fixtures

    func makeFixtures() throws {
        let fm = FileManager.default
        func write(_ name: String, _ text: String) throws { try text.write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8) }
        try write("job.json", ##"{"width":8,"height":8,"ops":[{"op":"linear","start":[0,0],"end":[8,8],"stops":[{"offset":0,"color":"#FEC496"},{"offset":1,"color":"#4F5BD5"}],"extend":"pad"}]}"##)
        try write("empty.json", "")
        try Data([0x89, 0x50, 0x00, 0xff, 0xfe, 0x0a, 0x00]).write(to: dir.appendingPathComponent("binary.json"))
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x4e, 0x20])
            .write(to: dir.appendingPathComponent("truncated.png"))
        try fm.createDirectory(at: dir.appendingPathComponent("adir"), withIntermediateDirectories: false)
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("dirlink.json").path, withDestinationPath: "adir")
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("fulllink.png").path, withDestinationPath: "/dev/full")
        for fifo in ["fifo.json", "fifo.png", "ofifo.png"] { XCTAssertEqual(mkfifo(dir.appendingPathComponent(fifo).path, 0o600), 0) }
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("joblink.png").path, withDestinationPath: "job.json")
        // A recorded trace, and one bad field in each of the hostile ones.
        func traceText(_ bad: String?) -> String {
            var rows = ["frame,level,label,psnr_db,ms"]
            if bad == "header" { return rows[0] + "\n" }
            for f in 0..<12 {
                var level1 = ["\(f)", "1", "dear", "40", "3.5"]
                if f == 6, let bad {
                    for part in bad.split(separator: "+") {
                        let kv = part.split(separator: ":", maxSplits: 1).map(String.init)
                        let field = kv.count == 2 ? ["frame": 0, "level": 1, "psnr": 3][kv[0]]! : 4
                        level1[field] = kv.last!
                    }
                }
                rows += ["\(f),0,cheap,30,2", level1.joined(separator: ",")]
            }
            return rows.joined(separator: "\n") + "\n"
        }
        try write("trace.csv", traceText(nil))
        for (k, v) in Self.traces { try write("trace-\(k).csv", traceText(v)) }
        for (k, v) in Self.jobs { try write("job-\(k).json", v) }
        for (k, v) in Self.reports { try write("report-\(k).csv", v) }
        // A valid report, made by the executable itself.
        let made = try run(["run", "--kernels", "composite", "--backends", "naive", "--threads", "1", "--size", "8x8",
                            "--quick", "--runs", "1", "--no-dram", "--out", "good.csv", "--json", "good.json"])
        XCTAssertEqual(made.status, 0, "could not make good.csv: \(made.stderr)")
        XCTAssertEqual(link(dir.appendingPathComponent("good.csv").path, dir.appendingPathComponent("goodlink.html").path), 0)
        let good = try String(contentsOf: dir.appendingPathComponent("good.csv"), encoding: .utf8)
        var records = good.components(separatedBy: "\r\n")
        let header = records[0].split(separator: ",", omittingEmptySubsequences: false)
        let column = try XCTUnwrap(header.firstIndex(of: "median_ms"))
        for (k, v) in Self.medians {
            // The first data row's median_ms (no field before it is quoted).
            var fields = records[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[column] = v
            records[1] = fields.joined(separator: ",")
            try write("median-\(k).csv", records.joined(separator: "\r\n"))
        }
    }

    func listing(_ folder: URL) -> Set<String> {
        var out = Set<String>()
        if let e = FileManager.default.enumerator(atPath: folder.path) { while let p = e.nextObject() as? String { out.insert(p) } }
        return out
    }

    /// Runs one case through `/bin/sh` (for `ulimit -v`) with a time limit, in `folder`.
    func runBounded(_ args: [String], in folder: URL, limitMemory: Bool) -> (status: Int32, signalled: Bool, timedOut: Bool, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", limitMemory ? "ulimit -v \(Self.addressSpaceKiB); exec \"$0\" \"$@\"" : "exec \"$0\" \"$@\"",
                       executable.path] + args
        p.currentDirectoryURL = folder
        // A trap is reported at once as a signal: the runtime's backtracer
        // would otherwise outlive a killed case, holding its stderr open.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        p.environment = environment
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        final class Box: @unchecked Sendable { var data = Data() }  // written by the reader, read after readDone
        let errData = Box()
        let reader = DispatchQueue(label: "stderr")
        let readDone = DispatchSemaphore(value: 0)
        do { try p.run() } catch { return (-1, false, false, "could not start: \(error)") }
        reader.async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); readDone.signal() }
        var timedOut = false
        if done.wait(timeout: .now() + Self.timeLimit) == .timedOut {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            done.wait()
        }
        // A grandchild may still hold stderr open; do not wait on it forever.
        _ = readDone.wait(timeout: .now() + 5)
        try? err.fileHandleForReading.close()
        return (p.terminationStatus, p.terminationReason == .uncaughtSignal, timedOut, String(decoding: errData.data.prefix(4000), as: UTF8.self))
    }

    /// One case's problems (nil: it passed), and whether it is a valid case.
    func check(_ c: Case, in folder: URL, before: Set<String>, limitMemory: Bool) -> (String?, Bool) {
        let r = runBounded(c.args, in: folder, limitMemory: limitMemory)
        var problems: [String] = []
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !Self.isBuildWarning($0) }
        func removeNew() {
            for name in listing(folder).subtracting(before) { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
        if let why = Self.validCases[c.id] {
            removeNew()
            guard r.status != 0 || r.signalled || r.timedOut else { return (nil, true) }
            return ("valid input (\(why)) refused: status \(r.status) | \(String(lines.first ?? "").prefix(160).debugDescription)", true)
        }
        if r.timedOut { problems.append("took over \(Int(Self.timeLimit)) s") }
        if r.signalled { problems.append("killed by signal \(r.status)") }
        else if r.status != Self.expectedStatus(c.id) { problems.append("exit status \(r.status), not \(Self.expectedStatus(c.id))") }
        if !(lines.count == 2 && lines[1].isEmpty && !lines[0].isEmpty) {
            problems.append("stderr is \(lines.count - (lines.last?.isEmpty == true ? 1 : 0)) lines")
        }
        // A bad number's one line names the option and what it accepts
        // (not argument-parser's "The value '-1' is invalid").
        if let option = c.numericOption, let first = lines.first, !(first.contains(option) && first.contains("accepted")) {
            problems.append("the error does not name \(option) and its accepted range")
        }
        // A mistyped command is answered with the command meant.
        if let meant = c.id.split(separator: ":").last.flatMap({ c.id.contains("<mistyped-command:") ? $0.dropLast() : nil }),
           !(lines.first ?? "").contains("did you mean '\(meant)'") {
            problems.append("no did-you-mean for '\(meant)'")
        }
        let left = listing(folder).subtracting(before)
        if !left.isEmpty {
            problems.append("left \(left.sorted().prefix(3).map { $0.debugDescription }.joined(separator: ", "))")
            removeNew()
        }
        guard !problems.isEmpty else { return (nil, false) }
        return (problems.joined(separator: "; ") + " | \(String(lines.first ?? "").prefix(160).debugDescription)", false)
    }

    func testEveryBadInputIsOneLineErrorWithNoFileLeft() throws {
        try makeFixtures()
        let sanitized = Self.sanitized
        // Under a sanitizer, the cases whose bad value is refused while the
        // command line is read are left out: they run only safe Swift,
        // which the unsanitized stage runs alike, and they are two thirds
        // of the matrix (each case a sanitized process starting up). Every
        // case that opens, decodes or writes a file stays.
        let all = Self.matrix()
        let cases = sanitized ? all.filter { !$0.valueOnly || Self.validCases[$0.id] != nil } : all
        print("bad-input matrix: \(cases.count) cases (\(Self.numbers.count) number, \(Self.names.count) name, "
              + "\(Self.outputs.count) output-path, \(Self.inputs.count) input-path, \(Self.jobs.count) job and "
              + "\(Self.reports.count + Self.medians.count) report classes)"
              + (sanitized ? "; under a sanitizer: no address-space limit, \(all.count - cases.count) option-value cases left out" : ""))
        // The cases run in parallel, each worker in its own copy of the
        // fixtures, so a file a case leaves is still that case's: most of
        // a case's time is the child starting up (under a sanitizer, seconds).
        let workers = Int(ProcessInfo.processInfo.environment["RASTERBENCH_MATRIX_WORKERS"] ?? "").map { max(1, $0) }
            ?? min(4, max(2, ProcessInfo.processInfo.activeProcessorCount + 1))
        var folders: [URL] = []
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        for w in 0..<workers {
            let folder = URL(fileURLWithPath: dir.path + "-worker\(w)")
            folders.append(folder)
            let cp = Process()
            cp.executableURL = URL(fileURLWithPath: "/bin/cp")
            cp.arguments = ["-a", dir.path, folder.path] // keeps the FIFOs, the links and the hard link
            try cp.run()
            cp.waitUntilExit()
            XCTAssertEqual(cp.terminationStatus, 0, "copying the fixtures")
        }
        final class Results: @unchecked Sendable { // appended under `lock` by the workers
            let lock = NSLock(); var failures: [(String, String)] = []; var validRun = 0
        }
        let results = Results()
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let folder = folders[w]
            let before = listing(folder)
            for c in stride(from: w, to: cases.count, by: workers).map({ cases[$0] }) {
                let (problem, valid) = check(c, in: folder, before: before, limitMemory: !sanitized)
                results.lock.lock()
                if valid { results.validRun += 1 }
                if let problem { results.failures.append((c.id, problem)) }
                results.lock.unlock()
            }
        }
        let failures = results.failures, validRun = results.validRun
        let failed = Set(failures.map(\.0))
        let known = Set(Self.knownFailures.keys)
        let unexpected = failures.filter { !known.contains($0.0) }
        let fixed = known.subtracting(failed)
        print("bad-input matrix: \(cases.count - failures.count) of \(cases.count) cases pass, "
              + "\(failures.count - unexpected.count) known failures, \(unexpected.count) unexpected; "
              + String(format: "%.0f s", Date().timeIntervalSince(start)))
        for (id, why) in failures.sorted(by: { $0.0 < $1.0 }) {
            print("  \(known.contains(id) ? "known [\(Self.knownFailures[id]!)]" : "FAIL") \(id.debugDescription): \(why)")
        }
        // Ready to paste into `knownFailures` once each is assigned its class.
        for (id, why) in unexpected { print("        \(id.debugDescription): \"CLASS\",  // \(why.prefix(80).replacingOccurrences(of: "\n", with: " "))") }
        XCTAssertEqual(validRun, Self.validCases.count, "a valid case's id no longer matches a generated case")
        XCTAssert(unexpected.isEmpty, "\(unexpected.count) bad-input cases fail (listed above)")
        XCTAssert(fixed.isEmpty, "these known failures now pass; remove them from knownFailures: \(fixed.sorted())")
    }
}
