/// The 16-lane types (one AVX-512 register, two AVX2 ones) and their
/// helpers. K3, K4 and K5 use them; see `Lanes` for what they compile to.
typealias Float16Lanes = SIMD16<Float>
typealias Word16Lanes = SIMD16<UInt32>
/// The same 512 bits as 32 16-bit lanes, for `vpmullw` (only `&*` on them:
/// their shifts compile to per-lane code with Swift 6.3).
typealias Half32Lanes = SIMD32<UInt16>

/// Lane operations written in the forms this toolchain lowers to single
/// vector instructions. (`pointwiseMin`/`pointwiseMax`, `.clamped` and
/// `.min()` on SIMD16<Float> compile to per-lane loops through the stack
/// with Swift 6.3 -- checked with `-emit-assembly` -- while compare-and-
/// `replacing` becomes vcmpps + a masked move, or vminps/vmaxps.)
extension Lanes {
    /// 0, 1, 2, ... 15 (a literal, so it folds into a constant).
    @_transparent
    static var ramp16: Float16Lanes { Float16Lanes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }

    /// Small non-negative integers (< 2^23) to float via the magic number
    /// (the generic integer-to-float conversion is a per-lane call). The
    /// 8-lane overload has the same body; a single generic one would go
    /// through the generic SIMD operators, which compile to per-lane code.
    @_transparent
    static func toFloat(_ w: Word16Lanes) -> Float16Lanes {
        unsafeBitCast(w | magicBits, to: Float16Lanes.self) - magic
    }

    /// Whether every lane of `v` has the bit pattern of `value`. The
    /// standard library's `all(v .== w)` is `mask.max() < 0`, and its
    /// generic `max()` is a call to a per-lane loop (3.8% of a 750x1334
    /// blob fill under `perf record`; `objdump -d` showed the call in the
    /// fill's band loop); folding the XOR in halves is four vector ORs.
    @_transparent
    static func allEqual(_ v: Float16Lanes, _ value: Float) -> Bool {
        let x = unsafeBitCast(v, to: Word16Lanes.self) ^ value.bitPattern
        let x8 = x.lowHalf | x.highHalf
        let x4 = x8.lowHalf | x8.highHalf
        let x2 = x4.lowHalf | x4.highHalf
        return x2.x | x2.y == 0
    }

    /// min(a, b) lane-wise, `a` where `b` is NaN (compare-and-select).
    @_transparent
    static func minimum(_ a: Float16Lanes, _ b: Float16Lanes) -> Float16Lanes { a.replacing(with: b, where: b .< a) }
    /// max(a, b) lane-wise, `a` where `b` is NaN (compare-and-select).
    @_transparent
    static func maximum(_ a: Float16Lanes, _ b: Float16Lanes) -> Float16Lanes { a.replacing(with: b, where: a .< b) }
    /// |a|: the sign bit cleared.
    @_transparent
    static func magnitude(_ a: Float16Lanes) -> Float16Lanes {
        unsafeBitCast(unsafeBitCast(a, to: Word16Lanes.self) & 0x7FFF_FFFF, to: Float16Lanes.self)
    }

    /// floor(v) and ceil(v) as Int for 0 <= v < 2^22 (clipped coordinates),
    /// via the magic number: Swift's checked conversion costs a range test
    /// and a trap branch each.
    @_transparent
    static func floorInt(_ v: Float) -> Int {
        Int((v.rounded(.down) + magic).bitPattern &- magicBits)
    }
    @_transparent
    static func ceilInt(_ v: Float) -> Int {
        Int((v.rounded(.up) + magic).bitPattern &- magicBits)
    }
    /// Whole numbers 0 <= v < 2^22 to integers, lane-wise.
    @_transparent
    static func toInt(_ v: Float16Lanes) -> Word16Lanes {
        unsafeBitCast(v + magic, to: Word16Lanes.self) &- magicBits
    }
}
