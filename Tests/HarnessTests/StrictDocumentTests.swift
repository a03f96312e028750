import Foundation
import XCTest
import RasterKit
@testable import RasterHarness

/// Job and wisdom files are read strictly: a key given twice is refused
/// with its path (every object of both schemas is tried, at every nesting
/// level), a syntax error names its line and column, and a document's size
/// and count of values are bounded before its tree is built.
final class StrictDocumentTests: XCTestCase {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strict-\(UUID().uuidString)", isDirectory: true)

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // The image op's file: an 8x8 canvas of raw premultiplied bytes.
        try Data(count: 8 * 8 * 4).write(to: dir.appendingPathComponent("img.rgba"))
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    // MARK: duplicate keys

    /// `text` re-written once per object it holds, that object given its
    /// first key (in sorted order) a second time, last, with the value
    /// `null`; paired with the duplicate's path (`ops[2].color`).
    static func duplicating(_ text: String) throws -> [(path: String, text: String)] {
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        var objects: [String] = []
        _ = write(root, path: "", duplicate: nil, objects: &objects)
        return objects.map { target in
            var ignored: [String] = []
            let (text, key) = write(root, path: "", duplicate: target, objects: &ignored)
            return (key!, text)
        }
    }

    /// JSON text of `value`; the object at `duplicate` gets its first key
    /// again (whose path is returned). Every object's path is collected.
    private static func write(_ value: Any, path: String, duplicate: String?, objects: inout [String]) -> (String, String?) {
        func join(_ p: String, _ k: String) -> String { p.isEmpty ? k : "\(p).\(k)" }
        switch value {
        case let dict as [String: Any]:
            objects.append(path)
            var found: String?
            var members = dict.keys.sorted().map { k -> String in
                let (text, f) = write(dict[k]!, path: join(path, k), duplicate: duplicate, objects: &objects)
                found = found ?? f
                return "\(quoted(k)):\(text)"
            }
            if path == duplicate, let first = dict.keys.sorted().first {
                members.append("\(quoted(first)):null")
                found = join(path, first)
            }
            return ("{" + members.joined(separator: ",") + "}", found)
        case let items as [Any]:
            var found: String?
            let texts = items.enumerated().map { i, item -> String in
                let (text, f) = write(item, path: "\(path)[\(i)]", duplicate: duplicate, objects: &objects)
                found = found ?? f
                return text
            }
            return ("[" + texts.joined(separator: ",") + "]", found)
        case let s as String: return (quoted(s), nil)
        case let n as NSNumber:
            switch String(cString: n.objCType) {
            case "c": return (n.boolValue ? "true" : "false", nil)
            case "d", "f": return ("\(n.doubleValue)", nil)
            default: return ("\(n.int64Value)", nil)
            }
        default: return ("null", nil)
        }
    }

    private static func quoted(_ s: String) -> String {
        String(decoding: try! JSONEncoder().encode(s), as: UTF8.self)
    }

    /// Every object kind of the job schema: the document, each op, a
    /// freeform point, a gradient stop, a point given as {x, y}, layers and
    /// a reduced-size layer nested three deep.
    static let everyJobObject = ##"""
    { "width": 8, "height": 8, "background": "#000000",
      "ops": [
        { "op": "freeform", "points": [ { "x": 1, "y": 1, "color": "#FF0000" } ], "influence": 4, "exponent": 2,
          "space": "pixels", "swirl": 0 },
        { "op": "linear", "start": { "x": 0, "y": 0 }, "end": [8, 8],
          "stops": [ { "offset": 0, "color": "#FF0000" }, { "offset": 1, "color": "#0000FF" } ], "extend": "pad" },
        { "op": "radial", "center": [4, 4], "radius": 3,
          "stops": [ { "offset": 0, "color": "#FF0000" }, { "offset": 1, "color": "#0000FF" } ], "extend": "pad" },
        { "op": "fill", "path": "M0 0 L8 0 L8 8 Z", "rule": "evenodd", "color": "#00FF00" },
        { "op": "blob", "anchors": [[1, 1], [6, 1], { "x": 4, "y": 6 }], "color": "#00FF00" },
        { "op": "mesh", "columns": 2, "rows": 2, "points": [[0, 0], [8, 0], [0, 8], [8, 8]],
          "colors": ["#FF0000", "#00FF00", "#0000FF", "#FFFFFF"] },
        { "op": "image", "file": "img.rgba" },
        { "op": "blur", "sigma": 1, "edge": "clamp" },
        { "op": "layer", "opacity": 0.5, "ops": [
          { "op": "layer", "opacity": 1, "size": [4, 4], "ops": [
            { "op": "layer", "ops": [ { "op": "blur", "sigma": 0.5, "edge": "transparent" } ] } ] } ] }
      ] }
    """##

    func testADuplicateKeyInEveryObjectOfAJobIsRefusedWithItsPath() throws {
        // The document itself decodes: each case differs only by its duplicate.
        let base = try Self.duplicating(Self.everyJobObject)
        _ = try Job.decode(Data(Self.everyJobObject.utf8), baseDirectory: dir)
        XCTAssertEqual(base.count, 20, "every object of the schema is tried")
        for (path, text) in base {
            XCTAssertThrowsError(try Job.decode(Data(text.utf8), baseDirectory: dir), path) { e in
                guard case let RasterError.malformedJob(p, reason) = e else { return XCTFail("\(path): \(e)") }
                XCTAssertEqual(p, path)
                XCTAssertTrue(reason.hasPrefix("duplicate key"), reason)
            }
        }
        // The duplicate is refused even when it repeats a valid value, and
        // when the first of the two is the invalid one.
        for (text, column) in [(#"{"width":8,"width":8,"height":8}"#, 12), (#"{"width":-1,"width":8,"height":8}"#, 13)] {
            XCTAssertThrowsError(try Job.decode(Data(text.utf8), baseDirectory: dir)) { e in
                XCTAssertEqual(e as? RasterError, .malformedJob(path: "width", reason: "duplicate key (again at line 1, column \(column))"))
            }
        }
    }

    func testADuplicateKeyInEveryObjectOfAWisdomFileIsRefusedWithItsPath() throws {
        let text = String(decoding: try WisdomTests.wisdom().encoded(), as: UTF8.self)
        let cases = try Self.duplicating(text)
        XCTAssertGreaterThanOrEqual(cases.count, 10, "every object of the schema is tried")
        // The re-written document (keys sorted, no spaces) still decodes
        // (JSONSerialization on Linux may move a Double by an ulp).
        var none: [String] = []
        let (plain, _) = Self.write(try JSONSerialization.jsonObject(with: Data(text.utf8)), path: "", duplicate: nil, objects: &none)
        XCTAssertEqual(try Wisdom.decode(Data(plain.utf8)).choices.map(\.name), ["aurora", "telegram"])
        var kinds = Set<String>()
        for (path, dup) in cases {
            kinds.insert(path.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[]", options: .regularExpression))
            XCTAssertThrowsError(try Wisdom.decode(Data(dup.utf8), path: "w.json"), path) { e in
                guard case let WisdomError.unreadable(p, reason) = e else { return XCTFail("\(path): \(e)") }
                XCTAssertEqual(p, "w.json")
                XCTAssertTrue(reason.hasPrefix("\(path): duplicate key"), reason)
            }
        }
        // The top level, host, build, profile, a front, its options, a choice and its chosen option.
        for kind in ["build.commit", "host.cores", "choices[].chosen.backend", "fronts[].options[].backend", "fronts[].front[].backend"] {
            XCTAssertTrue(kinds.contains(kind), "\(kind) not among \(kinds.sorted())")
        }
    }

    // MARK: positions

    func testASyntaxErrorNamesTheFileLineAndColumn() {
        let cases: [(String, String, String)] = [
            ("", "1:1", "expected a value, found the end of the file"),
            (#"{"width":8,}"#, "1:12", "expected a key in quotes, found '}'"),
            ("{\n  \"a\": tru }", "2:8", "expected a value, found 't'"),
            ("[1,\n2,\n  03]", "3:3", "a number may not start with 0"),
            ("{\"a\":\"x\ny\"}", "1:8", "a control character (byte 0xA) in a string; write it escaped"),
            ("{\"\u{e9}\": 1 2}", "1:9", "expected ',' or '}', found '2'"),
            ("{} x", "1:4", "unexpected text after the document"),
            (#"["\q"]"#, "1:3", #"unknown escape '\q'"#),
            ("\n\n   [1, 2", "3:9", "expected ',' or ']', found the end of the file"),
            ("# a README", "1:1", "expected a value, found '#'"),
        ]
        for (text, position, reason) in cases {
            XCTAssertThrowsError(try Job.decode(Data(text.utf8), baseDirectory: dir, name: "j.json"), text) { e in
                XCTAssertEqual(e as? RasterError, .io(path: "j.json:\(position)", reason: "not valid JSON (\(reason))"), text)
            }
            XCTAssertThrowsError(try Wisdom.decode(Data(text.utf8), path: "w.json"), text) { e in
                XCTAssertEqual(e as? WisdomError, .unreadable(path: "w.json:\(position)", reason: "not valid JSON (\(reason))"), text)
            }
        }
    }

    func testAJobFileIsNamedAsTheUserWroteIt() throws {
        let name = "strict-\(UUID().uuidString).json"
        let url = URL(fileURLWithPath: name, relativeTo: dir)
        try "{\n  oops".write(to: url, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try Job.load(contentsOf: url)) { e in
            XCTAssertEqual("\(e)", "\(name):2:3: not valid JSON (expected a key in quotes, found 'o')")
        }
    }

    // MARK: sizes

    func testAJobBeyondTheBudgetsValuesOrBytesIsRefusedBeforeItIsBuilt() throws {
        let budget = try MemoryBudget(bytes: 1 << 20)
        let limits = JobLimits(budget)
        // More values than the budget allows: refused where the count is passed.
        let anchors = Array(repeating: "[1,1]", count: limits.maxValues / 3 + 1).joined(separator: ",")
        let many = ##"{"width":8,"height":8,"ops":[{"op":"blob","color":"#FF0000","anchors":["## + anchors + "]}]}"
        XCTAssertLessThan(many.utf8.count, limits.maxBytes)
        XCTAssertThrowsError(try Job.decode(Data(many.utf8), baseDirectory: dir, memoryBudget: budget)) { e in
            XCTAssertTrue("\(e)".contains("more than \(limits.maxValues) values"), "\(e)")
            XCTAssertTrue("\(e)".contains("under maxMemory 1 MiB"), "\(e)")
        }
        _ = try Job.decode(Data(many.utf8), baseDirectory: dir, memoryBudget: try MemoryBudget(bytes: 4 << 20))
        // A file larger than its byte limit is refused before it is read
        // (a sparse file: its size is all that is checked).
        let big = dir.appendingPathComponent("big.json")
        FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(limits.maxBytes + 1))
        try handle.close()
        XCTAssertThrowsError(try Job.load(contentsOf: big, memoryBudget: budget)) { e in
            XCTAssertTrue("\(e)".contains("more than the \(limits.maxBytes) accepted under maxMemory 1 MiB"), "\(e)")
        }
        XCTAssertThrowsError(try Job.decode(Data(count: limits.maxBytes + 1), baseDirectory: dir, memoryBudget: budget)) { e in
            XCTAssertTrue("\(e)".contains("more than the \(limits.maxBytes) a job may have"), "\(e)")
        }
        // Nesting is bounded too (the reader recurses).
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        XCTAssertThrowsError(try Job.decode(Data(deep.utf8), baseDirectory: dir)) { e in
            XCTAssertTrue("\(e)".contains("more than 256 levels of nesting"), "\(e)")
        }
    }

    func testAJobsPNGBeyondTheBudgetIsRefusedBeforeItIsRead() throws {
        let budget = try MemoryBudget(bytes: 1 << 20)
        let png = dir.appendingPathComponent("huge.png")
        FileManager.default.createFile(atPath: png.path, contents: nil)
        let handle = try FileHandle(forWritingTo: png)
        try handle.truncate(atOffset: UInt64(budget.bytes + 1))
        try handle.close()
        let job = #"{"width":8,"height":8,"ops":[{"op":"image","file":"huge.png"}]}"#
        XCTAssertThrowsError(try Job.decode(Data(job.utf8), baseDirectory: dir, memoryBudget: budget)) { e in
            guard case let RasterError.malformedJob(path, reason) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(path, "ops[0].file")
            XCTAssertTrue(reason.contains("is \(budget.bytes + 1) bytes, more than the \(budget.bytes) accepted"), reason)
        }
    }

    func testAWisdomFileBeyondItsLimitsIsRefused() throws {
        let values = "[" + Array(repeating: "0", count: Wisdom.limits.maxValues).joined(separator: ",") + "]"
        XCTAssertThrowsError(try Wisdom.decode(Data(values.utf8), path: "w.json")) { e in
            XCTAssertTrue("\(e)".contains("more than \(Wisdom.limits.maxValues) values"), "\(e)")
        }
        XCTAssertThrowsError(try Wisdom.decode(Data(count: Wisdom.maxBytes + 1), path: "w.json")) { e in
            XCTAssertTrue("\(e)".contains("more than the \(Wisdom.maxBytes) accepted"), "\(e)")
        }
        let big = dir.appendingPathComponent("big-wisdom.json")
        FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(Wisdom.maxBytes + 1))
        try handle.close()
        XCTAssertThrowsError(try Wisdom.load(from: big)) { e in
            XCTAssertTrue("\(e)".contains("more than the \(Wisdom.maxBytes) accepted"), "\(e)")
        }
    }
}
