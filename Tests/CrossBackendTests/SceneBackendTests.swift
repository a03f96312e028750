import RasterKit
import RasterReference
import XCTest

/// Each scene's frame on every backend and thread count against the
/// reference render of the same job (exact variants), within the bound of
/// the kernels it runs (docs/contract.md §3), and byte-identical across thread
/// counts. Drawn at a tenth of iphone-6 so the double reference stays quick.
final class SceneBackendTests: XCTestCase {
    let canvas = try! SceneCanvas(width: 75, height: 133, scale: 0.2, fps: 60)

    /// The loosest exact bound among a scene's kernels.
    static let bounds: [String: Tolerance] = [
        "telegram": .exactGradient,
        "aurora": Tolerance(maxError: 2, meanError: 0.05),
        "liquid": Tolerance(maxError: 2, meanError: 0.05),
        "morph": Tolerance(maxError: 2, meanError: 0.05),
        // K7: max 3 outside the pixels within 1 px of the boundary or a fold.
        "mesh": Tolerance(maxError: 3),
    ]

    func check(_ name: String, frames: [Int], options: SceneOptions = SceneOptions()) throws {
        let scene = try SceneCatalog.make(name, options: options, canvas: canvas)
        let tolerance = try XCTUnwrap(Self.bounds[name])
        for f in frames {
            let job = try scene.job(frame: f)
            let reference = try Reference.render(job)
            let excluded = Reference.exclusion(job)
            var perKind: [BackendKind: [UInt8]] = [:]
            for backend in backendMatrix {
                let image = try Renderer(backend: backend).render(job)
                let d = ImageDiff(image.view, reference: reference, excluding: excluded)
                XCTAssert(tolerance.accepts(d), "\(name) frame \(f) on \(label(backend)): \(d) breaks \(tolerance)")
                if let first = perKind[backend.kind] {
                    XCTAssertEqual(image.packedBytes, first, "\(name) frame \(f): \(label(backend)) differs from 1 thread")
                } else {
                    perKind[backend.kind] = image.packedBytes
                }
            }
        }
    }

    func testTelegram() throws {
        try check("telegram", frames: [0, 140])
        try check("telegram", frames: [95], options: SceneOptions(style: .contest))
    }
    func testAurora() throws {
        try check("aurora", frames: [0, 1050])
        try check("aurora", frames: [300], options: SceneOptions(theme: .dark))
        try check("aurora", frames: [7], options: SceneOptions(mode: .reduceTransparency))
    }
    func testMesh() throws {
        try check("mesh", frames: [0, 175, 599])
        try check("mesh", frames: [300], options: SceneOptions(seed: 2))
    }
    func testLiquid() throws { try check("liquid", frames: [0, 105, 359]) }
    func testMorph() throws { try check("morph", frames: [0, 45, 105, 200]) }

    /// A reduced render scale resamples with the backends' `resample`: every
    /// backend gives the same image as the reference's resampling of the
    /// reference's small frame within the scene's bound plus the resampler's 1.
    func testRenderScaleOnEveryBackend() throws {
        let scene = try SceneCatalog.make("morph", canvas: canvas)
        let job = try scene.job(frame: 50)
        let small = try job.scaled(toWidth: 38, height: 67)
        let smallImage = try Image(width: 38, height: 67)
        Reference.store(try Reference.render(small), into: smallImage.view)
        let reference = Reference.resample(smallImage.view, width: 75, height: 133)
        for backend in backendMatrix {
            let image = try Renderer(backend: backend, scale: 0.5).render(job)
            assertWithin(Tolerance(maxError: 3, meanError: 0.2), image.view, reference, "morph @0.5 on \(label(backend))")
        }
    }
}
