import Foundation
import RasterHarness
import RasterKit

extension Render {
    /// `--webp-quality`: nil (the writer's default), "lossless" or 0...100.
    static func webpCompression(_ text: String?) throws -> AnimatedWebPWriter.Compression? {
        guard let text else { return nil }
        if text == "lossless" { return .lossless }
        guard let q = Float(text), q.isFinite, (0...100).contains(q) else {
            throw RasterError.invalidArgument(name: "--webp-quality", value: "'\(Console.escaped(text))'", accepted: "0...100 or lossless")
        }
        return .lossy(quality: q)
    }

    /// Frames to a folder of numbered PNGs (output ends in `/` or names a
    /// folder) or to an animated WebP (output ends in `.webp`, without a
    /// trailing `/`: `x.webp/` is a folder by its spelling). The writer is
    /// created, and with it the output checked, before the first frame is
    /// rendered; a failure part-way leaves the folder as it was.
    static func writeSequence(_ scene: any Scene, frames: [Int], step: Int, renderer: Renderer, output: String?,
                              compression: AnimatedWebPWriter.Compression?) throws {
        if output?.isEmpty == true {
            throw RasterError.invalidArgument(name: "--output (-o)", value: "an empty path", accepted: "a folder ending in / or a .webp file")
        }
        guard let output, let first = frames.first, let last = frames.last else {
            throw RasterError.invalidArgument(name: "--output (-o)", value: "missing", accepted: "a folder ending in / or a .webp file")
        }
        // Checked at the render scale before the canvas is allocated (a
        // scene's frames all have its canvas and the same ops).
        try renderer.checkMemory(try scene.job(frame: first))
        let image = try Image(width: scene.canvas.width, height: scene.canvas.height)
        let url = URL(fileURLWithPath: output)
        let folder = output.hasSuffix("/")
        if !folder && url.pathExtension.lowercased() == "webp" {
            let writer = try AnimatedWebPWriter(url: url, width: image.width, height: image.height,
                                                fps: scene.canvas.fps / Double(step), compression: compression ?? .standard)
            for f in frames {
                try renderer.render(scene.job(frame: f), into: image)
                try writer.add(image.view)
            }
            let bytes = try writer.finish()
            print("wrote \(url.path) (\(frames.count) frames \(first)...\(last), \(image.width)x\(image.height) at \(Human.number(scene.canvas.fps / Double(step))) fps, \(writer.compression), \(bytes / 1024) KiB)")
            return
        }
        guard compression == nil else {
            throw RasterError.invalidArgument(name: "--webp-quality", value: "with PNG frames", accepted: "only with a .webp output")
        }
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir)
        guard folder || (exists && isDir.boolValue) else {
            throw RasterError.invalidArgument(name: "--output", value: "'\(Console.escaped(output))'",
                                              accepted: "a folder ending in / (numbered PNGs) or a .webp file")
        }
        try ImageFile.checkCanvas(width: image.width, height: image.height, for: url.appendingPathComponent("frame.png"))
        let writer = try FrameSequenceWriter(directory: url, frames: first...last)
        do {
            for f in frames {
                try renderer.render(scene.job(frame: f), into: image)
                try writer.write(image.view, index: f)
            }
            try writer.commit()
        } catch {
            writer.discard()
            throw error
        }
        print("wrote \(frames.count) frames to \(url.path)/ (\(writer.url(forFrame: first).lastPathComponent) ...)")
    }

    /// Thumbnail width on a contact sheet: a quarter of the frame, at least 64 px.
    static func thumbnailWidth(_ frameWidth: Int) -> Int { min(frameWidth, max(64, frameWidth / 4)) }

    static func writeSheet(_ scene: any Scene, frames: [Int], renderer: Renderer, to out: URL) throws {
        if let first = frames.first { try renderer.checkMemory(try scene.job(frame: first)) }
        let image = try Image(width: scene.canvas.width, height: scene.canvas.height)
        let layout = try ContactSheet.Layout(frameCount: frames.count, frameWidth: image.width, frameHeight: image.height,
                                             thumbnailWidth: thumbnailWidth(image.width))
        let sheet = try ContactSheet(layout: layout)
        for f in frames {
            try renderer.render(scene.job(frame: f), into: image)
            try sheet.add(image.view)
        }
        try ImageFile.write(sheet.image.view, to: out)
        print("wrote \(out.path) (\(frames.count) frames of \(type(of: scene).info.name): \(frames.map(String.init).joined(separator: ", ")); \(layout.width)x\(layout.height))")
    }
}
