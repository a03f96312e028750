/// Swift `SIMD` vectors across x, row bands across threads.
///
/// Lanes are `SIMD8<Float>`: one AVX2 register, two NEON registers (what
/// the lane helpers compile to is the note in `Wide/Lanes.swift`). The
/// pack to RGBA8 avoids the generic Float-to-integer vector conversion
/// (which lowers to a per-lane library call on this toolchain) in favour
/// of the magic-number trick in `Lanes.quantize`.
public struct SIMDBackend: RasterBackend {
    public let kind = BackendKind.simd
    public let threads: Int
    public init(threads: Int = 1) { self.threads = max(1, threads) }
}
