/// One premultiplied RGBA8 pixel as stored in an `Image`.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    public var r, g, b, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
    public static let transparent = RGBA8(r: 0, g: 0, b: 0, a: 0)

    /// The four bytes as one little-endian word, for filling rows.
    public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
    public var description: String { "(\(r), \(g), \(b), \(a))" }
}

/// A premultiplied colour in 8-bit units (0...255) kept in floating point.
///
/// Job files give straight-alpha 8-bit colours; premultiplying them exactly
/// (r * a / 255, unrounded) keeps the reference and every backend on the same
/// input, so the only differences left are the kernels' own arithmetic.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r, g, b, a: Double

    public init(premultipliedR r: Double, g: Double, b: Double, a: Double) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// From straight (non-premultiplied) 8-bit components.
    public init(straightR r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        let k = Double(a) / 255
        self.init(premultipliedR: Double(r) * k, g: Double(g) * k, b: Double(b) * k, a: Double(a))
    }

    public static let transparent = Color(premultipliedR: 0, g: 0, b: 0, a: 0)

    /// Parses `#RRGGBB` or `#RRGGBBAA` (straight alpha).
    public init(hex: String) throws {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard hex.hasPrefix("#"), digits.count == 6 || digits.count == 8,
              digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            throw RasterError.invalidArgument(name: "color", value: "\"\(hex)\"", accepted: "#RRGGBB or #RRGGBBAA")
        }
        let v = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(straightR: UInt8(v >> 24), g: UInt8(v >> 16 & 0xFF), b: UInt8(v >> 8 & 0xFF), a: UInt8(v & 0xFF))
    }

    /// Components as a Float vector (r, g, b, a), as the backends use them.
    public var simd: SIMD4<Float> { SIMD4(Float(r), Float(g), Float(b), Float(a)) }
    public var components: SIMD4<Double> { SIMD4(r, g, b, a) }

    public var isOpaque: Bool { a >= 255 }

    /// Rounded to the stored 8-bit form (nearest, ties away from zero).
    public var rgba8: RGBA8 {
        RGBA8(r: Color.quantize(r), g: Color.quantize(g), b: Color.quantize(b), a: Color.quantize(a))
    }

    /// docs/contract.md §1: round to nearest, ties away from zero, clamped to 0...255.
    @inlinable
    public static func quantize(_ v: Double) -> UInt8 {
        UInt8(Swift.min(255, Swift.max(0, v)).rounded(.toNearestOrAwayFromZero))
    }

    public var description: String {
        let s = rgba8
        return "premultiplied(\(s.r), \(s.g), \(s.b), \(s.a))"
    }
}
