import CWebP
import Foundation

/// Writes an animated WebP (libwebp's WebPAnimEncoder) from frames handed
/// over one at a time, so that a long animation is rendered and encoded
/// frame by frame and never held whole in memory.
///
/// Everything the file name and the sizes can tell is checked in the
/// initialiser, before the caller renders anything (docs/contract.md §10): the name ends
/// in `.webp`, its directory accepts new files, nothing but a regular file is
/// in the way, both sides are at most 16383 pixels (WebP's limit), the frame
/// rate is usable. Nothing is written until `finish()`, which writes the
/// whole file atomically (`AtomicFile`); an error at any point leaves no file.
///
/// Memory: WebPAnimEncoderAdd copies the frame into a canvas of its own
/// before it returns (that is why one `WebPPicture` here is refilled for
/// every frame), and keeps besides only the previous canvas (plus a
/// "disposed" copy of it) and compressed bytes; with key-frame insertion
/// disabled, libwebp's default, at most two encoded candidates are pending
/// at a time. So a writer costs about four canvases plus the compressed
/// output, whatever the number of frames, and it keeps no copy of a frame.
/// Measured (375x667 frames, 1 MB each, debug test process): peak RSS
/// 124.5 MB after 20 lossy frames and 124.8 MB after 200; lossless 124.7 MB
/// after 20 and 124.5 MB after 100.
///
/// Frames are premultiplied RGBA8 (`ImageView`); WebP stores straight alpha,
/// so each is un-premultiplied with the PNG writer's rounding
/// (`ImageFile.straight`) on its way into the encoder's ARGB picture.
public final class AnimatedWebPWriter {
    /// How frames are compressed.
    public enum Compression: Equatable, Sendable, CustomStringConvertible {
        /// Pixels survive exactly (within the straight-alpha precision the PNG
        /// writer has too).
        case lossless
        /// VP8 colour at `quality` (0...100) with a lossless alpha plane.
        case lossy(quality: Float)

        /// The default, measured on a 375x667, 30-frame animated freeform
        /// gradient (the telegram background's kind of frame), release build,
        /// effort 4, one run on this (busy, 2-core) host, each median of 3:
        ///   lossless  1240 kB  7.9 s  exact
        ///   lossy q90  108 kB  1.4 s  49.9 dB, max error 8
        ///   lossy q85   75 kB  2.1 s  49.6 dB, max error 8
        ///   lossy q75   58 kB  1.6 s  48.7 dB, max error 12
        /// (lossy times are within the host's noise of each other; lossless
        /// took 3.7 s in a quieter run against 0.5-1.5 s for lossy.)
        /// Smooth gradients are the worst case for a lossless coder
        /// (neighbours differ by a little everywhere) and the best for VP8,
        /// and lossy quality saturates near 50 dB (8-bit YUV 4:2:0): q90
        /// buys 0.3 dB over q85 for 43% more bytes, q75 saves 23% for 0.9 dB
        /// and a larger worst pixel. So q85; `.lossless` is for checking
        /// pixels, not for showing them.
        public static let standard = Compression.lossy(quality: 85)

        public var description: String {
            switch self {
            case .lossless: return "lossless"
            case let .lossy(quality): return "lossy q\(quality)"
            }
        }
    }

    /// WebP's largest frame side (WEBP_MAX_DIMENSION).
    public static let maxDimension = Int(WEBP_MAX_DIMENSION)
    /// Frame rates accepted: each frame lasts at least 1 ms (WebP's unit)
    /// and at most 1000 s (the format allows 16777 s).
    public static let fpsRange: ClosedRange<Double> = 0.001...1000

    public let url: URL
    public let width: Int
    public let height: Int
    public let fps: Double
    public let compression: Compression
    /// Frames added so far.
    public private(set) var frameCount = 0

    private var encoder: OpaquePointer?
    /// The one ARGB picture every frame passes through (see "Memory" above).
    private let picture: UnsafeMutablePointer<WebPPicture>
    private let config: UnsafeMutablePointer<WebPConfig>
    private var pictureAllocated = false
    /// Set once `finish()` has run or libwebp failed: the encoder is spent.
    private var closed = false

    /// Checks the output path and the parameters and sets up the encoder;
    /// throws before any frame exists if the animation could not be written.
    ///
    /// - Parameters:
    ///   - effort: libwebp's `method`, 0 (fast) ... 6 (smallest); 4 is its default.
    public init(url: URL, width: Int, height: Int, fps: Double,
                compression: Compression = .standard, effort: Int = 4) throws {
        // Sizes first: they name the output, and refusing them costs nothing.
        guard width > 0, height > 0, width <= Self.maxDimension, height <= Self.maxDimension else {
            throw RasterError.invalidArgument(
                name: "size of \(url.lastPathComponent)", value: "\(width)x\(height)",
                accepted: "1...\(Self.maxDimension) pixels on each side (WebP's limit)")
        }
        guard fps.isFinite, Self.fpsRange.contains(fps) else {
            throw RasterError.invalidArgument(
                name: "fps", value: "\(fps)",
                accepted: "\(Self.fpsRange.lowerBound)...\(Int(Self.fpsRange.upperBound)) frames per second")
        }
        if case let .lossy(quality) = compression, !(quality.isFinite && (0...100).contains(quality)) {
            throw RasterError.invalidArgument(name: "WebP quality", value: "\(quality)", accepted: "0...100")
        }
        guard (0...6).contains(effort) else {
            throw RasterError.invalidArgument(name: "WebP effort", value: "\(effort)", accepted: "0...6")
        }
        try OutputPath.checkFile(url, extensions: ["webp"])

        self.url = url
        self.width = width
        self.height = height
        self.fps = fps
        self.compression = compression
        picture = .allocate(capacity: 1)
        config = .allocate(capacity: 1)

        guard WebPConfigInit(config) != 0, WebPPictureInit(picture) != 0 else {
            throw libwebp("the installed libwebp does not match the headers (ABI version)")
        }
        switch compression {
        case .lossless:
            config.pointee.lossless = 1
            // In lossless mode `quality` is effort, not fidelity; 75 is cwebp's default.
            config.pointee.quality = 75
            // Keep RGB under fully transparent pixels as given. Ours are 0
            // already (un-premultiplying a = 0 gives 0), so this costs nothing
            // and makes "lossless" mean the decoded bytes are the input's.
            config.pointee.exact = 1
        case let .lossy(quality):
            config.pointee.lossless = 0
            config.pointee.quality = quality
        }
        config.pointee.method = Int32(effort)
        // The alpha plane of a lossy frame is coded losslessly (this is the
        // default; said here because translucent scenes rely on it).
        config.pointee.alpha_quality = 100
        guard WebPValidateConfig(config) != 0 else { throw libwebp("rejects the encoder settings \(compression)") }

        picture.pointee.use_argb = 1
        picture.pointee.width = Int32(width)
        picture.pointee.height = Int32(height)
        guard WebPPictureAlloc(picture) != 0 else {
            throw libwebp("cannot allocate a \(width)x\(height) frame (out of memory)")
        }
        pictureAllocated = true

        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else {
            throw libwebp("the installed libwebpmux does not match the headers (ABI version)")
        }
        options.anim_params.loop_count = 0 // loop forever
        options.anim_params.bgcolor = 0    // transparent, like a fresh canvas (a hint; players mostly ignore it)
        options.allow_mixed = 0
        if case .lossy = compression {
            // Every lossy frame a key frame. With libwebp's default (only the
            // first), a lossy sub-frame leaves out every pixel within a small
            // tolerance (3 units at q90) of the previous *input* frame and
            // shows the previous *decoded* one there, so on a background that
            // moves slowly everywhere the error builds up frame after frame:
            // measured at q90 on the animation of `Compression.standard`,
            // 49.8 dB (max error 6) on frame 0 down to 38.2 dB (max 33) on
            // frame 29. Key frames cannot drift (q85: 49.6 dB, max 8, over all
            // frames) and cost 75 kB against 78 kB for q90 sub-frames.
            // Lossless sub-frames compare exactly, so they keep the default.
            options.kmin = 0
            options.kmax = 1
        }
        // Either way at most two encoded frames are pending (see "Memory").
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw libwebp("cannot create an animation encoder for \(width)x\(height)")
        }
        self.encoder = encoder
    }

    deinit {
        if let encoder { WebPAnimEncoderDelete(encoder) }
        if pictureAllocated { WebPPictureFree(picture) }
        picture.deallocate()
        config.deallocate()
    }

    /// The start of frame `index` in milliseconds: round(index * 1000 / fps).
    /// Rounding each start (rather than each duration) keeps the animation
    /// on time: at 30 fps frames last 33 or 34 ms, 1000 ms per 30 frames.
    public func timestamp(ofFrame index: Int) -> Int {
        Int((Double(index) * 1000 / fps).rounded())
    }

    /// Encodes the next frame (premultiplied RGBA8 of the animation's size).
    /// libwebp merges a frame into the previous one (one longer frame, same
    /// total time) when no pixel differs from it by more than its tolerance:
    /// 0 when lossless, a few units when lossy (3 at q85, compared against
    /// the last frame kept, so the error it adds stays that small; the test
    /// of a slow animation measures it). The file may so hold fewer frames
    /// than were added; a single frame is written as a still WebP.
    public func add(_ frame: ImageView) throws {
        guard let encoder, !closed else {
            throw RasterError.io(path: url.path, reason: "animation already finished or failed; cannot add frames")
        }
        guard frame.width == width, frame.height == height else {
            throw RasterError.invalidArgument(
                name: "size of frame \(frameCount) of \(url.lastPathComponent)", value: "\(frame.width)x\(frame.height)",
                accepted: "\(width)x\(height), the animation's size")
        }
        let start = timestamp(ofFrame: frameCount)
        // The end of this frame must be representable too (finish() uses it).
        guard timestamp(ofFrame: frameCount + 1) <= Int(Int32.max) else {
            throw RasterError.invalidArgument(
                name: "frame count of \(url.lastPathComponent)", value: "\(frameCount + 1) at \(fps) fps",
                accepted: "an animation shorter than \(Int32.max) ms")
        }
        fillPicture(from: frame)
        guard WebPAnimEncoderAdd(encoder, picture, Int32(start), config) != 0 else {
            closed = true
            throw libwebp("cannot encode frame \(frameCount) (\(encoderError(encoder)))")
        }
        frameCount += 1
    }

    /// Assembles the animation and writes it atomically. Returns the file's
    /// size in bytes. The writer is spent afterwards.
    @discardableResult
    public func finish() throws -> Int {
        guard let encoder, !closed else {
            throw RasterError.io(path: url.path, reason: "animation already finished or failed")
        }
        closed = true
        guard frameCount > 0 else {
            throw RasterError.invalidArgument(name: "frames of \(url.lastPathComponent)", value: "none", accepted: "at least one frame")
        }
        // A last, empty frame marks when the last real frame ends.
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp(ofFrame: frameCount)), nil) != 0 else {
            throw libwebp("cannot end the animation (\(encoderError(encoder)))")
        }
        var data = WebPData()
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw libwebp("cannot assemble the animation (\(encoderError(encoder)))")
        }
        // The encoder's canvases are no longer needed; free them before the write.
        WebPAnimEncoderDelete(encoder)
        self.encoder = nil
        let size = data.size
        try AtomicFile.write(
            Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: size, deallocator: .none), to: url)
        return size
    }

    /// Un-premultiplies `frame` into the ARGB words (0xAARRGGBB) of `picture`.
    private func fillPicture(from frame: ImageView) {
        let argb = picture.pointee.argb!
        let stride = Int(picture.pointee.argb_stride)
        for y in 0..<height {
            let src = frame.row(y)
            let dst = argb + y * stride
            for x in 0..<width {
                let p = src + 4 * x
                let a = UInt32(p[3])
                var r = p[0], g = p[1], b = p[2]
                // Opaque pixels (most of a background) need no division.
                if a != 255 {
                    if a == 0 {
                        r = 0; g = 0; b = 0
                    } else {
                        r = ImageFile.straight(r, alpha: a)
                        g = ImageFile.straight(g, alpha: a)
                        b = ImageFile.straight(b, alpha: a)
                    }
                }
                dst[x] = a << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            }
        }
    }

    private func encoderError(_ encoder: OpaquePointer) -> String {
        guard let s = WebPAnimEncoderGetError(encoder), s.pointee != 0 else { return "no detail" }
        return String(cString: s)
    }

    private func libwebp(_ what: String) -> RasterError {
        RasterError.io(path: url.path, reason: "libwebp " + what)
    }
}
