import CRasterOMP

/// K4 and K5 work on 16 lanes -- one AVX-512 register -- rather than the
/// shared 8 (`FloatLanes`): their lane helpers are all `@_transparent`, and
/// checked with `objdump` the hot loops come out as plain zmm code (the
/// mixed 128/512-bit code the shared lanes avoid appears when helpers stay
/// calls). A chunk of 16 cells also halves the sweep's per-chunk overhead.
typealias Float16Lanes = SIMD16<Float>
typealias Word16Lanes = SIMD16<UInt32>
/// The same 512 bits as 32 16-bit lanes, for `vpmullw` (only `&*` on them:
/// their shifts compile to per-lane code with Swift 6.3).
typealias Half32Lanes = SIMD32<UInt16>

/// Lane operations written in the forms this toolchain lowers to single
/// vector instructions. (`pointwiseMin`/`pointwiseMax`, `.clamped` and
/// `.min()` on SIMD16<Float> compile to per-lane loops through the stack
/// with Swift 6.3 -- checked with `-emit-assembly` -- while compare-and-
/// `replacing` becomes vcmpps + a masked move.)
enum FillLanes {
    /// raster_fill.h's RASTER_OMP_FILL_LANES, the C schedule's width too
    /// (FillStageTests holds it to `Float16Lanes.scalarCount`).
    static let width = Int(RASTER_OMP_FILL_LANES)
    /// log2(width): cell index >> shift is its chunk (one bitmap bit).
    static let shift = Int(RASTER_OMP_FILL_LANE_SHIFT)

    /// 0, 1, 2, ... 15 (a literal, so it folds into a constant).
    @_transparent
    static var ramp: Float16Lanes { Float16Lanes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }

    /// Small non-negative integers (< 2^23) to float via the magic number.
    @_transparent
    static func toFloat(_ w: Word16Lanes) -> Float16Lanes {
        unsafeBitCast(w | Lanes.magicBits, to: Float16Lanes.self) - Lanes.magic
    }

    /// Whether every lane of `v` has the bit pattern of `value`. The
    /// standard library's `all(v .== w)` is `mask.max() < 0`, and its
    /// generic `max()` is a call to a per-lane loop (3.8% of a 750x1334
    /// blob fill under `perf record`; `objdump -d` shows the call in
    /// `SIMDFillBand.run`); folding the XOR in halves is four vector ORs.
    @_transparent
    static func allEqual(_ v: Float16Lanes, _ value: Float) -> Bool {
        let x = unsafeBitCast(v, to: Word16Lanes.self) ^ value.bitPattern
        let x8 = x.lowHalf | x.highHalf
        let x4 = x8.lowHalf | x8.highHalf
        let x2 = x4.lowHalf | x4.highHalf
        return x2.x | x2.y == 0
    }

    @_transparent
    static func minimum(_ a: Float16Lanes, _ b: Float16Lanes) -> Float16Lanes { a.replacing(with: b, where: b .< a) }
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
        Int((v.rounded(.down) + Lanes.magic).bitPattern &- Lanes.magicBits)
    }
    @_transparent
    static func ceilInt(_ v: Float) -> Int {
        Int((v.rounded(.up) + Lanes.magic).bitPattern &- Lanes.magicBits)
    }
    /// Whole numbers 0 <= v < 2^22 to integers, lane-wise.
    @_transparent
    static func toInt(_ v: Float16Lanes) -> Word16Lanes {
        unsafeBitCast(v + Lanes.magic, to: Word16Lanes.self) &- Lanes.magicBits
    }

    /// round(v * FillFixed.one) lane-wise as 32-bit two's complement, for
    /// |v * one| < 2^22 (row step values), by `FillRounding`.
    @_transparent
    static func quantise(_ v: Float16Lanes) -> Word16Lanes { FillRounding.round(v * FillFixed.scale) }

    /// round(units) lane-wise (values already scaled by `FillFixed.one`).
    @_transparent
    static func round(units v: Float16Lanes) -> Word16Lanes { FillRounding.round(v) }

    /// Rounds values known to lie in [0, 255.5) (half up = ties away from
    /// zero there) to integers, without clamping.
    @_transparent
    static func round(_ v: Float16Lanes) -> Word16Lanes {
        unsafeBitCast((v + 0.5).rounded(.down) + Lanes.magic, to: Word16Lanes.self) &- Lanes.magicBits
    }
}
