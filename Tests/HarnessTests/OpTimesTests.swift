import XCTest
@testable import RasterHarness

/// `bench --per-op`: an op's times are summed within a frame, then the
/// median over frames is taken; labels keep their first appearance's order.
final class OpTimesTests: XCTestCase {
    func testTimesSumWithinAFrameAndTheMedianIsOverFrames() {
        var t = OpTimes()
        for (frame, fills) in [[1.0, 2.0], [3.0, 3.0], [2.0, 2.0]].enumerated() {
            t.beginFrame()
            t.add("layer", nanoseconds: 10_000_000)
            for f in fills { t.add("fill", nanoseconds: UInt64(f * 1e6)) }
            if frame == 1 { t.add("blur", nanoseconds: 5_000_000) }
            t.endFrame()
        }
        let m = t.medians
        XCTAssertEqual(m.map(\.label), ["layer", "fill", "blur"])
        XCTAssertEqual(m.map(\.ms), [10, 4, 5], "fill: frames of 3, 6 and 4 ms; blur in one frame only")
    }

    func testNothingAddedIsNoLabel() {
        var t = OpTimes()
        t.beginFrame(); t.endFrame()
        XCTAssertTrue(t.medians.isEmpty)
    }
}
