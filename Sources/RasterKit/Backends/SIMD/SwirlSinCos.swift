import CRasterOMP

/// sin and cos of K1's swirl angle, eight lanes at a time: Swift SIMD has
/// no vector sin/cos, and a libm call per lane would cost more than the
/// whole per-pixel gradient.
///
/// The angle is theta = s |q - m|^2 with 0 <= s <= `FreeformGradient.maxSwirl`
/// (64) and |q - m|^2 <= 1/2 in unit space, so theta lies in [0, 32]. The
/// constants live once in raster_omp.h (the openmp backend evaluates the
/// same polynomial in C).
///
/// Accuracy. Range reduction: k = round(theta 2/pi) <= 21 and
/// r = theta - k pi/2 with pi/2 split into PIO2_HI (pi/2 rounded to Float)
/// and PIO2_LO (the next 24 bits), each product k * PIO2_x fused into its
/// subtraction: k PIO2_HI is exact inside the fma, theta - k PIO2_HI is
/// within an ulp of r (< 6e-8 for |r| <= pi/4), and the split's own error
/// (|pi/2 - HI - LO| < 2e-15) times k adds nothing visible. Polynomials:
/// Taylor series to r^9 for sin and r^10 for cos; on |r| <= pi/4 their
/// Lagrange remainders are (pi/4)^11 / 11! < 1.8e-9 and (pi/4)^12 / 12!
/// < 1.2e-10, far below Float's half-ulp at 1 (3e-8), so what is left is
/// Horner's rounding, a few ulps. `FreeformTests` measures it against
/// Foundation's double sin/cos over the whole of [0, 32]: the absolute
/// error stays below 2.5e-7, which moves a swirled sample by under 2e-7 of
/// the frame, nothing an 8-bit colour can show.
public enum SwirlSinCos {
    @inline(__always)
    public static func evaluate(_ theta: SIMD8<Float>) -> (sin: SIMD8<Float>, cos: SIMD8<Float>) {
        let k = (theta * RASTER_OMP_SWIRL_2_OVER_PI + 0.5).rounded(.down)
        var r = theta.addingProduct(-k, RASTER_OMP_SWIRL_PIO2_HI)
        r = r.addingProduct(-k, RASTER_OMP_SWIRL_PIO2_LO)
        let r2 = r * r
        var ps = SIMD8<Float>(repeating: RASTER_OMP_SWIRL_SIN7).addingProduct(r2, RASTER_OMP_SWIRL_SIN9)
        ps = SIMD8<Float>(repeating: RASTER_OMP_SWIRL_SIN5).addingProduct(r2, ps)
        ps = SIMD8<Float>(repeating: RASTER_OMP_SWIRL_SIN3).addingProduct(r2, ps)
        let sn = r.addingProduct(r * r2, ps)
        var pc = SIMD8<Float>(repeating: RASTER_OMP_SWIRL_COS8).addingProduct(r2, RASTER_OMP_SWIRL_COS10)
        pc = SIMD8<Float>(repeating: RASTER_OMP_SWIRL_COS6).addingProduct(r2, pc)
        pc = SIMD8<Float>(repeating: RASTER_OMP_SWIRL_COS4).addingProduct(r2, pc)
        pc = SIMD8<Float>(repeating: -0.5).addingProduct(r2, pc)
        let cs = SIMD8<Float>(repeating: 1).addingProduct(r2, pc)
        // Quadrant k mod 4: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s).
        let q = unsafeBitCast(k + Lanes.magic, to: SIMD8<UInt32>.self) &- Lanes.magicBits
        // The swap as a bit mask (all ones where k is odd), not a compare:
        // `(q & 1) .!= 0` with `replacing(with:where:)` compiled to a loop
        // over the lanes through the stack (57% of the swirled row loop's
        // samples under `perf record`).
        let swap = 0 &- (q & 1)
        let sBits = unsafeBitCast(sn, to: SIMD8<UInt32>.self), cBits = unsafeBitCast(cs, to: SIMD8<UInt32>.self)
        let flip = (sBits ^ cBits) & swap
        let sinSign = (q & 2) &<< 30, cosSign = ((q &+ 1) & 2) &<< 30
        return (unsafeBitCast(sBits ^ flip ^ sinSign, to: SIMD8<Float>.self),
                unsafeBitCast(cBits ^ flip ^ cosSign, to: SIMD8<Float>.self))
    }
}
