import RasterKit
import XCTest

/// The morph scene's geometry: arc-length sampling and the cyclic alignment
/// that keeps a morph from flipping (docs/contract.md §5.5).
final class MorphTests: XCTestCase {
    func polygonArea(_ p: [Point]) -> Double {
        var a = 0.0
        for i in p.indices { let q = p[(i + 1) % p.count]; a += p[i].x * q.y - q.x * p[i].y }
        return a / 2
    }

    func testSamplesAreEvenlySpacedAndStartTopLeft() throws {
        for shape in MorphShape.allCases {
            let s = ArcLength.resample(closed: shape.outline, count: 100, startNearest: Point(0, 0))
            XCTAssertEqual(s.count, 100)
            // Clockwise on screen (y down) is a positive shoelace area.
            XCTAssertGreaterThan(polygonArea(s), 0, "\(shape) is not clockwise")
            // The first sample is the outline's point nearest (0, 0).
            let nearest = shape.outline.map(\.length).min()!
            XCTAssertLessThanOrEqual(s[0].length, nearest + 1e-9, "\(shape)")
            // Chords of equal arcs: on the circle all equal.
            if shape == .circle {
                let chords = s.indices.map { (s[($0 + 1) % 100] - s[$0]).length }
                XCTAssertEqual(chords.max()! - chords.min()!, 0, accuracy: 1e-4)
            }
        }
    }

    func testBestShiftUndoesARotation() {
        let s = ArcLength.resample(closed: MorphShape.star.outline, count: 100, startNearest: Point(0, 0))
        for k in [0, 1, 37, 99] {
            let rotated = ArcLength.shifted(s, by: k)
            XCTAssertEqual(ArcLength.bestShift(from: s, to: rotated), (100 - k) % 100)
        }
    }

    /// A flip or twist mid-morph shows as the polygon's area collapsing or
    /// changing sign half-way between two shapes. Every transition keeps at
    /// least 60% of the smaller end's area at every frame — and the same
    /// transition with the target shifted by half a turn (a twisted pairing)
    /// fails that check, so it would catch one.
    func testNoMorphFlipsOrTwists() throws {
        let canvas = try SceneCanvas(width: 750, height: 1334, scale: 2, fps: 60)
        let scene = try MorphScene(options: SceneOptions(), canvas: canvas)
        func worstRatio(_ from: [Point], _ to: [Point]) -> Double {
            let ends = min(polygonArea(from), polygonArea(to))
            return stride(from: 0.0, through: 1.0, by: 0.05).map { s in
                polygonArea(zip(from, to).map { mix($0, $1, s) }) / ends
            }.min()!
        }
        for (k, t) in scene.transitions.enumerated() {
            XCTAssertGreaterThan(worstRatio(t.from, t.to), 0.6, "transition \(k) twists")
            XCTAssertLessThan(worstRatio(t.from, ArcLength.shifted(t.to, by: 50)), 0.6,
                              "transition \(k): the check would not catch a twisted pairing")
        }
        // Every frame of the cycle is a positive-area polygon.
        for f in 0..<MorphScene.info.cycle { XCTAssertGreaterThan(polygonArea(scene.polygon(frame: f)), 0, "frame \(f)") }
    }

    func testCycleJoinsUp() throws {
        let canvas = try SceneCanvas(width: 300, height: 300, scale: 1, fps: 60)
        let scene = try MorphScene(options: SceneOptions(), canvas: canvas)
        // The last frame of the cycle shows the same polygon (up to a cyclic
        // shift of its samples) as frame 0.
        let last = scene.polygon(frame: 359), first = scene.polygon(frame: 0)
        let k = ArcLength.bestShift(from: first, to: last)
        let shifted = ArcLength.shifted(last, by: k)
        for (a, b) in zip(first, shifted) { XCTAssertEqual((a - b).length, 0, accuracy: 1e-9) }
    }
}
