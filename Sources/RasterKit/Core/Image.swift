import CRasterOMP

/// The canonical image: premultiplied RGBA8, row-major, `stride >= width * 4`
/// bytes per row. It owns its (64-byte aligned) buffer; kernels work on an
/// `ImageView` of it so they can also write into rows of a larger buffer.
///
/// A class, not a struct: frames are reused across an animation, and a
/// copy-on-write array would hide accidental copies inside timed loops.
public final class Image: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    public let pixels: UnsafeMutablePointer<UInt8>
    private let byteCount: Int

    /// Cache-line alignment lets vector loads of the first pixel of a row
    /// avoid line splits when the stride is a multiple of 64.
    public static let alignment = 64

    /// The largest canvas accepted: 2^15 on a side keeps every byte offset
    /// and every pixel coordinate exactly representable in Int32 and Float.
    public static let maxDimension = Int(RASTER_MAX_DIMENSION)

    public init(width: Int, height: Int, stride: Int? = nil) throws {
        try Image.validate(width: width, height: height)
        let minStride = width * 4
        let stride = stride ?? minStride
        // Rows start on 4-byte boundaries so kernels may read a pixel as one word.
        guard stride >= minStride, stride <= Image.maxDimension * 16, stride % 4 == 0 else {
            throw RasterError.invalidArgument(
                name: "stride", value: "\(stride)",
                accepted: "a multiple of 4 in \(minStride)...\(Image.maxDimension * 16) bytes")
        }
        self.width = width
        self.height = height
        self.stride = stride
        self.byteCount = stride * height
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: Image.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
        self.pixels = raw.assumingMemoryBound(to: UInt8.self)
    }

    deinit { UnsafeMutableRawPointer(pixels).deallocate() }

    /// Checks a canvas size: positive, and small enough that `width * height
    /// * 4` cannot overflow anything downstream.
    public static func validate(width: Int, height: Int, name: String = "size") throws {
        guard width > 0, height > 0, width <= maxDimension, height <= maxDimension else {
            throw RasterError.invalidArgument(
                name: name, value: "\(width)x\(height)", accepted: "1...\(maxDimension) pixels on each side")
        }
    }

    public var view: ImageView { ImageView(base: pixels, width: width, height: height, stride: stride) }

    /// Fills every pixel (not the padding) with one premultiplied colour.
    public func fill(_ color: RGBA8) { view.fill(color) }

    /// The pixel bytes without row padding, for comparisons and files.
    public var packedBytes: [UInt8] { view.packedBytes }

    public subscript(x: Int, y: Int) -> RGBA8 { view[x, y] }
}

/// A window onto premultiplied RGBA8 pixels owned by someone else. Kernels
/// take views so callers choose the storage (an `Image`, a sub-rectangle, a
/// row band handed to one thread).
public struct ImageView: @unchecked Sendable {
    public let base: UnsafeMutablePointer<UInt8>
    public let width: Int
    public let height: Int
    public let stride: Int

    public init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width * 4 && stride % 4 == 0)
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }

    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            let p = row(y) + 4 * x
            return RGBA8(r: p[0], g: p[1], b: p[2], a: p[3])
        }
        nonmutating set {
            let p = row(y) + 4 * x
            p[0] = newValue.r; p[1] = newValue.g; p[2] = newValue.b; p[3] = newValue.a
        }
    }

    public func fill(_ color: RGBA8) {
        let word = color.packed
        for y in 0..<height {
            UnsafeMutableRawPointer(row(y)).withMemoryRebound(to: UInt32.self, capacity: width) {
                $0.update(repeating: word, count: width)
            }
        }
    }

    /// Copies pixels from a view of the same size (rows may have other strides).
    public func copy(from source: ImageView) {
        precondition(source.width == width && source.height == height)
        for y in 0..<height { row(y).update(from: source.row(y), count: width * 4) }
    }

    public var packedBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height { (dst.baseAddress! + y * width * 4).update(from: row(y), count: width * 4) }
        }
        return out
    }
}
