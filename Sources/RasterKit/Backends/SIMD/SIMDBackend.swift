/// Swift `SIMD` vectors across x, row bands across threads.
///
/// Lanes are `SIMD16<Float>`: on AVX2 LLVM lowers one to two 8-lane
/// registers, on AVX-512 to one, and on NEON to four, so one source fits the
/// common targets. The pack to RGBA8 avoids the generic Float-to-integer
/// vector conversion (which lowers to a per-lane library call on this
/// toolchain) in favour of the magic-number trick in `Lanes.packRGBA8`.
public struct SIMDBackend: RasterBackend {
    public let kind = BackendKind.simd
    public let threads: Int
    public init(threads: Int = 1) { self.threads = max(1, threads) }
}
