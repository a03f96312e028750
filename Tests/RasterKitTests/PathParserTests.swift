import XCTest
import RasterKit

final class PathParserTests: XCTestCase {
    func elements(_ d: String) throws -> [Path.Element] { try Path(svg: d).elements }

    func testAbsoluteAndRelativeCommands() throws {
        XCTAssertEqual(try elements("M 10 20 L 30 40 H 50 V 60 Z"), [
            .move(to: Point(10, 20)), .line(to: Point(30, 40)), .line(to: Point(50, 40)), .line(to: Point(50, 60)), .close,
        ])
        XCTAssertEqual(try elements("m 10 20 l 30 40 h 5 v -10 z"), [
            .move(to: Point(10, 20)), .line(to: Point(40, 60)), .line(to: Point(45, 60)), .line(to: Point(45, 50)), .close,
        ])
        XCTAssertEqual(try elements("M0 0 C 1 2 3 4 5 6 c 1 1 2 2 3 3"), [
            .move(to: Point(0, 0)), .cubic(c1: Point(1, 2), c2: Point(3, 4), to: Point(5, 6)),
            .cubic(c1: Point(6, 7), c2: Point(7, 8), to: Point(8, 9)),
        ])
        XCTAssertEqual(try elements("M0 0 Q 1 2 3 4 q 1 0 2 2"), [
            .move(to: Point(0, 0)), .quad(control: Point(1, 2), to: Point(3, 4)), .quad(control: Point(4, 4), to: Point(5, 6)),
        ])
    }

    func testImplicitRepetition() throws {
        // Pairs after M are lines; after m, relative lines.
        XCTAssertEqual(try elements("M 1 1 2 2 3 3"), [.move(to: Point(1, 1)), .line(to: Point(2, 2)), .line(to: Point(3, 3))])
        XCTAssertEqual(try elements("m 1 1 2 2 3 3"), [.move(to: Point(1, 1)), .line(to: Point(3, 3)), .line(to: Point(6, 6))])
        XCTAssertEqual(try elements("M0,0 L1,1,2,2 h1 2"), [
            .move(to: Point(0, 0)), .line(to: Point(1, 1)), .line(to: Point(2, 2)), .line(to: Point(3, 2)), .line(to: Point(5, 2)),
        ])
    }

    func testCompactNumbers() throws {
        XCTAssertEqual(try elements("M1-2.5.5.5"), [.move(to: Point(1, -2.5)), .line(to: Point(0.5, 0.5))])
        XCTAssertEqual(try elements("M1e2,2E-1L+3-4e+1"), [.move(to: Point(100, 0.2)), .line(to: Point(3, -40))])
        XCTAssertEqual(try elements("\tM\n1\r\n2\u{0C}"), [.move(to: Point(1, 2))])
    }

    func testSmoothCurvesReflectTheirControl() throws {
        XCTAssertEqual(try elements("M0 0 C 0 10 10 10 10 0 S 20 -10 20 0"), [
            .move(to: Point(0, 0)), .cubic(c1: Point(0, 10), c2: Point(10, 10), to: Point(10, 0)),
            .cubic(c1: Point(10, -10), c2: Point(20, -10), to: Point(20, 0)),
        ])
        // S after a non-curve uses the current point as its first control.
        XCTAssertEqual(try elements("M0 0 L 5 5 s 5 5 10 0")[2], .cubic(c1: Point(5, 5), c2: Point(10, 10), to: Point(15, 5)))
        XCTAssertEqual(try elements("M0 0 Q 5 10 10 0 T 20 0 t 10 0"), [
            .move(to: Point(0, 0)), .quad(control: Point(5, 10), to: Point(10, 0)),
            .quad(control: Point(15, -10), to: Point(20, 0)), .quad(control: Point(25, 10), to: Point(30, 0)),
        ])
    }

    /// SVG 2 path data, rule by rule, where the rules above leave a case open.
    func testSmoothCurvesReflectOnlyTheirOwnKind() throws {
        // After an arc (which the parser turns into cubics) S starts at the current point.
        let afterArc = try elements("M 0 0 A 10 10 0 0 1 20 0 S 30 10 40 0")
        XCTAssertEqual(afterArc.last, .cubic(c1: Point(20, 0), c2: Point(30, 10), to: Point(40, 0)))
        // S after a quadratic, T after a cubic: no reflection either.
        XCTAssertEqual(try elements("M0 0 Q 5 10 10 0 S 15 5 20 0").last, .cubic(c1: Point(10, 0), c2: Point(15, 5), to: Point(20, 0)))
        XCTAssertEqual(try elements("M0 0 C 0 5 5 5 10 0 T 20 0").last, .quad(control: Point(10, 0), to: Point(20, 0)))
        // T after a line takes the current point as its control; a T after
        // that T reflects that control (10 0) through 20 0.
        XCTAssertEqual(try elements("M0 0 L 10 0 T 20 0 T 30 0").last, .quad(control: Point(30, 0), to: Point(30, 0)))
        // S after an implicit repetition of C reflects the last set's control.
        XCTAssertEqual(try elements("M0 0 C 1 1 2 2 3 3 4 4 5 5 6 6 S 8 8 9 9").last,
                       .cubic(c1: Point(7, 7), c2: Point(8, 8), to: Point(9, 9)))
        // z ends any reflection.
        XCTAssertEqual(try elements("M0 0 C 0 5 5 5 10 0 Z S 5 5 10 10").last, .cubic(c1: Point(0, 0), c2: Point(5, 5), to: Point(10, 10)))
    }

    func testMovetoRules() throws {
        // A relative m as the first command is absolute; after z it is relative to the sub-path's start.
        XCTAssertEqual(try elements("m 5 5 l 1 0 z m 2 2"), [
            .move(to: Point(5, 5)), .line(to: Point(6, 5)), .close, .move(to: Point(7, 7)),
        ])
        // Relative repeats of c are relative to each set's start point.
        XCTAssertEqual(try elements("M 1 1 c 1 0 1 0 1 0 1 0 1 0 1 0").last, .cubic(c1: Point(3, 1), c2: Point(3, 1), to: Point(3, 1)))
    }

    func testArcArgumentRules() throws {
        // Negative radii mean their absolute values.
        XCTAssertEqual(try elements("M 0 0 A -10 -10 0 0 1 20 0"), try elements("M 0 0 A 10 10 0 0 1 20 0"))
        // The rotation only matters modulo 360.
        let a = try elements("M 0 0 A 20 10 30 0 1 20 5"), b = try elements("M 0 0 A 20 10 390 0 1 20 5")
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) {
            if case let .cubic(c1, c2, p) = x, case let .cubic(d1, d2, q) = y {
                XCTAssertEqual((c1 - d1).length + (c2 - d2).length + (p - q).length, 0, accuracy: 1e-9)
            }
        }
        // Flags are a single 0 or 1.
        XCTAssertThrowsError(try Path(svg: "M 0 0 A 10 10 0 2 0 5 5"))
        XCTAssertThrowsError(try Path(svg: "M 0 0 A 10 10 0 0 -1 5 5"))
    }

    func testSeparatorRules() throws {
        // comma-wsp sits between numbers and between argument sets, never
        // right after a command letter, never twice, never trailing.
        XCTAssertEqual(try elements("M 1,2 , 3,4"), [.move(to: Point(1, 2)), .line(to: Point(3, 4))])
        XCTAssertThrowsError(try Path(svg: "M,1 2"))
        XCTAssertThrowsError(try Path(svg: "M 1 2 L, 3 4"))
        XCTAssertThrowsError(try Path(svg: "M 1,,2"))
        XCTAssertThrowsError(try Path(svg: "M 1 2,"))
        // Numbers after z are an error (z takes none); "1." is a number.
        XCTAssertThrowsError(try Path(svg: "M 0 0 L 1 1 z 5 5"))
        XCTAssertEqual(try elements("M 1. 2."), [.move(to: Point(1, 2))])
    }

    func testCloseReturnsToTheSubpathStart() throws {
        XCTAssertEqual(try elements("M 10 10 L 20 10 Z l 5 5"), [
            .move(to: Point(10, 10)), .line(to: Point(20, 10)), .close, .line(to: Point(15, 15)),
        ])
    }

    /// Arcs become cubics that stay on the ellipse.
    func testArcsFollowTheEllipse() throws {
        let path = try Path(svg: "M 0 0 A 10 10 0 0 1 20 0")
        guard case .move(let start) = path.elements[0] else { return XCTFail() }
        var current = start
        var pieces = 0
        for e in path.elements.dropFirst() {
            guard case let .cubic(c1, c2, p) = e else { return XCTFail("\(e)") }
            for t in stride(from: 0.0, through: 1.0, by: 0.125) {
                let s = 1 - t
                let q = current * (s * s * s) + c1 * (3 * s * s * t) + c2 * (3 * s * t * t) + p * (t * t * t)
                XCTAssertEqual((q - Point(10, 0)).length, 10, accuracy: 1e-4)
                // sweep = 1 in y-down coordinates goes through y < 0 ... here the upper half
                XCTAssertLessThanOrEqual(q.y, 1e-9)
            }
            current = p
            pieces += 1
        }
        XCTAssertEqual(current, Point(20, 0))
        XCTAssertEqual(pieces, 4) // 180 degrees in pieces of at most 45
        // The other sweep goes through the lower half.
        if case let .cubic(_, _, p) = try Path(svg: "M 0 0 A 10 10 0 0 0 20 0").elements[2] { XCTAssertGreaterThan(p.y, 0) }
        // Rotated ellipse, large arc, relative end point: ends exactly there.
        let rotated = try Path(svg: "M 5 5 a 20 10 30 1 0 15 5").elements
        guard case let .cubic(_, _, end) = rotated.last! else { return XCTFail() }
        XCTAssertEqual(end, Point(20, 10))
    }

    func testDegenerateArcs() throws {
        // Radii too small for the chord are scaled up (a half ellipse through both ends).
        let scaled = try Path(svg: "M 0 0 A 1 1 0 0 1 20 0").elements
        guard case let .cubic(_, _, mid) = scaled[2] else { return XCTFail() }
        XCTAssertEqual((mid - Point(10, 0)).length, 10, accuracy: 1e-9)
        // A zero radius is a straight line; identical end points draw nothing.
        XCTAssertEqual(try elements("M 0 0 A 0 5 0 0 1 10 10"), [.move(to: Point(0, 0)), .line(to: Point(10, 10))])
        XCTAssertEqual(try elements("M 3 3 A 5 5 0 0 1 3 3"), [.move(to: Point(3, 3))])
        // Flags need no separators.
        XCTAssertEqual(try elements("M0 0a10 10 0 0110 0").count, try elements("M0 0 a10 10 0 0 1 10 0").count)
    }

    /// Errors name the 1-based character position of the offending character.
    func testErrorsGiveThePosition() {
        func message(_ d: String) -> String {
            do { _ = try Path(svg: d); return "no error" } catch { return "\(error)" }
        }
        XCTAssertTrue(message("M 10 10 X 5").contains("'X' at character 9"), message("M 10 10 X 5"))
        XCTAssertTrue(message("L 1 2").contains("at character 1"), message("L 1 2"))
        XCTAssertTrue(message("  M 1").contains("expected a number, found the end of the data at character 6"), message("  M 1"))
        XCTAssertTrue(message("M 1 2 a 1 1 0 2 1 3 3").contains("arc flag 0 or 1, found '2' at character 15"), message("M 1 2 a 1 1 0 2 1 3 3"))
        XCTAssertTrue(message("M 1e 2").contains("malformed exponent in number at character 4"), message("M 1e 2"))
        XCTAssertTrue(message("M 1,2,L 3 4").contains("found 'L' at character 7"), message("M 1,2,L 3 4"))
        XCTAssertTrue(message("M 1 2 Z 3").contains("'3' at character 9"), message("M 1 2 Z 3"))
        XCTAssertTrue(message("M 1 2 é").contains("'é' at character 7"), message("M 1 2 é"))
        XCTAssertTrue(message("").contains("empty path data"), message(""))
        XCTAssertTrue(message("M 1e999 0").contains("out of range at character 3"), message("M 1e999 0"))
        for d in ["M 10 10 X 5", "L 1 2", ""] {
            XCTAssertThrowsError(try Path(svg: d)) { XCTAssertTrue($0 is RasterError) }
        }
    }
}
