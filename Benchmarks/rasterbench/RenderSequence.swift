import Foundation
import RasterKit

extension Render {
    /// Frames to a folder of numbered PNGs (output ends in `/` or names a
    /// folder) or to an animated WebP (output ends in `.webp`).
    static func writeSequence(_ scene: any Scene, frames: [Int], step: Int, renderer: Renderer, output: String?) throws {
        guard let output, !output.isEmpty else {
            throw RasterError.invalidArgument(name: "-o", value: "missing", accepted: "a folder ending in / or a .webp file")
        }
        let image = try Image(width: scene.canvas.width, height: scene.canvas.height)
        let url = URL(fileURLWithPath: output)
        if url.pathExtension.lowercased() == "webp" {
            throw RasterError.unsupported(backend: "render", kernel: "animated WebP", variant: "not built yet")
        }
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir)
        guard output.hasSuffix("/") || (exists && isDir.boolValue) else {
            throw RasterError.invalidArgument(name: "-o", value: "'\(Console.escaped(output))'",
                                              accepted: "a folder ending in / (numbered PNGs) or a .webp file")
        }
        let digits = String(frames.last ?? 0).count
        for f in frames {
            try renderer.render(scene.job(frame: f), into: image)
            let name = "frame-" + String(repeating: "0", count: max(0, digits - String(f).count)) + "\(f).png"
            try ImageFile.write(image.view, to: url.appendingPathComponent(name))
        }
        print("wrote \(frames.count) frames to \(url.path)/")
    }

    static func writeSheet(_ scene: any Scene, frames: [Int], renderer: Renderer, to out: URL) throws {
        throw RasterError.unsupported(backend: "render", kernel: "contact sheet", variant: "not built yet")
    }
}
