import Foundation
import RasterKit
import XCTest

/// Numeric conversions that trap and memory exhaustion, through the
/// library: every extreme but finite input either
/// works or throws a typed `RasterError`, never traps.
final class NumericDomainTests: XCTestCase {
    func points(_ path: Path) -> [Point] {
        path.elements.flatMap { e -> [Point] in
            switch e {
            case let .move(p), let .line(p): return [p]
            case let .quad(c, p): return [c, p]
            case let .cubic(c1, c2, p): return [c1, c2, p]
            case .close: return []
            }
        }
    }

    /// Arcs: radii from 1e-320 to 1e300, rotations up to 1e308 degrees,
    /// every flag: finite output within the path's own extent.
    func testArcsWithExtremeRadiiAndRotationsStayFinite() throws {
        let radii = ["1e-320", "1e-300", "1e-50", "3", "1e50", "1e300", "-1e-300"]
        let rotations = ["0", "1e308", "-1e308", "7e15", "1e-300"]
        for rx in radii {
            for ry in radii {
                for rot in rotations {
                    for flags in ["0 0", "0 1", "1 0", "1 1"] {
                        let d = "M0 0 A\(rx) \(ry) \(rot) \(flags) 5 5 Z"
                        let path = try Path(svg: d)
                        let a = abs(Double(rx)!), b = abs(Double(ry)!)
                        for p in points(path) {
                            XCTAssert(p.x.isFinite && p.y.isFinite, "\(d): \(p)")
                            // Radii of a sane ratio: a half-ellipse through (0,0) and
                            // (5,5) at most; the huge-radius cases become the chord.
                            // (A ratio of 1e20 is an ellipse 1e20 times taller than
                            // wide, rightly far off the canvas: PathFill refuses it.)
                            // A large arc of a huge ellipse goes round it, far off.
                            if max(a, b) <= 1e6 * min(a, b), !(flags.hasPrefix("1") && min(a, b) > 1e6) {
                                XCTAssert(abs(p.x) < 20 && abs(p.y) < 20, "\(d): \(p)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testTinyEqualRadiiGiveTheHalfCircleOverTheChord() throws {
        // F.6.6: radii too small are scaled up uniformly, so 1e-300 behaves as 1.
        XCTAssertEqual(points(try Path(svg: "M0 0 A1e-300 1e-300 0 0 1 10 0")).map { ($0.y * 1e9).rounded() },
                       points(try Path(svg: "M0 0 A1 1 0 0 1 10 0")).map { ($0.y * 1e9).rounded() })
        // A rotation of 1e308 degrees is 1e308 mod 360.
        let r = 1e308.truncatingRemainder(dividingBy: 360)
        XCTAssertEqual(points(try Path(svg: "M0 0 A3 6 1e308 0 1 10 0")).map { ($0.x * 1e6).rounded() },
                       points(try Path(svg: "M0 0 A3 6 \(r) 0 1 10 0")).map { ($0.x * 1e6).rounded() })
    }

    func testOutOfDomainValuesThrowTypedErrors() throws {
        let red = try Color(hex: "#FF0000"), blue = try Color(hex: "#0000FF")
        let stops = [Gradient.Stop(offset: 0, color: red), Gradient.Stop(offset: 1, color: blue)]
        func rejects(_ what: String, _ body: () throws -> Void) {
            XCTAssertThrowsError(try body(), what) { error in
                guard case let RasterError.invalidArgument(_, _, accepted) = error else { return XCTFail("\(what): \(error)") }
                XCTAssertFalse(accepted.isEmpty)
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        for sigma in [1e-200, 5e-324, 0.0099, -1, 4097] {
            rejects("sigma \(sigma)") { _ = try GaussianBlur(sigma: sigma) }
        }
        XCTAssertNoThrow(try GaussianBlur(sigma: GaussianBlur.minSigma))
        let p = FreeformGradient.Stop(position: Point(3, 0), color: red)
        for influence in [1e39, 1e300, 1e-50, 1e7 * 1.01, 0.0009] {
            rejects("influence \(influence)") { _ = try FreeformGradient(points: [p], influence: influence) }
        }
        rejects("point at 1e20") {
            _ = try FreeformGradient(points: [.init(position: Point(1e20, 0), color: red), p], influence: 10)
        }
        for (s, t) in [(Point(1e308, 0), Point(0, 0)), (Point(0, 0), Point(-1e30, 1)), (Point(0, 0), Point(1e-4, 0))] {
            rejects("linear \(s) \(t)") { _ = try Gradient(shape: .linear(start: s, end: t), stops: stops) }
        }
        for r in [1e-50, 1e-4, 1e8, -1] {
            rejects("radius \(r)") { _ = try Gradient(shape: .radial(center: Point(1, 1), radius: r), stops: stops, extend: .repeat) }
        }
        rejects("center at 1e30") { _ = try Gradient(shape: .radial(center: Point(1e30, 0), radius: 3), stops: stops) }
        // The bounds themselves are accepted.
        XCTAssertNoThrow(try Gradient(shape: .radial(center: Point(1e6, -1e6), radius: 1e-3), stops: stops, extend: .repeat))
        XCTAssertNoThrow(try Gradient(shape: .radial(center: Point(0, 0), radius: 0), stops: stops))
        // Stops 1e-39 apart are coincident (no slope beyond Float's range).
        let g = try Gradient(shape: .linear(start: Point(0, 0), end: Point(9, 0)),
                             stops: [.init(offset: 0.5, color: red), .init(offset: 0.5 + 1e-39, color: blue)])
        XCTAssertEqual(g.stops[0].offset, g.stops[1].offset)
        XCTAssert(g.ramp.slopes.allSatisfy { ($0 * 0).sum() == 0 }, "every slope finite")
    }

    // MARK: memory

    func testMemoryEstimateSaturatesAndCountsLayersAndImages() throws {
        XCTAssertEqual(JobMemory.estimate(width: Int.max, height: 3, layerDepth: 0, images: 0, usesScratch: false), .max)
        let one = JobMemory.estimate(width: 100, height: 100, layerDepth: 0, images: 0, usesScratch: false)
        XCTAssertEqual(JobMemory.estimate(width: 100, height: 100, layerDepth: 2, images: 0, usesScratch: false), one + 2 * 40_000)
        XCTAssertEqual(JobMemory.estimate(width: 100, height: 100, layerDepth: 0, images: 3, usesScratch: false), one + 3 * 40_000)
        XCTAssertGreaterThan(JobMemory.estimate(width: 100, height: 100, layerDepth: 0, images: 0, usesScratch: true), one)
    }

    func testDecoderRefusesAJobBeyondTheBudgetBeforeReadingItsImages() throws {
        // The images do not exist: a memory error (not "cannot read") proves
        // the refusal came before any image was opened or decoded.
        let json = #"{"width": 32768, "height": 32768, "ops": [{"op": "image", "file": "a.png"}, {"op": "image", "file": "b.png"},"#
            + #" {"op": "layer", "ops": [{"op": "layer", "ops": [{"op": "blur", "sigma": 2}]}]}]}"#
        let budget = try MemoryBudget(parsing: "2G")
        XCTAssertThrowsError(try Job.decode(Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/nonexistent"), memoryBudget: budget)) {
            XCTAssert("\($0)".contains("invalid maxMemory"), "\($0)")
            XCTAssert("\($0)".contains("GiB"), "\($0)")
        }
        let small = #"{"width": 64, "height": 64, "ops": [{"op": "blur", "sigma": 2}]}"#
        XCTAssertNoThrow(try Job.decode(Data(small.utf8), baseDirectory: URL(fileURLWithPath: "/"), memoryBudget: budget))
    }

    func testRendererRefusesAJobBeyondItsBudget() throws {
        let job = try Job(width: 4096, height: 4096, ops: [.layer(opacity: 1, ops: [.blur(try GaussianBlur(sigma: 2))])])
        let renderer = Renderer(backend: try BackendKind.naive.make(threads: 1))
        renderer.memoryBudget = try MemoryBudget(parsing: "64M")
        XCTAssertThrowsError(try renderer.render(job)) { XCTAssert("\($0)".contains("invalid maxMemory"), "\($0)") }
    }

    func testMaxMemoryParsing() throws {
        XCTAssertEqual(try MemoryBudget(parsing: "512M").bytes, 512 << 20)
        XCTAssertEqual(try MemoryBudget(parsing: "1.5G").bytes, 3 << 29)
        XCTAssertEqual(try MemoryBudget(parsing: "2GiB").bytes, 2 << 30)
        XCTAssertEqual(try MemoryBudget(parsing: "1048576").bytes, 1 << 20)
        for bad in ["", "-1G", "1K", "0", "1e400", "nan", "1Q", "1G\n", "0x10M", "99999999999T"] {
            XCTAssertThrowsError(try MemoryBudget(parsing: bad), bad)
        }
        XCTAssertGreaterThanOrEqual(MemoryBudget.default.bytes, MemoryBudget.minimum)
    }
}
