import Foundation
@testable import RasterKit
import XCTest

/// A renderer with a time budget stops before the next op once the deadline
/// has passed, with a typed error naming the limit; no time is measured
/// (a budget of 1 ns has passed by the first op).
final class TimeBudgetTests: XCTestCase {
    func testARendererStopsBeforeAnOpOnceItsBudgetHasPassed() throws {
        let here = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        let job = try Job.decode(Data(##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":1},{"op":"blur","sigma":2}]}"##.utf8),
                                 baseDirectory: here)
        let renderer = Renderer(backend: NaiveBackend())
        renderer.timeBudget = try TimeBudget(seconds: 1e-9)
        XCTAssertThrowsError(try renderer.render(job)) { e in
            guard case let RasterError.invalidArgument(name, value, accepted) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(name, "maxSeconds")
            XCTAssertTrue(value.hasPrefix("still rendering after"), value)
            XCTAssertTrue(accepted.contains("raise it"), accepted)
        }
        // A job without ops has nothing to stop; no budget, no limit.
        XCTAssertNoThrow(try renderer.render(try Job(width: 8, height: 8, background: .transparent, ops: [])))
        renderer.timeBudget = nil
        XCTAssertNoThrow(try renderer.render(job))
        // A budget below or at zero, or beyond a day, is not one.
        for bad in [0, -1, .infinity, .nan, TimeBudget.maxSeconds * 2] {
            XCTAssertThrowsError(try TimeBudget(seconds: bad), "\(bad)")
        }
    }

    /// An op whose floor cannot fit in the time left is refused before it
    /// starts (a lone exact sigma-4096 blur of 2000x2000: its floor is
    /// 2000 * 2000 * 4 * (2000 + 2000) multiply-adds, 0.5 s on one core, so
    /// a 50 ms budget refuses it; had it run, there would be no error at all,
    /// as no op follows it). One that fits is not refused. `runOps`, so that
    /// only the op is inside the budget, not the canvas's allocation.
    func testAnOpWhoseFloorDoesNotFitIsRefusedBeforeItStarts() throws {
        let here = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        let huge = try Job.decode(Data(##"{"width":2000,"height":2000,"ops":[{"op":"blur","sigma":4096}]}"##.utf8),
                                  baseDirectory: here)
        let renderer = Renderer(backend: NaiveBackend())
        let canvas = try Image(width: 2000, height: 2000)
        renderer.timeBudget = try TimeBudget(seconds: 0.05)
        XCTAssertThrowsError(try renderer.runOps(huge, on: canvas)) { e in
            guard case let RasterError.invalidArgument(name, value, accepted) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(name, "maxSeconds")
            XCTAssertEqual(value, "the blur op needs at least 0.5 s on any host")
            XCTAssertTrue(accepted.hasPrefix("at most 0.05 s, of which "), accepted)
        }
        // The same op in a layer is refused by the layer's floor.
        let layered = try Job.decode(Data(##"{"width":2000,"height":2000,"ops":[{"op":"layer","ops":[{"op":"blur","sigma":4096}]}]}"##.utf8),
                                     baseDirectory: here)
        XCTAssertThrowsError(try renderer.runOps(layered, on: canvas)) { e in
            XCTAssertTrue("\(e)".contains("the layer (all) op needs at least 0.5 s"), "\(e)")
        }
        let small = try Job.decode(Data(##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":1}]}"##.utf8),
                                   baseDirectory: here)
        renderer.timeBudget = try TimeBudget(seconds: 60)
        XCTAssertNoThrow(try renderer.render(small))
    }

    /// The floors against a hand computation.
    func testOpFloorsAgainstAHandComputation() throws {
        let white = Color(straightR: 255, g: 255, b: 255)
        let blur = JobOp.blur(try GaussianBlur(sigma: 1)) // r = 4: 5 taps each way
        XCTAssertEqual(OpFloor.work(blur, width: 10, height: 20, blur: .exact).multiplyAdds, 10 * 20 * 4 * (5 + 5))
        // Taps beyond the line are not counted: min(r + 1, n) each way.
        let wide = JobOp.blur(try GaussianBlur(sigma: 4096))
        XCTAssertEqual(OpFloor.work(wide, width: 2000, height: 1000, blur: .exact).multiplyAdds, 2e6 * 4 * 3000)
        XCTAssertEqual(OpFloor.seconds(wide, width: 2000, height: 1000, blur: .exact, threads: 1), 2.4e10 / 1.28e11)
        // The O(1) variants have no floor.
        XCTAssertEqual(OpFloor.work(wide, width: 2000, height: 1000, blur: .iir).multiplyAdds, 0)
        // A square from y = 1 to y = 9 on a 4-row canvas: its two vertical
        // edges cross rows 1...4 (3 rows each), clipped at the canvas; the
        // implicit close counts as an edge, and a curve counts its end points.
        let square = try PathFill(path: try Path(svg: "M1 1 L5 1 L5 9 L1 9"), rule: .nonzero, color: white)
        XCTAssertEqual(OpFloor.work(.fill(square), width: 8, height: 4, blur: .exact).cells, 6)
        let curve = try PathFill(path: try Path(svg: "M0 0 C 9 9 9 9 0 3 Z"), rule: .nonzero, color: white)
        XCTAssertEqual(OpFloor.work(.fill(curve), width: 8, height: 10, blur: .exact).cells, 6)
        // The blob's curve passes through its anchors, the loop closed.
        let blob = JobOp.blob(anchors: [Point(0, 0), Point(4, 2), Point(0, 5)], color: white)
        XCTAssertEqual(OpFloor.work(blob, width: 8, height: 10, blur: .exact).cells, 10)
        // A scaled layer's ops count at its own size; a layer adds its ops.
        let scaled = JobOp.scaledLayer(width: 5, height: 5, opacity: 1, ops: [blur, blur])
        XCTAssertEqual(OpFloor.work(scaled, width: 100, height: 100, blur: .exact).multiplyAdds, 2 * 25 * 4 * 10)
        XCTAssertEqual(OpFloor.work(.image(try Image(width: 9, height: 9)), width: 9, height: 9, blur: .exact).multiplyAdds, 0)
    }
}
