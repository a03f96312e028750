import CWebP
import Foundation
import RasterKit

/// An animated WebP read back through libwebpdemux's WebPAnimDecoder, for
/// the round-trip tests only (the library writes WebP, it never reads it).
struct DecodedAnimation {
    var width: Int
    var height: Int
    var loopCount: Int
    /// Fully composed canvases, premultiplied again (see `read`).
    var frames: [Image]
    /// When each frame ends, in ms (what WebPAnimDecoderGetNext reports).
    var endTimestamps: [Int]

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func read(_ url: URL) throws -> DecodedAnimation {
        let file = try Data(contentsOf: url)
        return try file.withUnsafeBytes { raw -> DecodedAnimation in
            var data = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw Failure(description: "ABI mismatch") }
            // Straight RGBA, as stored: premultiplying here with the same
            // rounding as ImageFile.readPNG lets the tests compare with the
            // premultiplied frames that went in.
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                throw Failure(description: "\(url.lastPathComponent) is not an animated WebP libwebp can read")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw Failure(description: "no info") }
            var result = DecodedAnimation(
                width: Int(info.canvas_width), height: Int(info.canvas_height),
                loopCount: Int(info.loop_count), frames: [], endTimestamps: [])
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                    throw Failure(description: "frame \(result.frames.count) does not decode")
                }
                let image = try Image(width: result.width, height: result.height)
                for i in 0..<(result.width * result.height) {
                    let a = UInt32(buffer[4 * i + 3])
                    for c in 0..<3 { image.pixels[4 * i + c] = UInt8((UInt32(buffer[4 * i + c]) * a + 127) / 255) }
                    image.pixels[4 * i + 3] = UInt8(a)
                }
                result.frames.append(image)
                result.endTimestamps.append(Int(timestamp))
            }
            guard result.frames.count == Int(info.frame_count) else {
                throw Failure(description: "\(result.frames.count) frames decoded, header says \(info.frame_count)")
            }
            return result
        }
    }
}
