import CRasterOMP

/// K4's fixed-point winding, the accumulation stage's arithmetic (the
/// accuracy argument is `PathFill`'s doc comment): cells hold winding in
/// units of 1 / `one` and are summed in wrapping 32-bit integers, so
/// accumulation and prefix sums are exact and independent of order -- what
/// FreeType's gray rasteriser and Blend2D do. Each row step's values are
/// still computed in Float and rounded once. The constants are
/// raster_fill.h's, shared with the C schedule.
enum FillFixed {
    /// One pixel's area (a winding of 1).
    static let one = Int32(RASTER_OMP_FILL_ONE)
    static let scale = Float(RASTER_OMP_FILL_ONE)
    static let inverse = 1 / Float(RASTER_OMP_FILL_ONE)

    /// round(v * one) for |v * one| < 2^22 (every row step value: |v| <= 1).
    @inline(__always)
    static func quantise(_ v: Float) -> Int32 { FillRounding.round(v * scale) }

    /// round(units) for |units| < 2^22, a value already scaled by `one`.
    /// A row step's cells are written as differences of rounded suffix
    /// sums, round(U_j) - round(U_j+1) with U_j the step's exact winding in
    /// cells j and after, so the winding a step leaves at any pixel (its
    /// prefix) is off by at most half a unit, however many cells it spans.
    @inline(__always)
    static func round(units: Float) -> Int32 { FillRounding.round(units) }

    /// A row step's winding, (yz - ya) * dir, as a difference of rounded
    /// heights within the row: a vertex shared by two edges rounds the same
    /// way for both and a row boundary is exact (0 or one), so the steps of
    /// a closed path telescope to exactly 0 on every row -- right of the
    /// path every pixel's winding is exactly 0, whatever else is rounded.
    @inline(__always)
    static func winding(row: Float, ya: Float, yz: Float, down: Bool) -> Int32 {
        let d = quantise(yz - row) &- quantise(ya - row)
        return down ? d : 0 &- d
    }
}

/// The rounding trick (raster_fill.h's RASTER_OMP_FILL_ROUND_BIAS, where
/// the C schedule reads it too): adding 1.5 * 2^23 to a Float v with
/// |v| < 2^22 leaves round(v) (to nearest, ties to even) in the low
/// mantissa bits, as two's complement once the bias's bits are subtracted.
/// No trap and no range test, one add per vector. Every fixed-point
/// rounding of the fill, scalar and lane-wise, is one of these two.
enum FillRounding {
    static let bias = Float(RASTER_OMP_FILL_ROUND_BIAS)
    static let bits = UInt32(RASTER_OMP_FILL_ROUND_BITS)

    @_transparent
    static func round(_ v: Float) -> Int32 {
        Int32(bitPattern: (v + bias).bitPattern &- bits)
    }

    @_transparent
    static func round(_ v: Float16Lanes) -> Word16Lanes {
        unsafeBitCast(v + bias, to: Word16Lanes.self) &- bits
    }
}
