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

    /// Reads a PNG or `.rgba` file that must be `width` x `height`. Only a
    /// regular file is read (`InputFile`); its size is checked before any
    /// pixel is decoded: an `.rgba` file's byte count, a PNG's IHDR. A PNG
    /// file larger than `fileLimit` bytes is refused before it is read.
    public static func read(_ url: URL, width: Int, height: Int, fileLimit: Int? = nil) throws -> Image {
        let format = try Format(url: url)
        let shown = RasterError.escaped(url.path, limit: 120)
        switch format {
        case .rgba:
            let expected = width * height * 4
            let data = try InputFile.read(url.path, limit: expected)
            guard data.count == expected else {
                throw RasterError.io(path: shown,
                    reason: "\(data.count) bytes, but a \(width)x\(height) canvas needs \(expected)")
            }
            let image = try Image(width: width, height: height)
            data.withUnsafeBytes { image.pixels.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: data.count) }
            return image
        case .png:
            return try readPNG(url, expecting: (width, height), fileLimit: fileLimit)
        }
    }

    /// Reads any PNG into a premultiplied image of its own size: every bit
    /// depth, grey, palette, alpha and interlaced files, samples as their
    /// encoded values (16-bit v becomes round(v / 257); CPNGRead says why
    /// not libpng's simplified reader). Only a regular file is read
    /// (`InputFile`). The header is read first, so a size no `Image` can hold
    /// (`Image.maxDimension`) is refused before anything is decoded; with
    /// `expecting`, so is a file of another size. The whole file is held
    /// while it is decoded: a file larger than `fileLimit` bytes is refused
    /// before it is read.
    public static func readPNG(_ url: URL, expecting size: (width: Int, height: Int)? = nil,
                               fileLimit: Int? = nil) throws -> Image {
        let shown = RasterError.escaped(url.path, limit: 120)
        let data = try InputFile.read(url.path, limit: fileLimit)
        // The declared size, from the IHDR bytes themselves: libpng would
        // refuse an absurd one too, but in its words, not the size's.
        if let declared = pngHeaderSize(data) {
            guard (1...Image.maxDimension).contains(declared.width), (1...Image.maxDimension).contains(declared.height) else {
                throw RasterError.io(path: shown, reason:
                    "declares \(declared.width)x\(declared.height) pixels (accepted: 1...\(Image.maxDimension) on each side)")
            }
            if let size, size != declared {
                throw RasterError.io(path: shown, reason: "is \(declared.width)x\(declared.height), the canvas is \(size.width)x\(size.height)")
            }
        }
        var message = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0, height: UInt32 = 0
        let opened = data.withUnsafeBytes { buf in
            cpng_reader_open(buf.bindMemory(to: UInt8.self).baseAddress, buf.count, &width, &height, &message, message.count)
        }
        guard let reader = opened else {
            throw RasterError.io(path: shown, reason: "not a readable PNG (\(text(message)))")
        }
        defer { cpng_reader_close(reader) }
        guard (1...Image.maxDimension).contains(Int(width)), (1...Image.maxDimension).contains(Int(height)) else {
            throw RasterError.io(path: shown, reason:
                "declares \(width)x\(height) pixels (accepted: 1...\(Image.maxDimension) on each side)")
        }
        if let size, size.width != Int(width) || size.height != Int(height) {
            throw RasterError.io(path: shown, reason: "is \(width)x\(height), the canvas is \(size.width)x\(size.height)")
        }
        let image = try Image(width: Int(width), height: Int(height))
        guard cpng_reader_read_rgba8(reader, image.pixels, image.stride, &message, message.count) == 0 else {
            throw RasterError.io(path: shown, reason: "corrupt PNG (\(text(message)))")
        }
        premultiply(image.view)
        return image
    }

    /// Width and height from a PNG's IHDR chunk (the first 24 bytes), or nil
    /// if the bytes do not start like a PNG (libpng then says what is wrong).
    static func pngHeaderSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func u32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Refuses, before anything is rendered, a canvas the output format
    /// cannot hold: PNG through libpng at most 1,000,000 px a side (libpng's
    /// default user limit) and width*height*4 below 2^32 bytes (its simplified
    /// writer's row arithmetic); `.rgba` has no limit of its own. Names the
    /// output in the error.
    public static func checkCanvas(width: Int, height: Int, for url: URL) throws {
        switch try Format(url: url) {
        case .rgba: return
        case .png:
            guard width <= 1_000_000, height <= 1_000_000, width * height * 4 <= Int(UInt32.max) else {
                throw RasterError.invalidArgument(
                    name: "output '\(RasterError.escaped(url.lastPathComponent))'", value: "a \(width)x\(height) canvas",
                    accepted: "PNG up to 1000000 px a side and width*height*4 < 2^32 bytes (use .rgba for larger)")
            }
        }
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
