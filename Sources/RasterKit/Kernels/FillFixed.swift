import CRasterOMP

/// K4's fixed-point winding (the accuracy argument is `PathFill`'s doc
/// comment): cells hold winding in units of 1 / `one` and are summed in
/// wrapping 32-bit integers, so accumulation and prefix sums are exact and
/// independent of order -- what FreeType's gray rasteriser and Blend2D do.
/// Each row step's values are still computed in Float and rounded once.
enum FillFixed {
    /// One pixel's area (a winding of 1), from raster_omp.h: shared with C.
    static let one = Int32(RASTER_OMP_FILL_ONE)
    static let scale = Float(RASTER_OMP_FILL_ONE)
    static let inverse = 1 / Float(RASTER_OMP_FILL_ONE)

    /// round(v * one) for |v * one| < 2^22 (every row step value: |v| <= 1),
    /// via the magic number 1.5 * 2^23: adding it leaves v * one rounded to
    /// an integer in the low mantissa bits. No trap, no range test.
    @inline(__always)
    static func quantise(_ v: Float) -> Int32 {
        Int32(bitPattern: (v * scale + 12_582_912).bitPattern &- 0x4B40_0000)
    }

    /// round(units) for |units| < 2^22, a value already scaled by `one`.
    /// A row step's cells are written as differences of rounded suffix
    /// sums, round(U_j) - round(U_j+1) with U_j the step's exact winding in
    /// cells j and after, so the winding a step leaves at any pixel (its
    /// prefix) is off by at most half a unit, however many cells it spans.
    @inline(__always)
    static func round(units: Float) -> Int32 {
        Int32(bitPattern: (units + 12_582_912).bitPattern &- 0x4B40_0000)
    }

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

    /// The rule on a fixed-point winding. Nonzero: min(1, |a|), with |a| read
    /// as a signed 32-bit value (so a winding that wrapped, |a| >= 2048, is
    /// still >= 1 unless within one of a multiple of 4096). Even-odd: the
    /// triangle wave needs a modulo 2 only, and 2 * one divides 2^32, so
    /// wrapping loses nothing.
    @inline(__always)
    static func coverage(_ a: Int32, evenOdd: Bool) -> Float {
        if evenOdd {
            let r = a & (2 &* one &- 1)
            return Float(r > one ? 2 &* one &- r : r) * inverse
        }
        let m = a < 0 ? 0 &- a : a
        return m < 0 || m >= one ? 1 : Float(m) * inverse
    }
}
