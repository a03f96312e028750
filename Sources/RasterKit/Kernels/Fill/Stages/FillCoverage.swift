import CRasterOMP

/// K4's fill rule, the one place it is written for every schedule: on a
/// fixed-point winding (`FillFixed`, read as signed 32-bit) it gives the
/// coverage, and on a supersampled span's crossing count whether it is
/// inside. The scalar forms are raster_fill.h's `raster_fill_coverage` and
/// `raster_fill_inside`, the very functions the C schedule calls; the lane
/// forms below compute the same values on 16 windings at once (FillStageTests
/// holds scalar = lanes = C at 0, +-one and the wrap boundaries).
///
/// Nonzero: min(1, |a|), right for every |a| < 2047 and beyond unless |a|
/// lies within 1 of a multiple of 2048 (a wrapping 32-bit sum keeps a
/// modulo 2^32 units = 2048 pixels). Even-odd: the distance of a to the
/// nearest even integer, which needs a modulo 2 only, so wrapping loses
/// nothing.
protocol CoverageRule {
    static var evenOdd: Bool { get }
    static func coverage(_ a: Word16Lanes) -> Float16Lanes
}

extension CoverageRule {
    @_transparent
    static func coverage(_ a: UInt32) -> Float { raster_fill_coverage(a, evenOdd ? 1 : 0) }
}

enum FillCoverage {
    /// The rule on one winding (naive schedule, runs between chunks).
    @_transparent
    static func coverage(_ a: Int32, evenOdd: Bool) -> Float {
        raster_fill_coverage(UInt32(bitPattern: a), evenOdd ? 1 : 0)
    }

    /// Whether the samples right of a crossing with running `winding` are inside.
    @_transparent
    static func inside(_ winding: Int, evenOdd: Bool) -> Bool {
        raster_fill_inside(Int32(truncatingIfNeeded: winding), evenOdd ? 1 : 0) != 0
    }
}

enum NonZeroCoverage: CoverageRule {
    static var evenOdd: Bool { false }

    /// min(1, |a| / one) in Float lanes: a converted as its two 16-bit
    /// halves (each exact through the magic number; the sum rounds only
    /// beyond 2^24 units, far past the clamp at 1). No integer compare:
    /// `replacing(where:)` on integer lanes compiles to a per-lane loop with
    /// this toolchain (measured: 8x slower sweeps).
    @_transparent
    static func coverage(_ a: Word16Lanes) -> Float16Lanes {
        let high = Lanes.toFloat(a &>> 16 ^ 0x8000) - 32768
        let f = Lanes.toFloat(a & 0xFFFF).addingProduct(high, 65536) // high 65536 + low
        return Lanes.minimum(Lanes.magnitude(f) * FillFixed.inverse, Float16Lanes(repeating: 1))
    }
}

/// Even-odd: a modulo 2 one (a mask), exact in Float, folded at one as
/// one - |r - one| (Float lanes, see `NonZeroCoverage`).
enum EvenOddCoverage: CoverageRule {
    static var evenOdd: Bool { true }

    @_transparent
    static func coverage(_ a: Word16Lanes) -> Float16Lanes {
        let r = Lanes.toFloat(a & UInt32(2 &* FillFixed.one &- 1))
        let one = Float16Lanes(repeating: FillFixed.scale)
        return (one - Lanes.magnitude(r - one)) * FillFixed.inverse
    }
}
