/// SplitMix64: a tiny, fast, well-mixed generator. Scenes and tests draw all
/// their randomness from it, so a frame is a pure function of its seed, and
/// the same seed gives the same numbers on every platform (unlike
/// `SystemRandomNumberGenerator`, which cannot be seeded).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1), from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A uniform Double in the half-open range (`unit()` never returns 1).
    public mutating func uniform(_ range: Range<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A uniform integer in the closed range (Lemire's unbiased method, via
    /// the standard library's `random(in:using:)`).
    public mutating func integer(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A uniform integer in 0..<n without modulo bias worth speaking of
    /// (n is at most a few thousand in the harness; Lemire's multiply-shift).
    public mutating func below(_ n: Int) -> Int {
        Int((UInt64(n).multipliedFullWidth(by: next())).high)
    }

    /// A fair coin.
    public mutating func coin() -> Bool { next() >> 63 == 1 }

    /// A random premultiplied colour; `opaque` forces alpha 255.
    public mutating func color(opaque: Bool = false) -> Color {
        Color(straightR: UInt8(truncatingIfNeeded: next()), g: UInt8(truncatingIfNeeded: next()),
              b: UInt8(truncatingIfNeeded: next()), a: opaque ? 255 : UInt8(truncatingIfNeeded: next()))
    }

    /// An image of random premultiplied pixels (each channel <= alpha).
    public mutating func image(width: Int, height: Int, stride: Int? = nil) throws -> Image {
        let image = try Image(width: width, height: height, stride: stride)
        for y in 0..<height {
            let row = image.view.row(y)
            for x in 0..<width {
                let a = UInt8(truncatingIfNeeded: next())
                row[4 * x + 3] = a
                for c in 0..<3 { row[4 * x + c] = a == 0 ? 0 : UInt8(next() % (UInt64(a) + 1)) }
            }
        }
        return image
    }
}
