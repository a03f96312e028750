import Foundation
import RasterKit
import XCTest

/// The `fill` and `blob` job ops: decoding, their errors, and rendering.
final class FillJobTests: XCTestCase {
    let here = URL(fileURLWithPath: NSTemporaryDirectory())

    func decode(_ json: String) throws -> Job { try Job.decode(Data(json.utf8), baseDirectory: here) }

    func assertFails(_ json: String, path: String, mentioning word: String, line: UInt = #line) {
        do {
            _ = try decode(json)
            XCTFail("decoded a bad job", line: line)
        } catch let RasterError.malformedJob(p, reason) {
            XCTAssertEqual(p, path, reason, line: line)
            XCTAssert(reason.contains(word), reason, line: line)
        } catch {
            XCTFail("unexpected \(error)", line: line)
        }
    }

    func testDecodesFillAndBlob() throws {
        let job = try decode("""
        { "width": 100, "height": 80, "ops": [
            { "op": "fill", "path": "M 10 10 C 20 0 40 0 50 10 Z", "rule": "evenodd", "color": "#32CB54" },
            { "op": "fill", "path": "M 0 0 h 10 v 10 z", "color": "#FF000080" },
            { "op": "blob", "anchors": [ [67, 40], [37, 70], [7, 40], {"x": 37, "y": 10} ], "color": "#32CB54" } ] }
        """)
        guard case let .fill(f) = job.ops[0], case let .fill(g) = job.ops[1], case let .blob(anchors, color) = job.ops[2] else {
            return XCTFail("\(job.ops)")
        }
        XCTAssertEqual(f.rule, .evenodd)
        XCTAssertEqual(f.path.elements.count, 3)
        XCTAssertEqual(g.rule, .nonzero)
        XCTAssertEqual(g.color.a, 128)
        XCTAssertEqual(anchors, [Point(67, 40), Point(37, 70), Point(7, 40), Point(37, 10)])
        XCTAssertEqual(color, try Color(hex: "#32CB54"))
    }

    func testErrorsNameThePathAndThePosition() {
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "fill", "path": "M 1 1 L 2 x", "color": "#000000" } ] }"##,
                    path: "ops[0].path", mentioning: "at character 11")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "fill", "path": "", "color": "#000000" } ] }"##,
                    path: "ops[0].path", mentioning: "empty")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "fill", "path": "M 1 1 L 1e9 1", "color": "#000000" } ] }"##,
                    path: "ops[0].path", mentioning: "within")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "fill", "path": "M 1 1 L 2 2", "rule": "winding", "color": "#000000" } ] }"##,
                    path: "ops[0].rule", mentioning: "nonzero, evenodd")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "fill", "path": "M 1 1 L 2 2" } ] }"##,
                    path: "ops[0].color", mentioning: "missing")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "fill", "path": "M 1 1 L 2 2", "color": "#000000", "fill": 1 } ] }"##,
                    path: "ops[0].fill", mentioning: "unknown key")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "blob", "anchors": [[1, 1], [2, 2]], "color": "#000000" } ] }"##,
                    path: "ops[0].anchors", mentioning: ">= 3")
        assertFails(##"{ "width": 10, "height": 10, "ops": [ { "op": "blob", "anchors": [[1, 1], [2, 2], [3]], "color": "#000000" } ] }"##,
                    path: "ops[0].anchors[2]", mentioning: "[x, y]")
    }

    /// docs/contract.md §9's example fill and blob ops render on every backend, the same
    /// image at 1 and 3 threads, solid inside and untouched far outside.
    func testRendersOnEveryBackend() throws {
        let job = try decode("""
        { "width": 150, "height": 267, "background": "#000000FF", "ops": [
            { "op": "fill", "path": "M 10 10 C 20 0 40 0 50 10 Z", "rule": "nonzero", "color": "#32CB54" },
            { "op": "blob", "anchors": [ [135, 133], [75, 193], [15, 133] ], "color": "#32CB54" } ] }
        """)
        for kind in BackendKind.allCases {
            let one = try Renderer(backend: kind.make(threads: 1)).render(job)
            let three = try Renderer(backend: kind.make(threads: 3)).render(job)
            // (Not XCTAssertEqual: a failure would print both images.)
            XCTAssertTrue(one.packedBytes == three.packedBytes, "\(kind): 1 and 3 threads differ")
            XCTAssertEqual(one[75, 150], RGBA8(r: 0x32, g: 0xCB, b: 0x54, a: 255), "\(kind)")
            XCTAssertEqual(one[140, 260], RGBA8(r: 0, g: 0, b: 0, a: 255), "\(kind)")
        }
    }
}
