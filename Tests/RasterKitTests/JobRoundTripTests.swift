import Foundation
import RasterKit
import XCTest

/// A job written by `Job.jsonText()` decodes to the same job, bit for bit:
/// numbers included (the decoder must round correctly; JSONSerialization on
/// Linux does not) and reduced-size layers.
final class JobRoundTripTests: XCTestCase {
    func testDoublesSurviveExactly() throws {
        let xs = [0.5582916744382223, 0.34995000932586673, 123456.78901234567, 1e-300, -7.000000000000001]
        var path = Path()
        path.move(to: Point(xs[0], xs[1]))
        path.line(to: Point(xs[2], xs[4]))
        path.cubic(c1: Point(xs[3], 3), c2: Point(-xs[1], 7), to: Point(1, 2))
        path.close()
        let job = try Job(width: 64, height: 32, background: try Color(hex: "#10203040"), ops: [
            .fill(try PathFill(path: path, color: try Color(hex: "#FF8000"))),
            .scaledLayer(width: 16, height: 8, opacity: 0.3, ops: [.blur(try GaussianBlur(sigma: xs[0]))]),
        ])
        let text = try job.jsonText()
        let back = try Job.decode(Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(try back.jsonText(), text)
        guard case let .fill(f) = back.ops[0] else { return XCTFail("not a fill") }
        XCTAssertEqual(f.path, path)
        guard case let .scaledLayer(w, h, opacity, ops) = back.ops[1], case let .blur(b) = ops[0] else {
            return XCTFail("not a reduced layer")
        }
        XCTAssertEqual([w, h], [16, 8]); XCTAssertEqual(opacity, 0.3); XCTAssertEqual(b.sigma, xs[0])
        XCTAssertEqual(back.background.hexString, "#10203040")
    }

    func testImageOpsCannotBeWritten() throws {
        let job = try Job(width: 2, height: 2, ops: [.image(try Image(width: 2, height: 2))])
        XCTAssertThrowsError(try job.jsonText())
    }

    func testLayerSizeIsValidated() {
        let bad = #"{"width": 8, "height": 8, "ops": [{"op": "layer", "size": [9, 2], "ops": []}]}"#
        XCTAssertThrowsError(try Job.decode(Data(bad.utf8), baseDirectory: URL(fileURLWithPath: "/"))) { e in
            XCTAssert("\(e)".contains("ops[0].size[0]"), "\(e)")
        }
    }
}
