import Foundation
import RasterKit
import XCTest

/// The scenes as generators (docs/contract.md §5): pure, deterministic, every
/// option honoured, and their animation rules within their limits. Frames
/// are drawn small (a tenth of iphone-6) on the simd backend to stay fast.
final class SceneTests: XCTestCase {
    let small = try! SceneCanvas(width: 75, height: 133, scale: 0.2, fps: 60)

    func render(_ scene: any Scene, _ frame: Int, backend: BackendKind = .simd, threads: Int = 2) throws -> [UInt8] {
        let renderer = Renderer(backend: try backend.make(threads: threads))
        return try renderer.render(scene.job(frame: frame)).packedBytes
    }

    func make(_ name: String, _ options: SceneOptions = SceneOptions()) throws -> any Scene {
        try SceneCatalog.make(name, options: options, canvas: small)
    }

    func testCatalogNamesAndCycles() throws {
        XCTAssertEqual(SceneCatalog.names, ["telegram", "aurora", "liquid", "mesh", "morph"])
        XCTAssertEqual(TelegramScene.info.cycle, 480)
        XCTAssertEqual(AuroraScene.info.cycle, 3600)
        XCTAssertEqual(LiquidScene.info.cycle, 360)
        XCTAssertEqual(MeshScene.info.cycle, 600)
        XCTAssertEqual(MorphScene.info.cycle, 360)
        XCTAssertThrowsError(try SceneCatalog.named("nope"))
    }

    func testFramesAreDeterministicAndMove() throws {
        for name in SceneCatalog.names {
            let a = try make(name), b = try make(name)
            XCTAssertEqual(try render(a, 30), try render(b, 30), "\(name): two renders of frame 30 differ")
            XCTAssertNotEqual(try render(a, 0), try render(a, 30), "\(name): frames 0 and 30 are the same")
        }
    }

    /// A frame depends on its index only, not on which frames came before
    /// (stateful scenes replay from the start when asked for an earlier one).
    func testFrameOrderDoesNotMatter() throws {
        for name in SceneCatalog.names {
            let forward = try make(name)
            _ = try forward.job(frame: 10)
            let late = try forward.job(frame: 47).jsonText()
            let early = try forward.job(frame: 3).jsonText()
            let fresh = try make(name)
            XCTAssertEqual(try fresh.job(frame: 3).jsonText(), early, name)
            XCTAssertEqual(try make(name).job(frame: 47).jsonText(), late, name)
        }
    }

    /// `--emit-job` then `render JOB.json` gives the same bytes as the direct render.
    func testEmittedJobRendersTheSameBytes() throws {
        for name in SceneCatalog.names {
            let scene = try make(name)
            let job = try scene.job(frame: 77)
            let text = try job.jsonText()
            let decoded = try Job.decode(Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/"))
            XCTAssertEqual(try decoded.jsonText(), text, "\(name): the job does not survive a round trip")
            let r = Renderer(backend: try BackendKind.simd.make(threads: 1))
            XCTAssertEqual(try r.render(decoded).packedBytes, try r.render(job).packedBytes, name)
        }
    }

    func testEveryOptionRendersAndDiffersFromTheDefault() throws {
        var checked = 0
        for type in SceneCatalog.all {
            let info = type.info
            let base = try render(try make(info.name), 40)
            let others = info.styles.dropFirst().map { SceneOptions(style: $0) }
                + info.modes.dropFirst().map { SceneOptions(mode: $0) }
                + info.themes.dropFirst().map { SceneOptions(theme: $0) }
            for o in others {
                XCTAssertNotEqual(try render(try make(info.name, o), 40), base, "\(info.name) \(o)")
                checked += 1
            }
            // Dark theme with each mode too (the modes have their own dark colours).
            if info.themes.contains(.dark) {
                for mode in info.modes {
                    let light = try render(try make(info.name, SceneOptions(mode: mode, theme: .light)), 40)
                    let dark = try render(try make(info.name, SceneOptions(mode: mode, theme: .dark)), 40)
                    XCTAssertNotEqual(light, dark, "\(info.name) \(mode): dark equals light")
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 1 + 2 + 1 + 3)
    }

    func testUnknownOptionsAreRefused() throws {
        XCTAssertThrowsError(try SceneOptions(style: "android", mode: nil, theme: nil, for: TelegramScene.info))
        XCTAssertThrowsError(try SceneOptions(style: nil, mode: nil, theme: "sepia", for: AuroraScene.info))
        XCTAssertThrowsError(try SceneOptions(style: nil, mode: "standard", theme: nil, for: MorphScene.info))
        // Parsing and the scene's own check refuse with the same one line.
        for refused in [{ try SceneOptions(style: "contest", mode: nil, theme: nil, for: AuroraScene.info) },
                        { try AuroraScene(options: SceneOptions(style: .contest), canvas: self.small) }] as [() throws -> Any] {
            XCTAssertThrowsError(try refused()) { error in
                XCTAssertEqual("\(error)", "invalid style for scene aurora: 'contest' (accepted: none (the scene has no styles))")
            }
        }
        // A value another scene accepts, given through the library.
        XCTAssertThrowsError(try make("morph", SceneOptions(mode: .standard)))
        XCTAssertThrowsError(try make("aurora", SceneOptions(style: .contest)))
        XCTAssertThrowsError(try make("liquid").job(frame: -1))
        XCTAssertThrowsError(try SceneCanvas(width: 0, height: 10, scale: 1, fps: 60))
        XCTAssertThrowsError(try SceneCanvas(width: 10, height: 10, scale: .nan, fps: 60))
    }

    func testSeedChangesOnlyRandomScenes() throws {
        for type in SceneCatalog.all {
            let name = type.info.name
            let one = try render(try make(name, SceneOptions(seed: 1)), 50)
            let two = try render(try make(name, SceneOptions(seed: 2)), 50)
            if type.info.usesSeed {
                XCTAssertNotEqual(one, two, "\(name): seed 2 equals seed 1")
            } else {
                XCTAssertEqual(one, two, "\(name) draws no random numbers, yet the seed changed it")
            }
        }
    }

    func testCyclicScenesRepeat() throws {
        for name in ["telegram", "morph"] {
            let scene = try make(name)
            let cycle = type(of: scene).info.cycle
            XCTAssertEqual(try scene.job(frame: 5).jsonText(), try scene.job(frame: 5 + cycle).jsonText(), name)
        }
    }

    func testEaseInOutMatchesCSS() {
        let e = CubicBezierTiming.easeInOut
        XCTAssertEqual(e(0), 0); XCTAssertEqual(e(1), 1)
        XCTAssertEqual(e(0.5), 0.5, accuracy: 1e-9) // symmetric curve
        // Chromium's ease-in-out at x = 0.25 is 0.1291 (UnitBezier).
        XCTAssertEqual(e(0.25), 0.1291, accuracy: 5e-4)
        XCTAssertEqual(e(0.25) + e(0.75), 1, accuracy: 1e-9)
        var last = 0.0
        for i in 1...100 { let v = e(Double(i) / 100); XCTAssertGreaterThanOrEqual(v, last); last = v }
    }

    func testTelegramPointsFollowTheLoop() throws {
        let scene = try XCTUnwrap(try make("telegram") as? TelegramScene)
        // Frame 0: phase 0, positions 0, 2, 4, 6.
        XCTAssertEqual(scene.points(frame: 0), [0, 2, 4, 6].map { TelegramScene.positions[$0] })
        // Frame 60: phase 1.
        XCTAssertEqual(scene.points(frame: 60), [1, 3, 5, 7].map { TelegramScene.positions[$0] })
        // Half-way through a transition, ease-in-out is at 0.5: the midpoints.
        let mid = scene.points(frame: 30)
        for (j, p) in mid.enumerated() {
            let a = TelegramScene.positions[2 * j], b = TelegramScene.positions[2 * j + 1]
            XCTAssertEqual(p.x, (a.x + b.x) / 2, accuracy: 1e-9); XCTAssertEqual(p.y, (a.y + b.y) / 2, accuracy: 1e-9)
        }
        // The contest style holds each of its 27 positions for a stretch of frames.
        let contest = try XCTUnwrap(try make("telegram", SceneOptions(style: .contest)) as? TelegramScene)
        let distinct = Set((0..<60).map { contest.points(frame: $0)[0].x })
        XCTAssertLessThanOrEqual(distinct.count, TelegramScene.contestSteps)
        XCTAssertGreaterThan(distinct.count, 20)
    }

    func testAuroraGeometry() throws {
        let canvas = try SceneCanvas(width: 750, height: 1334, scale: 2, fps: 60)
        let scene = try AuroraScene(options: SceneOptions(), canvas: canvas)
        for (i, d) in scene.draws.enumerated() {
            XCTAssert(AuroraScene.ratioRange.contains(d.ratio), "circle \(i) ratio \(d.ratio)")
            XCTAssert(AuroraScene.offsetRange.contains(d.offset.x) && AuroraScene.offsetRange.contains(d.offset.y))
            let (c0, r) = scene.geometry(i, time: 0)
            XCTAssertEqual(r, 1334.0 / 2 / d.ratio / 2 * 2, accuracy: 1e-9) // D/2 pt x scale
            // A full period later the circle is back where it started.
            let (c1, _) = scene.geometry(i, time: AuroraScene.circles[i].period)
            XCTAssertEqual(c0.x, c1.x, accuracy: 1e-6); XCTAssertEqual(c0.y, c1.y, accuracy: 1e-6)
            // Its distance from its box centre is the offset's length.
            let box = AuroraScene.circles[i].corner
            let dPt = 667.0 / d.ratio
            let bx = (box == .topLeading || box == .bottomLeading) ? dPt / 2 : 375 - dPt / 2
            let by = (box == .topLeading || box == .topTrailing) ? dPt / 2 : 667 - dPt / 2
            XCTAssertEqual((c0 * 0.5 - Point(bx, by)).length, d.offset.length, accuracy: 1e-6)
        }
    }

    func testLiquidAnchorsStayInTheirSectors() throws {
        let scene = try XCTUnwrap(try make("liquid") as? LiquidScene)
        for b in LiquidScene.blobs.indices {
            let n = Double(LiquidScene.blobs[b].anchors)
            for t in stride(from: 0.0, through: 13.0, by: 0.5) {
                let angles = scene.angles(blob: b, time: t)
                for (i, a) in angles.enumerated() {
                    // (i + u) 2pi/n + offset with u in [0, 1), offset in [0, pi/n].
                    let lo = Double(i) * 2 * .pi / n, hi = (Double(i) + 1.5) * 2 * .pi / n
                    XCTAssert(a >= lo && a < hi, "blob \(b) anchor \(i) at t=\(t): \(a) outside [\(lo), \(hi))")
                }
                XCTAssertEqual(angles, angles.sorted(), "blob \(b) anchors out of order at t=\(t)")
            }
        }
    }

    /// The wander and the spring over a long run: targets held near the
    /// 40 pt limit (one axis is clamped a frame, so the other may stay out
    /// by at most the steps taken while the first was being clamped: a step
    /// is at most speed x amplitude = 4 pt), edge points only along their
    /// edge, drawn points bounded (the spring's overshoot at damping ratio
    /// 0.5 is 16% of a step), and corners fixed: the mesh always covers the frame.
    func testMeshWanderStaysWithinItsLimits() throws {
        let canvas = try SceneCanvas(width: 750, height: 1334, scale: 2, fps: 60)
        let scene = try MeshScene(options: SceneOptions(seed: 7), canvas: canvas)
        var maxTarget = 0.0, maxDrawn = 0.0, moved = 0.0
        for f in stride(from: 0, through: 20_000, by: 1) {
            let (drawn, targets) = scene.displacements(frame: f)
            for (k, m) in MeshScene.moving.enumerated() {
                if !m.x { XCTAssertEqual(targets[k].x, 0); XCTAssertEqual(drawn[k].x, 0) }
                if !m.y { XCTAssertEqual(targets[k].y, 0); XCTAssertEqual(drawn[k].y, 0) }
                maxTarget = max(maxTarget, abs(targets[k].x), abs(targets[k].y))
                maxDrawn = max(maxDrawn, abs(drawn[k].x), abs(drawn[k].y))
                moved = max(moved, drawn[k].length)
            }
            if f % 997 == 0 {
                let v = scene.vertices(frame: f)
                XCTAssertEqual([v[0], v[2], v[6], v[8]], [Point(0, 0), Point(750, 0), Point(0, 1334), Point(750, 1334)])
                XCTAssertEqual(v[1].y, 0); XCTAssertEqual(v[7].y, 1334); XCTAssertEqual(v[3].x, 0); XCTAssertEqual(v[5].x, 750)
            }
        }
        XCTAssertLessThanOrEqual(maxTarget, Firefly.limit + 3 * Firefly.speeds.upperBound * Firefly.amplitudes.upperBound)
        XCTAssertGreaterThan(maxTarget, Firefly.limit - 1, "the wander never reached its limit")
        XCTAssertLessThanOrEqual(maxDrawn, Firefly.limit * 1.5)
        XCTAssertGreaterThan(moved, 5, "the mesh barely moved in 20,000 frames")
    }

    func testSpringSettlesOnItsTarget() {
        var x = 0.0, v = 0.0
        for _ in 0..<600 { Spring.mesh.step(position: &x, velocity: &v, target: 10, dt: 1.0 / 60) }
        XCTAssertEqual(x, 10, accuracy: 1e-3)
        // Under-damped: it overshoots once, by about exp(-pi z / sqrt(1 - z^2)) = 16% at z = 0.5.
        x = 0; v = 0
        var peak = 0.0
        for _ in 0..<120 { Spring.mesh.step(position: &x, velocity: &v, target: 10, dt: 1.0 / 60); peak = max(peak, x) }
        XCTAssertEqual(peak, 11.63, accuracy: 0.4)
    }
}
