import Foundation
import RasterKit
import XCTest

/// The `mesh` job op (docs/contract.md §9): decoding and errors naming the JSON path.
final class MeshJobTests: XCTestCase {
    let here = URL(fileURLWithPath: NSTemporaryDirectory())

    func decode(_ json: String) throws -> Job { try Job.decode(Data(json.utf8), baseDirectory: here) }

    func assertFails(_ json: String, path: String, mentioning word: String? = nil, line: UInt = #line) {
        do {
            _ = try decode(json)
            XCTFail("decoded a bad job", line: line)
        } catch let RasterError.malformedJob(p, reason) {
            XCTAssertEqual(p, path, reason, line: line)
            if let word { XCTAssert(reason.contains(word), reason, line: line) }
        } catch {
            XCTFail("unexpected \(error)", line: line)
        }
    }

    func testDecodesMesh() throws {
        let job = try decode("""
        { "width": 40, "height": 30, "ops": [
          { "op": "mesh", "columns": 2, "rows": 3,
            "points": [[0, 0], [40, 0], [0, 15], [40, 15], [0, 30], [40, 30]],
            "colors": ["#FF0000", "#00FF00", "#0000FF", "#FFFFFF", "#00000080", "#123456"] } ] }
        """)
        guard case let .mesh(m) = job.ops[0] else { return XCTFail("not a mesh") }
        XCTAssertEqual(m.columns, 2)
        XCTAssertEqual(m.rows, 3)
        XCTAssertEqual(m.position(1, 1), Point(40, 15))
        XCTAssertEqual(m.color(0, 2).a, 128)
        XCTAssertEqual(m.color(0, 2).r, 0)
    }

    func testMeshErrorsNameTheJSONPath() {
        func mesh(_ body: String) -> String { ##"{ "width": 4, "height": 4, "ops": [ { "op": "mesh", "##  + body + " } ] }" }
        let four = ##""points": [[0,0],[4,0],[0,4],[4,4]], "colors": ["#FFFFFF","#FFFFFF","#FFFFFF","#FFFFFF"]"##
        assertFails(mesh(##""columns": 1, "rows": 2, "## + four), path: "ops[0].columns", mentioning: "2...32")
        assertFails(mesh(##""columns": 2, "rows": 33, "## + four), path: "ops[0].rows", mentioning: "2...32")
        assertFails(mesh(##""columns": 2.5, "rows": 2, "## + four), path: "ops[0].columns")
        assertFails(mesh(##""columns": 2, "rows": 2, "points": [[0,0]], "colors": ["#FFFFFF"]"##),
                    path: "ops[0].points", mentioning: "columns x rows = 4")
        assertFails(mesh(##""columns": 2, "rows": 2, "points": [[0,0],[4,0],[0,4],[4,4]], "colors": ["#FFFFFF"]"##),
                    path: "ops[0].colors", mentioning: "columns x rows = 4")
        assertFails(mesh(##""columns": 2, "rows": 2, "points": [[0,0],[4,0],[0,4],[4,"x"]], "colors": ["#FFFFFF","#FFFFFF","#FFFFFF","#FFFFFF"]"##),
                    path: "ops[0].points[3][1]")
        assertFails(mesh(##""columns": 2, "rows": 2, "points": [[0,0],[4,0],[0,4],[4,1e9]], "colors": ["#FFFFFF","#FFFFFF","#FFFFFF","#FFFFFF"]"##),
                    path: "ops[0].points[3]", mentioning: "out of range")
        assertFails(mesh(##""columns": 2, "rows": 2, "points": [[0,0],[4,0],[0,4],[4,4]], "colors": ["#FFFFFF","#FFFFFF","#FFFFFF","red"]"##),
                    path: "ops[0].colors[3]", mentioning: "#RRGGBB")
        assertFails(mesh(##""columns": 2, "rows": 2, "shape": 1, "## + four), path: "ops[0].shape", mentioning: "unknown key")
    }
}
