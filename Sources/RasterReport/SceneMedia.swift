import Foundation
import RasterHarness
import RasterKit

/// A scene rendered for the page by RasterKit itself: one frame as a PNG and
/// the whole cycle (or span) as a short animated WebP, both small, both
/// embedded as base64 data URIs so the page needs no other file.
struct SceneMedia {
    var scene: String
    var width: Int
    var height: Int
    var framePNG: Data
    var frameIndex: Int
    var animationWebP: Data
    var animationFrames: [Int]
    var animationFPS: Double

    /// Width of the embedded pictures; the height keeps the profile's aspect.
    static let width = 200
    /// Frames in an animation: the cycle is sampled evenly, so every scene
    /// shows all of its motion in `animationFrames / animationFPS` seconds.
    static let animationFrameCount = 40
    static let animationFPS = 10.0

    static func render(scene name: String, profile: DeviceProfile, width: Int = SceneMedia.width,
                       frameCount: Int = animationFrameCount) throws -> SceneMedia {
        let w = max(16, width)
        let h = max(1, Int((Double(profile.height) * Double(w) / Double(profile.width)).rounded()))
        // Points scale with the width, as `render --size` does: the picture is the profile's frame, smaller.
        let canvas = try SceneCanvas(width: w, height: h, scale: profile.scale * Double(w) / Double(profile.width), fps: profile.fps)
        let scene = try SceneCatalog.make(name, canvas: canvas)
        let info = type(of: scene).info
        let renderer = Renderer(backend: try BackendKind.simd.make(threads: 2))
        let image = try Image(width: w, height: h)

        let frameIndex = info.cycle / 3
        try renderer.render(scene.job(frame: frameIndex), into: image)
        let png = try ImageFile.encodePNG(image.view)

        let frames = type(of: scene).spreadFrames(max(1, frameCount))
        let tmp = FileManager.default.temporaryDirectory
            .appendingPathComponent("rasterbench-report-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let writer = try AnimatedWebPWriter(url: tmp, width: w, height: h, fps: animationFPS)
        for f in frames {
            try renderer.render(scene.job(frame: f), into: image)
            try writer.add(image.view)
        }
        _ = try writer.finish()
        let webp = try Data(contentsOf: tmp)
        return SceneMedia(scene: name, width: w, height: h, framePNG: png, frameIndex: frameIndex,
                          animationWebP: webp, animationFrames: frames, animationFPS: animationFPS)
    }

    var pngURI: String { "data:image/png;base64," + framePNG.base64EncodedString() }
    var webpURI: String { "data:image/webp;base64," + animationWebP.base64EncodedString() }
}
