import CPNG
import CPNGRead
import Foundation

/// Image files: PNG (straight alpha; written through libpng's simplified
/// API, read through its classic one, see CPNGRead) and
/// `.rgba` (the raw premultiplied bytes of the canvas, row-major, no header).
public enum ImageFile {
    public enum Format: String, CaseIterable, Sendable {
        case png, rgba

        public init(url: URL) throws {
            guard let f = Format(rawValue: url.pathExtension.lowercased()) else {
                throw RasterError.invalidArgument(
                    name: "output file", value: "'\(url.lastPathComponent)'", accepted: "a .png or .rgba file name")
            }
            self = f
        }
    }

    /// Reads a PNG or `.rgba` file that must be `width` x `height`.
    public static func read(_ url: URL, width: Int, height: Int) throws -> Image {
        switch try Format(url: url) {
        case .rgba:
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw RasterError.io(path: url.path, reason: "cannot read")
            }
            guard data.count == width * height * 4 else {
                throw RasterError.io(path: url.path,
                    reason: "\(data.count) bytes, but a \(width)x\(height) canvas needs \(width * height * 4)")
            }
            let image = try Image(width: width, height: height)
            data.withUnsafeBytes { image.pixels.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: data.count) }
            return image
        case .png:
            return try readPNG(url, expecting: (width, height))
        }
    }

    /// Reads any PNG into a premultiplied image of its own size: every bit
    /// depth, grey, palette, alpha and interlaced files, samples as their
    /// encoded values (16-bit v becomes round(v / 257); CPNGRead says why
    /// not libpng's simplified reader). The header is read first, so a
    /// size no `Image` can hold is refused before anything is decoded.
    /// With `expecting`, a file of another size is refused from its header.
    public static func readPNG(_ url: URL, expecting size: (width: Int, height: Int)? = nil) throws -> Image {
        var message = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0, height: UInt32 = 0
        guard let reader = cpng_reader_open(url.path, &width, &height, &message, message.count) else {
            throw RasterError.io(path: url.path, reason: "not a readable PNG (\(text(message)))")
        }
        defer { cpng_reader_close(reader) }
        if let size, size.width != Int(width) || size.height != Int(height) {
            throw RasterError.io(path: url.path, reason: "is \(width)x\(height), the canvas is \(size.width)x\(size.height)")
        }
        let image = try Image(width: Int(width), height: Int(height))
        guard cpng_reader_read_rgba8(reader, image.pixels, image.stride, &message, message.count) == 0 else {
            throw RasterError.io(path: url.path, reason: "corrupt PNG (\(text(message)))")
        }
        premultiply(image.view)
        return image
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes PNG (un-premultiplied to straight alpha) or raw `.rgba`,
    /// atomically, choosing the format from the file extension.
    public static func write(_ view: ImageView, to url: URL) throws {
        switch try Format(url: url) {
        case .rgba:
            try AtomicFile.write(Data(view.packedBytes), to: url)
        case .png:
            try AtomicFile.write(try encodePNG(view), to: url)
        }
    }

    public static func encodePNG(_ view: ImageView) throws -> Data {
        var straight = view.packedBytes
        unpremultiply(&straight)
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(view.width)
        png.height = UInt32(view.height)
        png.format = cpng_format_rgba
        var size = 0
        // First call measures, second writes.
        guard png_image_write_to_memory(&png, nil, &size, 0, straight, Int32(view.width * 4), nil) != 0 else {
            throw RasterError.io(path: "png", reason: "libpng cannot encode (\(message(png)))")
        }
        var data = Data(count: size)
        let ok = data.withUnsafeMutableBytes { buf in
            png_image_write_to_memory(&png, buf.baseAddress, &size, 0, straight, Int32(view.width * 4), nil)
        }
        guard ok != 0 else { throw RasterError.io(path: "png", reason: "libpng cannot encode (\(message(png)))") }
        return data.prefix(size)
    }

    private static func message(_ png: png_image) -> String {
        var m = png.message
        return withUnsafeBytes(of: &m) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }

    /// Straight to premultiplied, rounding to nearest.
    static func premultiply(_ view: ImageView) {
        for y in 0..<view.height {
            let p = view.row(y)
            for x in 0..<view.width {
                let a = UInt32(p[4 * x + 3])
                for c in 0..<3 { p[4 * x + c] = UInt8((UInt32(p[4 * x + c]) * a + 127) / 255) }
            }
        }
    }

    /// Premultiplied to straight, rounding to nearest; fully transparent
    /// pixels become (0, 0, 0, 0).
    static func unpremultiply(_ bytes: inout [UInt8]) {
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let a = UInt32(bytes[i + 3])
            guard a != 0 else { bytes[i] = 0; bytes[i + 1] = 0; bytes[i + 2] = 0; continue }
            for c in 0..<3 { bytes[i + c] = straight(bytes[i + c], alpha: a) }
        }
    }

    /// One premultiplied channel to straight alpha, rounding to nearest
    /// (`a` > 0). Shared by the PNG and the WebP writers.
    @inline(__always)
    static func straight(_ c: UInt8, alpha a: UInt32) -> UInt8 {
        UInt8(min(255, (UInt32(c) * 255 + a / 2) / a))
    }
}
