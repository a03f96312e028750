import Foundation
import RasterKit
import XCTest

final class JobDecoderTests: XCTestCase {
    let here = URL(fileURLWithPath: NSTemporaryDirectory())

    func decode(_ json: String) throws -> Job { try Job.decode(Data(json.utf8), baseDirectory: here) }

    /// The error must name the JSON path of the bad value.
    func assertFails(_ json: String, path: String, mentioning word: String? = nil, line: UInt = #line) {
        do {
            _ = try decode(json)
            XCTFail("decoded a bad job", line: line)
        } catch let RasterError.malformedJob(p, reason) {
            XCTAssertEqual(p, path, reason, line: line)
            if let word { XCTAssert(reason.contains(word), reason, line: line) }
            XCTAssertFalse("\(RasterError.malformedJob(path: p, reason: reason))".contains("\n"), line: line)
        } catch {
            XCTFail("unexpected \(error)", line: line)
        }
    }

    func testDecodesTheSpecOps() throws {
        let job = try decode("""
        { "width": 75, "height": 133, "background": "#000000FF",
          "ops": [
            { "op": "freeform", "points": [ { "x": 60, "y": 13.4, "color": "#FEC496" },
                                             { "x": 10, "y": 100, "color": "#4F5BD5" } ], "influence": 75, "exponent": 4 },
            { "op": "linear", "start": [0, 0], "end": [75, 133],
              "stops": [ { "offset": 0, "color": "#FEC496" }, { "offset": 1, "color": "#4F5BD580" } ], "extend": "pad" },
            { "op": "radial", "center": {"x": 37, "y": 66}, "radius": 30,
              "stops": [ { "offset": 0, "color": "#FFFFFF40" }, { "offset": 1, "color": "#00000000" } ], "extend": "reflect" },
            { "op": "layer", "opacity": 0.8, "ops": [ { "op": "linear", "start": [0, 0], "end": [0, 10],
              "stops": [ { "offset": 0, "color": "#FF0000" }, { "offset": 1, "color": "#00FF00" } ], "extend": "repeat" } ] }
          ] }
        """)
        XCTAssertEqual(job.width, 75)
        XCTAssertEqual(job.ops.count, 4)
        guard case let .freeform(g) = job.ops[0] else { return XCTFail() }
        XCTAssertEqual(g.points.count, 2)
        guard case let .layer(opacity, inner) = job.ops[3] else { return XCTFail() }
        XCTAssertEqual(opacity, 0.8)
        XCTAssertEqual(inner.count, 1)
    }

    func testDefaults() throws {
        let job = try decode(##"{ "width": 20, "height": 10, "ops": [ { "op": "freeform", "points": [ { "x": 1, "y": 1, "color": "#FFFFFF" } ] } ] }"##)
        XCTAssertEqual(job.background, .transparent)
        guard case let .freeform(g) = job.ops[0] else { return XCTFail() }
        XCTAssertEqual(g.influence, 20, "influence defaults to the canvas width")
        XCTAssertEqual(g.exponent, 4)
    }

    /// `space` and `swirl`: unit coordinates with influence defaulting to 1,
    /// pixels (and the width) by default, a swirl only with unit space.
    func testFreeformSpaceAndSwirl() throws {
        let unit = try decode(##"{ "width": 20, "height": 10, "ops": [ { "op": "freeform", "space": "unit", "swirl": 0.784, "exponent": 3, "points": [ { "x": 0.8, "y": 0.1, "color": "#7FA381" } ] } ] }"##)
        guard case let .freeform(g) = unit.ops[0] else { return XCTFail() }
        XCTAssertEqual(g.space, .unit)
        XCTAssertEqual(g.swirl, 0.784)
        XCTAssertEqual(g.influence, 1, "unit-space influence defaults to 1")
        XCTAssertEqual(g.points[0].position, Point(0.8, 0.1))
        let explicit = try decode(##"{ "width": 20, "height": 10, "ops": [ { "op": "freeform", "space": "unit", "influence": 0.92, "points": [ { "x": 0.8, "y": 0.1, "color": "#7FA381" } ] } ] }"##)
        guard case let .freeform(e) = explicit.ops[0] else { return XCTFail() }
        XCTAssertEqual(e.influence, 0.92)
        XCTAssertEqual(e.swirl, 0)
        let pixels = try decode(##"{ "width": 20, "height": 10, "ops": [ { "op": "freeform", "space": "pixels", "swirl": 0, "points": [ { "x": 1, "y": 1, "color": "#FFFFFF" } ] } ] }"##)
        guard case let .freeform(p) = pixels.ops[0] else { return XCTFail() }
        XCTAssertEqual(p.space, .pixels)
        XCTAssertEqual(p.influence, 20)
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "swirl": 0.5, "points": [ { "x": 0, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].swirl", mentioning: "unit")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "space": "pixels", "swirl": 1, "points": [ { "x": 0, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].swirl", mentioning: "unit")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "space": "unit", "swirl": -1, "points": [ { "x": 0, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].swirl")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "space": "unit", "swirl": 1000, "points": [ { "x": 0, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].swirl", mentioning: "64")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "space": "polar", "points": [ { "x": 0, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].space", mentioning: "unit")
    }

    func testErrorsNameTheJSONPath() {
        // A syntax error has no JSON path: it names the line and column.
        XCTAssertThrowsError(try decode("{")) { e in
            XCTAssertEqual(e as? RasterError, .io(path: "job:1:2", reason: "not valid JSON (expected a key in quotes, found the end of the file)"))
        }
        assertFails("[]", path: "", mentioning: "object")
        assertFails(##"{ "height": 1 }"##, path: "width", mentioning: "missing")
        // The value as written (0, not 0.0) and the range.
        assertFails(##"{ "width": 0, "height": 1 }"##, path: "width", mentioning: "0 is out of range (accepted: a whole number in 1...32768)")
        assertFails(##"{ "width": 1.5, "height": 1 }"##, path: "width", mentioning: "1.5 is not a whole number (accepted: a whole number in 1...32768)")
        assertFails(##"{ "width": 100000, "height": 1 }"##, path: "width")
        assertFails(##"{ "width": 2, "height": 2, "colour": "#FFF" }"##, path: "colour", mentioning: "unknown key")
        assertFails(##"{ "width": 2, "height": 2, "background": "red" }"##, path: "background", mentioning: "#RRGGBB")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "sparkle" } ] }"##, path: "ops[0].op", mentioning: "freeform")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ {} ] }"##, path: "ops[0].op", mentioning: "missing")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "points": [] } ] }"##, path: "ops[0].points", mentioning: "1...16")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "points": [ { "x": "a", "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].points[0].x", mentioning: "number")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "points": [ { "x": 1e999, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].points[0].x", mentioning: "not finite")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "freeform", "influence": 0, "points": [ { "x": 0, "y": 0, "color": "#FFFFFF" } ] } ] }"##,
                    path: "ops[0].influence")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "linear", "start": [0, 0], "end": [1], "stops": [] } ] }"##,
                    path: "ops[0].end")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "linear", "start": [0, 0], "end": [1, 1], "stops": [] } ] }"##,
                    path: "ops[0].stops", mentioning: "2...16")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "radial", "center": [0, 0], "radius": -2, "stops": [] } ] }"##,
                    path: "ops[0].radius")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "radial", "center": [0, 0], "radius": 2, "stops": [ { "offset": 0, "color": "#000000" }, { "offset": 2, "color": "#000000" } ] } ] }"##,
                    path: "ops[0].stops[1].offset", mentioning: "0.0...1.0")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "radial", "center": [0, 0], "radius": 2, "extend": "mirror", "stops": [ { "offset": 0, "color": "#000000" }, { "offset": 1, "color": "#000000" } ] } ] }"##,
                    path: "ops[0].extend", mentioning: "reflect")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "layer", "opacity": 1.5, "ops": [] } ] }"##,
                    path: "ops[0].opacity")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "layer", "ops": [ { "op": "image" } ] } ] }"##,
                    path: "ops[0].ops[0].file", mentioning: "missing")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "image", "file": "no-such-file.rgba" } ] }"##,
                    path: "ops[0].file", mentioning: "no-such-file")
        assertFails(##"{ "width": 2, "height": 2, "ops": [ { "op": "image", "file": "picture.jpg" } ] }"##,
                    path: "ops[0].file")
    }

    func testRejectsAbsurdLayerNesting() {
        var ops = ##"[]"##
        for _ in 0...JobDecoder_maxDepth { ops = ##"[ { "op": "layer", "ops": \##(ops) } ]"## }
        XCTAssertThrowsError(try decode(##"{ "width": 2, "height": 2, "ops": \##(ops) }"##))
    }
}

/// Mirrors `JobDecoder.maxLayerDepth` (internal to RasterKit).
let JobDecoder_maxDepth = 16
