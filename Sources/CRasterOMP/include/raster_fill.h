// K4, the anti-aliased path fill: the C schedule's entry points and every
// constant the Swift and C schedules share. Swift imports this header (the
// target's include directory is its module), so each constant is defined
// here only and RasterKit reads it (Kernels/Fill). The maths and the
// accuracy argument are RasterKit's PathFill doc comment.
#ifndef RASTER_FILL_H
#define RASTER_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "raster_omp.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Rows per strip = 2^RASTER_OMP_FILL_STRIP_SHIFT. A strip's cells (32 rows
/// of a path's width) stay in L1/L2 while its edges are accumulated and its
/// rows swept, and each edge's per-strip set-up is spread over many rows.
/// Strips sit on absolute multiples of the height, so a strip's work does
/// not depend on which band (thread) takes it.
#define RASTER_OMP_FILL_STRIP_SHIFT 5
#define RASTER_OMP_FILL_STRIP_ROWS 32
_Static_assert(RASTER_OMP_FILL_STRIP_ROWS == 1 << RASTER_OMP_FILL_STRIP_SHIFT, "rows = 2^shift");

/// The most strips one fill has: a canvas of RASTER_MAX_DIMENSION rows
/// (raster_omp_fill refuses a plan with more).
#define RASTER_OMP_FILL_MAX_STRIPS 1024
_Static_assert(RASTER_OMP_FILL_MAX_STRIPS * RASTER_OMP_FILL_STRIP_ROWS == RASTER_MAX_DIMENSION,
               "one strip table covers the tallest canvas");

/// K4's strip buckets: the clipper appends each edge to the bucket of the
/// first strip (of the band) it touches, in path order, as it makes it
/// (Blend2D's band edge lists), so no pass counts, sorts or indexes the
/// edges afterwards; a band walks its strips in order, carrying the edges
/// that reach into the next (RasterKit's FillStripWalk says why the image
/// does not depend on where a band begins). A
/// bucket is a chain of blocks of RASTER_OMP_FILL_BLOCK_SLOTS 16-byte slots:
/// slot 0 the header (int32 index of the next block or -1, int32 count of
/// edges in this block), then up to RASTER_OMP_FILL_BLOCK_SLOTS - 1 edges
/// (float x0, y0, x1, y1). 512 bytes: a finely flattened blob puts about 30
/// edges in a strip, so most strips are one block.
#define RASTER_OMP_FILL_BLOCK_SLOTS 32

/// K4's cells hold winding in fixed point: 1 (a whole pixel's area, one
/// unit of winding) is RASTER_OMP_FILL_ONE = 2^RASTER_OMP_FILL_SHIFT units,
/// summed in wrapping 32-bit integers. 2^21: a row step's values (|v| <= 1)
/// stay below 2^22 units, where the rounding trick below is exact, and a
/// wrapped winding is still right modulo 2^32 units = 2048 pixels.
#define RASTER_OMP_FILL_SHIFT 21
#define RASTER_OMP_FILL_ONE 2097152
_Static_assert(RASTER_OMP_FILL_ONE == 1 << RASTER_OMP_FILL_SHIFT, "one = 2^shift");

/// The rounding trick: adding 1.5 * 2^23 (bit pattern 0x4B400000) to a
/// float v with |v| < 2^22 leaves round(v) (to nearest, ties to even) in
/// the low 23 mantissa bits, as two's complement once the bias's bits are
/// subtracted. A vector float-to-int rounding with no range test and no
/// trap. (Swift names it once too, as FillRounding.)
#define RASTER_OMP_FILL_ROUND_BIAS 12582912.0f
#define RASTER_OMP_FILL_ROUND_BITS 0x4B400000u

/// Cells per chunk, the vector width both schedules accumulate, sweep and
/// paint in: one AVX-512 register of 32-bit lanes, and one bitmap bit per
/// chunk (a cell index >> RASTER_OMP_FILL_LANE_SHIFT is its chunk).
#define RASTER_OMP_FILL_LANES 16
#define RASTER_OMP_FILL_LANE_SHIFT 4
_Static_assert(RASTER_OMP_FILL_LANES == 1 << RASTER_OMP_FILL_LANE_SHIFT, "lanes = 2^shift");

/// Cells past a band's last cell row: a row step of span 3 or less adds
/// its first four cells at once (zeros past its last), and that can reach
/// three cells past the last row's end.
#define RASTER_OMP_FILL_CELL_GUARD 4

/// An edge with at least this many rows in a strip is computed straight
/// from its own values, RASTER_OMP_FILL_LANES of its rows at a time (the
/// lanes differ only in the row), skipping the staging stores; shorter
/// edges (a finely flattened curve's chords) are batched across edges so
/// that a batch fills every lane.
#define RASTER_OMP_FILL_DIRECT_ROWS 8

/// Vectors of RASTER_OMP_FILL_LANES floats in a band's staging area: the 5
/// staged inputs of a batch of row steps (the rows, then the edges' x0, y0,
/// x1 and y1: see raster_fill_edges_to_lanes), the 9 results a step of any
/// span needs and the 4 values of its first four cells, in rows
/// (raster_fill_lanes_to_rows), that a step of span 3 or less adds at once.
#define RASTER_OMP_FILL_STAGE_VECTORS 18

/// Coverage closer than this to 0 or 1 on a constant run (between marked
/// chunks) counts as 0 or 1: float residue of the running sum, at most a
/// quarter of an 8-bit unit. 2^-10.
#define RASTER_OMP_FILL_RUN_EPSILON 0.0009765625f

/// The fill rule on a fixed-point winding `a` (read as signed 32-bit), as
/// coverage in units, 0 to RASTER_OMP_FILL_ONE; every schedule's scalar
/// rule is this function (or the float below, which divides by one).
/// Even-odd: the distance of a to the nearest even integer, a modulo
/// 2 RASTER_OMP_FILL_ONE (a mask: 2 one divides 2^32, so wrapping loses
/// nothing). Nonzero: min(1, |a|), exact for |a| < 2047 pixels of winding
/// and beyond unless |a| lies within 1 of a multiple of 2048 (the wrap).
static inline uint32_t raster_fill_coverage_units(uint32_t a, int evenodd) {
    uint32_t m;
    if (evenodd) {
        const uint32_t r = a & (2u * RASTER_OMP_FILL_ONE - 1u);
        m = r > RASTER_OMP_FILL_ONE ? 2u * RASTER_OMP_FILL_ONE - r : r;
    } else {
        m = (int32_t)a < 0 ? 0u - a : a;
        m = m > RASTER_OMP_FILL_ONE ? RASTER_OMP_FILL_ONE : m;
    }
    return m;
}

/// The rule's coverage as a float in [0, 1]: the units above over one, exact.
static inline float raster_fill_coverage(uint32_t a, int evenodd) {
    return (float)(int32_t)raster_fill_coverage_units(a, evenodd) * (1.0f / (float)RASTER_OMP_FILL_ONE);
}

/// The row sweep's prefix sum, written once for every schedule: out[l] =
/// carry + q[0] + ... + q[l] over one chunk of RASTER_OMP_FILL_LANES (16)
/// fixed-point cells, in wrapping 32-bit integers (exact, so any order of
/// adds gives the same bits); returns out[15], the carry into the next
/// chunk. On AVX2 it is a log-step scan on two 8-lane registers -- two
/// shifted adds within each 128-bit half, one add of the low half's total
/// into the high half, then the carries -- 17 vector instructions, where 16
/// broadcast cells ANDed with step masks and added cost 64 (and the 32
/// masks do not fit in the 16 registers). Portable builds take the loop.
static inline __attribute__((always_inline)) uint32_t raster_fill_prefix16(const uint32_t *q, uint32_t carry,
                                                                            uint32_t *out) {
#if defined(__AVX2__)
    __m256i a = _mm256_loadu_si256((const __m256i *)q), b = _mm256_loadu_si256((const __m256i *)(q + 8));
    a = _mm256_add_epi32(a, _mm256_slli_si256(a, 4));
    b = _mm256_add_epi32(b, _mm256_slli_si256(b, 4));
    a = _mm256_add_epi32(a, _mm256_slli_si256(a, 8));
    b = _mm256_add_epi32(b, _mm256_slli_si256(b, 8));
    /* Each half's element 3 (its total) broadcast, the low half's moved up. */
    const __m256i ta = _mm256_shuffle_epi32(a, 0xFF), tb = _mm256_shuffle_epi32(b, 0xFF);
    a = _mm256_add_epi32(a, _mm256_permute2x128_si256(ta, ta, 0x08));
    b = _mm256_add_epi32(b, _mm256_permute2x128_si256(tb, tb, 0x08));
    a = _mm256_add_epi32(a, _mm256_set1_epi32((int)carry));
    b = _mm256_add_epi32(b, _mm256_permutevar8x32_epi32(a, _mm256_set1_epi32(7)));
    _mm256_storeu_si256((__m256i *)out, a);
    _mm256_storeu_si256((__m256i *)(out + 8), b);
    return (uint32_t)_mm256_extract_epi32(b, 7);
#else
    for (int l = 0; l < RASTER_OMP_FILL_LANES; l++) {
        carry += q[l];
        out[l] = carry;
    }
    return carry;
#endif
}

/// A batch's edges from rows to columns, in place: `p` holds
/// RASTER_OMP_FILL_LANES edges as they sit in a bucket (x0, y0, x1, y1
/// each) and becomes four vectors of RASTER_OMP_FILL_LANES lanes, all the
/// x0, then the y0, x1 and y1. Staging a row step is then two stores (its
/// row and its edge's 16 bytes) where one value per lane was eight, and
/// the batch works out each lane's orientation, slope and x range itself.
/// With AVX-512 eight two-source permutes (`vpermt2ps`: `objdump -d` of
/// fill_band.c.o re-checks it); other builds take the loop.
static inline __attribute__((always_inline)) void raster_fill_edges_to_lanes(float *p) {
#if defined(__AVX512F__)
    const __m512 r0 = _mm512_loadu_ps(p), r1 = _mm512_loadu_ps(p + 16), r2 = _mm512_loadu_ps(p + 32),
                 r3 = _mm512_loadu_ps(p + 48);
    /* x and y of edges 0-7 (from r0, r1) and 8-15 (r2, r3), then z and w. */
    const __m512i xy = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
    const __m512i zw = _mm512_setr_epi32(2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
    const __m512 a = _mm512_permutex2var_ps(r0, xy, r1), b = _mm512_permutex2var_ps(r2, xy, r3);
    const __m512 c = _mm512_permutex2var_ps(r0, zw, r1), d = _mm512_permutex2var_ps(r2, zw, r3);
    const __m512i low = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    const __m512i high = _mm512_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
    _mm512_storeu_ps(p, _mm512_permutex2var_ps(a, low, b));
    _mm512_storeu_ps(p + 16, _mm512_permutex2var_ps(a, high, b));
    _mm512_storeu_ps(p + 32, _mm512_permutex2var_ps(c, low, d));
    _mm512_storeu_ps(p + 48, _mm512_permutex2var_ps(c, high, d));
#else
    float t[4 * RASTER_OMP_FILL_LANES];
    for (int l = 0; l < RASTER_OMP_FILL_LANES; l++)
        for (int k = 0; k < 4; k++) t[k * RASTER_OMP_FILL_LANES + l] = p[4 * l + k];
    memcpy(p, t, sizeof t);
#endif
}

/// The inverse of raster_fill_edges_to_lanes, in place: four vectors of
/// RASTER_OMP_FILL_LANES 32-bit lanes become RASTER_OMP_FILL_LANES rows of
/// four, row l holding lane l of each. The batch's row steps leave their
/// first four cells' values this way, so that a step of span 3 or less is
/// one 16-byte add to its cells.
static inline __attribute__((always_inline)) void raster_fill_lanes_to_rows(uint32_t *p) {
#if defined(__AVX512F__)
    const __m512i x = _mm512_loadu_si512(p), y = _mm512_loadu_si512(p + 16), z = _mm512_loadu_si512(p + 32),
                  w = _mm512_loadu_si512(p + 48);
    /* x and y interleaved, lanes 0-7 then 8-15; z and w the same */
    const __m512i low = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i high = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const __m512i a = _mm512_permutex2var_epi32(x, low, y), b = _mm512_permutex2var_epi32(x, high, y);
    const __m512i c = _mm512_permutex2var_epi32(z, low, w), d = _mm512_permutex2var_epi32(z, high, w);
    /* then pairs of (x, y) and (z, w): four rows a vector */
    const __m512i first = _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
    const __m512i second = _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
    _mm512_storeu_si512(p, _mm512_permutex2var_epi32(a, first, c));
    _mm512_storeu_si512(p + 16, _mm512_permutex2var_epi32(a, second, c));
    _mm512_storeu_si512(p + 32, _mm512_permutex2var_epi32(b, first, d));
    _mm512_storeu_si512(p + 48, _mm512_permutex2var_epi32(b, second, d));
#else
    uint32_t t[4 * RASTER_OMP_FILL_LANES];
    for (int l = 0; l < RASTER_OMP_FILL_LANES; l++)
        for (int k = 0; k < 4; k++) t[4 * l + k] = p[k * RASTER_OMP_FILL_LANES + l];
    memcpy(p, t, sizeof t);
#endif
}

#if defined(__AVX512BW__)
/// The 15-bit blend's pixel arithmetic on 16 pixels, given m15 per pixel.
static inline __attribute__((always_inline)) void raster_fill_blend16_m15(uint32_t *px, __m512i m15, uint32_t color) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i mm = _mm512_or_si512(m15, _mm512_slli_epi32(m15, 16)); /* m15 in both halves of its pixel's lane */
    const __m512i c = _mm512_unpacklo_epi8(_mm512_set1_epi32((int)color), zero);
    const __m512i d = _mm512_loadu_si512(px);
    /* Within each 128-bit lane, pixels 0-1 (lo) and 2-3 (hi) as 16-bit channels, with their coverage. */
    const __m512i dl = _mm512_unpacklo_epi8(d, zero), dh = _mm512_unpackhi_epi8(d, zero);
    const __m512i ml = _mm512_unpacklo_epi32(mm, mm), mh = _mm512_unpackhi_epi32(mm, mm);
    const __m512i rl = _mm512_add_epi16(dl, _mm512_mulhrs_epi16(_mm512_sub_epi16(c, dl), ml));
    const __m512i rh = _mm512_add_epi16(dh, _mm512_mulhrs_epi16(_mm512_sub_epi16(c, dh), mh));
    _mm512_storeu_si512(px, _mm512_packus_epi16(rl, rh));
}
#elif defined(__AVX2__)
/// The 15-bit blend's pixel arithmetic on 8 pixels, given m15 per pixel.
static inline __attribute__((always_inline)) void raster_fill_blend8_m15(uint32_t *px, __m256i m15, uint32_t color) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i c = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), zero);
    const __m256i mm = _mm256_or_si256(m15, _mm256_slli_epi32(m15, 16));
    const __m256i d = _mm256_loadu_si256((const __m256i *)px);
    const __m256i dl = _mm256_unpacklo_epi8(d, zero), dh = _mm256_unpackhi_epi8(d, zero);
    const __m256i ml = _mm256_unpacklo_epi32(mm, mm), mh = _mm256_unpackhi_epi32(mm, mm);
    const __m256i rl = _mm256_add_epi16(dl, _mm256_mulhrs_epi16(_mm256_sub_epi16(c, dl), ml));
    const __m256i rh = _mm256_add_epi16(dh, _mm256_mulhrs_epi16(_mm256_sub_epi16(c, dh), mh));
    _mm256_storeu_si256((__m256i *)px, _mm256_packus_epi16(rl, rh));
}
#endif

/// The 15-bit blend of one pixel word `d`, given its m15 (the portable
/// path, and the vector paths' integers).
static inline uint32_t raster_fill_blend_m15(uint32_t d, int32_t m15, uint32_t color) {
    uint32_t out = 0;
    for (int ch = 0; ch < 32; ch += 8) {
        const int32_t dc = (int32_t)(d >> ch & 0xFF), cc = (int32_t)(color >> ch & 0xFF);
        out |= (uint32_t)(dc + (((cc - dc) * m15 + 0x4000) >> 15)) << ch;
    }
    return out;
}

/// Partly covered pixels under an opaque colour, written once for every
/// schedule: the 16 pixels at `px` become
///
///     d' = d + (c - d) m,   rounded (half up),
///
/// per channel, c the colour's RGBA8 word `color` (alpha 255) and m the
/// pixel's coverage in [0, 1] from `m`. This is the blend
/// d' = c m + d (1 - m c.a / 255) with c.a = 255. In 16-bit lanes: m is
/// rounded to 15 bits, m15 = min(round(m 2^15), 2^15 - 1), and each
/// channel gets d + ((c - d) m15 + 2^14) >> 15 -- one `vpmulhrsw` per 32
/// channels, 14 instructions per 16 pixels with AVX-512BW where the float
/// blend takes about 60. Accuracy: |m15 / 2^15 - m| <= 2^-15 (2^-16 from
/// the rounding, up to 2^-15 where the clamp bites), so with |c - d| <= 255
/// a channel moves at most 255 * 2^-15 < 0.008 of a unit before its
/// rounding: only values within 0.008 of a half can round the other way,
/// by one unit. (Coverage rounded to 8 bits, as Blend2D and Skia's lowp
/// pipeline blend, moves a channel up to |c - d| / 510, half a unit: on
/// canvases that are mostly edge that breaks the mean bound of
/// docs/contract.md §3, which is why partly covered chunks took the float
/// blend.) It is exact where every coverage of the 16 rounds to 0 or 255
/// in 8 bits, so both schedules call it for every full chunk under an
/// opaque whole-channel colour, whatever its coverages: 255 m <= 1/2 gives
/// m15 <= 64 and 255 m >= 254.5 gives m15 >= 32704, and with k = c - d in
/// [-255, 255], (k m15 + 2^14) >> 15 is 0 for m15 <= 64 (|k m15| <= 16320
/// < 2^14) and k for m15 >= 32704 (k m15 + 2^14 = 2^15 k + 2^14 - k (2^15 -
/// m15), the last term within 64 * 255 < 2^14 of zero): d' is d or c, the
/// 8-bit blend's result (FillStageTests checks every d, c and m15 there).
/// Every build gives the same bytes: the vector paths compute the
/// scalar one's integers. Re-check what the compiler made of it:
/// `objdump -d` of fill_band.c.o, `vpmulhrsw` on zmm (AVX-512BW) or ymm.
static inline __attribute__((always_inline)) void raster_fill_blend16_opaque(uint32_t *px, const float *m,
                                                                             uint32_t color) {
#if defined(__AVX512BW__)
    raster_fill_blend16_m15(px, _mm512_min_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(m), _mm512_set1_ps(32768.0f))),
                                                 _mm512_set1_epi32(32767)), color);
#elif defined(__AVX2__)
    for (int h = 0; h < 16; h += 8)
        raster_fill_blend8_m15(px + h, _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(m + h), _mm256_set1_ps(32768.0f))),
                                                        _mm256_set1_epi32(32767)), color);
#else
    for (int l = 0; l < 16; l++) {
        /* The vector paths' integers: round to nearest even (their default
           rounding mode), the clamp, then the rounded high product. */
        int32_t m15 = (int32_t)__builtin_rintf(m[l] * 32768.0f);
        px[l] = raster_fill_blend_m15(px[l], m15 > 32767 ? 32767 : m15, color);
    }
#endif
}

/// 2^RASTER_OMP_FILL_M15_SHIFT units of coverage make one step of m15.
#define RASTER_OMP_FILL_M15_SHIFT (RASTER_OMP_FILL_SHIFT - 15)

/// A whole chunk under an opaque whole-channel colour straight from its 16
/// windings `a` (the prefix sum): the rule in units and m15 in integers,
/// then the 15-bit blend -- the pixels raster_fill_blend16_opaque gives
/// for the rule's float coverage, without the float. Why they are the same:
/// the coverage is m = x / one for the rule's units x <= one = 2^21, exact
/// in float, so m 2^15 = x / 64 is exact too and the float path's m15 is
/// x / 64 rounded to nearest even, clamped; here it is (x + 31 + q mod 2)
/// >> 6 with q = x >> 6, which is that rounding (a remainder of 32 rounds
/// up exactly when q is odd). FillStageTests compares the two on the
/// rule's boundaries and random windings. Fewer vector instructions per
/// chunk: no conversion to float and back.
static inline __attribute__((always_inline)) void raster_fill_chunk16_opaque(uint32_t *px, const uint32_t *a, int evenodd,
                                                                             uint32_t color) {
    const int shift = RASTER_OMP_FILL_M15_SHIFT;
    const uint32_t half = (1u << (shift - 1)) - 1u; /* 31: a tie rounds by q's low bit */
#if defined(__AVX512BW__)
    const __m512i w = _mm512_loadu_si512(a);
    __m512i x;
    if (evenodd) {
        const __m512i r = _mm512_and_si512(w, _mm512_set1_epi32(2 * RASTER_OMP_FILL_ONE - 1));
        x = _mm512_min_epu32(r, _mm512_sub_epi32(_mm512_set1_epi32(2 * RASTER_OMP_FILL_ONE), r));
    } else {
        x = _mm512_min_epu32(_mm512_abs_epi32(w), _mm512_set1_epi32(RASTER_OMP_FILL_ONE));
    }
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(x, shift), _mm512_set1_epi32(1));
    const __m512i m15 = _mm512_srli_epi32(_mm512_add_epi32(x, _mm512_add_epi32(odd, _mm512_set1_epi32((int)half))), shift);
    raster_fill_blend16_m15(px, _mm512_min_epi32(m15, _mm512_set1_epi32(32767)), color);
#elif defined(__AVX2__)
    for (int h = 0; h < 16; h += 8) {
        const __m256i w = _mm256_loadu_si256((const __m256i *)(a + h));
        __m256i x;
        if (evenodd) {
            const __m256i r = _mm256_and_si256(w, _mm256_set1_epi32(2 * RASTER_OMP_FILL_ONE - 1));
            x = _mm256_min_epu32(r, _mm256_sub_epi32(_mm256_set1_epi32(2 * RASTER_OMP_FILL_ONE), r));
        } else {
            x = _mm256_min_epu32(_mm256_abs_epi32(w), _mm256_set1_epi32(RASTER_OMP_FILL_ONE));
        }
        const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(x, shift), _mm256_set1_epi32(1));
        const __m256i m15 = _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(odd, _mm256_set1_epi32((int)half))), shift);
        raster_fill_blend8_m15(px + h, _mm256_min_epi32(m15, _mm256_set1_epi32(32767)), color);
    }
#else
    for (int l = 0; l < 16; l++) {
        const uint32_t x = raster_fill_coverage_units(a[l], evenodd);
        const uint32_t m15 = (x + half + (x >> shift & 1u)) >> shift;
        px[l] = raster_fill_blend_m15(px[l], m15 > 32767u ? 32767 : (int32_t)m15, color);
    }
#endif
}

/// Asks for the cache lines of the 16 pixels at `px` (one chunk, 64 bytes,
/// on at most two lines) ahead of their blend, for writing. The sweep calls
/// it for the row below each marked chunk: a partly covered chunk loads its
/// pixels, and on a canvas larger than L2 that load waits on L3 -- the
/// larger part of a partly covered chunk's cost in a profile of the blob --
/// while the row below's edge is at about the same column. A prefetch is
/// a hint: it never faults and reads nothing the program sees, but callers
/// still pass only whole chunks inside the image.
static inline __attribute__((always_inline)) void raster_fill_prefetch_chunk(const uint8_t *px) {
    __builtin_prefetch(px, 1, 3);
    __builtin_prefetch(px + 4 * RASTER_OMP_FILL_LANES - 1, 1, 3);
}

/// A run of `count` copies of the pixel word `word` (a solid interior),
/// written once for every schedule: one unaligned 64-byte store at each end
/// and whole aligned cache lines between (a store split across two lines
/// costs two; aligned stores fill a large interior ~20% faster on the
/// 2-core VMs this was measured on), overlapping stores of the same value
/// being harmless; shorter runs take two overlapping 32- or 16-byte
/// stores, or a loop under 4 pixels. The vectors are clang vector types,
/// so AVX-512 builds emit one `vmovdqu64` per line and AVX2 builds two
/// 32-byte stores (`objdump -d` of fill_band.c.o re-checks it).
typedef uint32_t raster_fill_u32x16 __attribute__((vector_size(64), aligned(4)));
typedef uint32_t raster_fill_u32x8 __attribute__((vector_size(32), aligned(4)));
typedef uint32_t raster_fill_u32x4 __attribute__((vector_size(16), aligned(4)));
static inline __attribute__((always_inline)) void raster_fill_store_run(uint32_t *px, int count, uint32_t word) {
    if (count < RASTER_OMP_FILL_LANES) {
        if (count >= 8) {
            const raster_fill_u32x8 v = { word, word, word, word, word, word, word, word };
            memcpy(px, &v, sizeof v);
            memcpy(px + count - 8, &v, sizeof v);
        } else if (count >= 4) {
            const raster_fill_u32x4 v = { word, word, word, word };
            memcpy(px, &v, sizeof v);
            memcpy(px + count - 4, &v, sizeof v);
        } else {
            for (int i = 0; i < count; i++) px[i] = word;
        }
        return;
    }
    const raster_fill_u32x16 v = { word, word, word, word, word, word, word, word,
                                   word, word, word, word, word, word, word, word };
    uint32_t *end = px + count;
    memcpy(px, &v, sizeof v);
    uint32_t *q = (uint32_t *)(((uintptr_t)px + sizeof v) & ~(uintptr_t)(sizeof v - 1));
    for (; q + RASTER_OMP_FILL_LANES <= end; q += RASTER_OMP_FILL_LANES)
        memcpy(__builtin_assume_aligned(q, 64), &v, sizeof v); /* memcpy: no aliasing question */
    memcpy(end - RASTER_OMP_FILL_LANES, &v, sizeof v);
}

/// The rule on a supersampled span's integer crossing count: whether the
/// samples right of a crossing with running `winding` are inside.
static inline int raster_fill_inside(int winding, int evenodd) {
    return evenodd ? (winding & 1) != 0 : winding != 0;
}

/// K4's layout for one fill. The caller derives it from the path's control
/// box (RasterKit's CellLayout), not from the flattened edges, so that it is
/// known before any thread flattens and does not depend on the banding:
/// strips first_strip ..< first_strip + strip_count (at most
/// RASTER_OMP_FILL_MAX_STRIPS), cells from column `origin` in rows of
/// `cell_stride` cells (multiples of RASTER_OMP_FILL_LANES), one bitmap bit
/// per chunk of RASTER_OMP_FILL_LANES cells in `words` words a row, `samples` per axis
/// (0 for exact area coverage), and `bands` threads, each taking a
/// contiguous run of strips (1 without OpenMP).
typedef struct raster_omp_fill_plan {
    int first_strip;
    int strip_count;
    int origin;
    int cell_stride;
    int words;
    int samples;
    int bands;
} raster_omp_fill_plan;

/// A band's edges as strip buckets (see RASTER_OMP_FILL_BLOCK_SLOTS):
/// heads[i] is the first block of the band's strip i (or -1: empty),
/// blocks the blocks as floats; `edges` counts the edges in all buckets,
/// and `crossings` is the most sub-scanline crossings any one strip has (0
/// unless sampling), which sizes the samplers' lists.
typedef struct raster_omp_fill_buckets {
    const float *blocks;
    const int32_t *heads;
    int64_t edges;
    int64_t crossings;
} raster_omp_fill_buckets;

/// Where a band gets its input and memory, called on the band's own thread.
/// `edges` fills *out with the buckets of strips [strip0, strip1) (absolute
/// indices) -- the edges touching their rows, clipped to the canvas, y0 !=
/// y1, in path order, and for each row bit for bit those of the whole
/// canvas, each in its first strip's bucket -- and returns 0 when no edge
/// touches them; the memory stays
/// valid until the call returns. `memory` returns
/// `bytes` of 64-byte-aligned memory that is the band's alone until
/// raster_omp_fill returns, and sets *same to 1 when it is the block the
/// band was given by the previous call with the same nonzero `layout` (its
/// cells and bitmap, at the block's start, are then still all zero: every
/// sweep clears what it swept), else to 0.
typedef struct raster_omp_fill_source {
    int (*edges)(void *context, int band, int strip0, int strip1, raster_omp_fill_buckets *out);
    void *(*memory)(void *context, int band, size_t bytes, uint64_t layout, int *same);
    void *context;
} raster_omp_fill_source;

/// K4: composites the coverage of the edges `source` gives source-over onto
/// `dst` with the premultiplied colour `color` (r, g, b, a in 8-bit units,
/// r, g, b <= a): d = c m + d (1 - m c.a / 255). `evenodd` selects the
/// even-odd rule (else nonzero). Each band flattens, buckets and rasterises
/// its own rows, so nothing runs serially; a strip's work does not depend
/// on its band, so the image does not depend on the thread count.
void raster_omp_fill(const raster_omp_fill_plan *plan, const raster_omp_fill_source *source, uint8_t *dst,
                     int width, int height, ptrdiff_t stride, const float color[4], int evenodd);

/// K4's accumulation stage alone, for differential tests: the fixed-point
/// winding (cells prefix-summed along each row, no rule, no compositing) of
/// `count` edges (4 floats each, as the buckets hold them) on a width x
/// height canvas, into `out`: height rows of width + 2 int32 (the pixels
/// and the two guard cells). `memory` holds raster_omp_fill_windings_bytes(width)
/// 64-byte-aligned bytes.
size_t raster_omp_fill_windings_bytes(int width);
void raster_omp_fill_windings(const float *edges, int count, int width, int height, void *memory, int32_t *out);

#ifdef __cplusplus
}
#endif

#endif
