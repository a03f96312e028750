import CRasterOMP

/// Composites K4's solid colour with a coverage onto RGBA8 pixels,
///
///     d = c m + d (1 - m c.a / 255),
///
/// sixteen pixels per step. For a colour whose premultiplied channels are
/// whole 8-bit values (any opaque colour, and e.g. #FFFFFF80) this runs in
/// 16-bit integer lanes (the way Blend2D and Skia's lowp pipeline
/// composite): the coverage is rounded to m8 = 255 m
/// and the destination's weight to w8 = 255 - m c.a, and each channel is
///
///     d' = (d w8 + c8 m8) / 255, rounded,
///
/// with two channels per 32-bit lane (r/b and g/a, the 0x00FF00FF split),
/// so one `vpmullw` multiplies 32 channel values. About 25 vector
/// instructions per 16 pixels, half the float version's. It is exact (but
/// for the final rounding) only where every coverage rounds to 0 or 255:
/// there m8 = 255 m to within 1/2, whose effect on a channel, |c - d| (1 -
/// m) or m c, is below half a unit and so cannot move the rounded result.
/// No clamping: d w8 + c8 m8 <= 255 (255 - m a) + a 255 m + rounding <=
/// 65408 fits a 16-bit half, so no carry crosses halves.
///
/// A partly covered pixel would carry the rounding of m to 8 bits, up to
/// |c - d| / 510 before the final rounding: on a canvas that is mostly
/// edge (a thin strip, overlapping paths) that flips enough channels to
/// break the mean bound of docs/contract.md §3 (0.05). So chunks and runs
/// with any partial coverage take a finer blend: under an opaque colour
/// the schedules' shared 15-bit one (raster_fill.h's
/// `raster_fill_blend16_opaque`: a channel at most 0.008 of a unit from
/// exact before its rounding, about 14 instructions per 16 pixels), else
/// the Float blend. Under an opaque colour every full chunk takes the
/// 15-bit blend, whatever its coverages: it is exact where the 8-bit one
/// is, and testing which a chunk needs was a branch the predictor missed.
///
/// Other colours (a fractional premultiplied channel, as #FFD700C0 gives)
/// take Float lanes, exact but for the final rounding: rounding such a
/// colour to 8 bits would shift every interior pixel of the fill by the
/// same fraction, a systematic error the mean bound (0.05) does not allow.
///
/// The full-width paths, the 15-bit blend of a partly covered chunk
/// included, are small and inlined into the sweep: a SIMD16 passed across
/// a call travels as four xmm registers, and the call cost the blob fill 5%
/// and the stars 10% (alternating processes of both builds). Tails,
/// partial-coverage runs and the Float blend live in separate functions,
/// because the SIL inliner stops honouring `@_transparent` once a caller
/// grows large.
struct FillPainter {
    /// Premultiplied colour (r, g, b, a) in 8-bit units.
    let color: SIMD4<Float>
    /// c.a in 8-bit units (Float, for w8 = 255 - m c.a).
    let alpha: Float
    /// -c.a / 255, the destination weight's slope in m8 (kept here: a
    /// division per 16 pixels showed in the profile).
    let weightScale: Float
    /// Whether every premultiplied channel is a whole number (the integer path).
    let integral: Bool
    /// The colour's channels rounded to 8 bits, r | b << 16 and g | a << 16.
    let colorRB: UInt32, colorGA: UInt32
    let opaque: Bool
    /// The colour's RGBA8 word, what an opaque colour at full coverage writes.
    let solid: UInt32

    /// Coverage closer than this to 0 or 1 on a constant run counts as 0 or
    /// 1 (raster_fill.h's RASTER_OMP_FILL_RUN_EPSILON says why).
    static let runEpsilon = Float(RASTER_OMP_FILL_RUN_EPSILON)

    init(_ color: Color) {
        let c = color.rgba8
        self.color = color.simd
        alpha = Float(color.a)
        weightScale = -Float(color.a) / 255
        // No array literal: this runs once per fill, i.e. every frame.
        integral = color.r == color.r.rounded() && color.g == color.g.rounded() && color.b == color.b.rounded()
            && color.a == color.a.rounded()
        colorRB = UInt32(c.r) | UInt32(c.b) << 16
        colorGA = UInt32(c.g) | UInt32(c.a) << 16
        opaque = color.a >= 255
        solid = c.packed
    }

    /// 2^23 + round(255 m), lane-wise, for m in [0, 1]: adding 2^23 rounds
    /// to the nearest integer in one fused multiply-add. Kept as Float so
    /// the all-0 / all-255 tests are float compares (one `kortest`; Swift's
    /// integer-lane `all(.==)` compiles to a per-lane loop).
    @_transparent
    static func biased8(_ m: Float16Lanes) -> Float16Lanes {
        Float16Lanes(repeating: Lanes.magic).addingProduct(m, 255)
    }

    /// The integer coverage m8 = round(255 m) from `biased8`.
    @_transparent
    static func coverage8(_ biased: Float16Lanes) -> Word16Lanes {
        unsafeBitCast(biased, to: Word16Lanes.self) &- Lanes.magicBits
    }

    /// 16 pixels blended with 8-bit coverage m8 (0...255 per lane).
    @_transparent
    func blend(_ d: Word16Lanes, coverage8 m8: Word16Lanes) -> Word16Lanes {
        let low = Word16Lanes(repeating: 0x00FF_00FF), half = Word16Lanes(repeating: 0x0080_0080)
        let m2 = m8 | m8 &<< 16
        let mm = unsafeBitCast(m2, to: Half32Lanes.self)
        let ww: Half32Lanes
        if opaque {
            // w8 = 255 - m8 exactly: four instructions fewer per 16 pixels.
            ww = unsafeBitCast(low &- m2, to: Half32Lanes.self)
        } else {
            // w8 = round(255 - m c.a), from m8 (exact in Float) as 255 - m8 a / 255.
            let w8 = unsafeBitCast(Float16Lanes(repeating: Lanes.magic + 255).addingProduct(Lanes.toFloat(m8), weightScale),
                                   to: Word16Lanes.self) &- Lanes.magicBits
            ww = unsafeBitCast(w8 | w8 &<< 16, to: Half32Lanes.self)
        }
        let rb = unsafeBitCast(d & low, to: Half32Lanes.self)
        let ga = unsafeBitCast(d &>> 8 & low, to: Half32Lanes.self)
        let crb = unsafeBitCast(Word16Lanes(repeating: colorRB), to: Half32Lanes.self)
        let cga = unsafeBitCast(Word16Lanes(repeating: colorGA), to: Half32Lanes.self)
        // Only the products need 16-bit lanes; sums and shifts stay 32-bit
        // (Swift's 16-bit lane shifts compile to per-lane code).
        var x = unsafeBitCast(rb &* ww, to: Word16Lanes.self) &+ unsafeBitCast(crb &* mm, to: Word16Lanes.self) &+ half
        var y = unsafeBitCast(ga &* ww, to: Word16Lanes.self) &+ unsafeBitCast(cga &* mm, to: Word16Lanes.self) &+ half
        // t / 255 rounded = (t + 128 + ((t + 128) >> 8)) >> 8, per half.
        x = (x &+ (x &>> 8 & low)) &>> 8 & low
        y = (y &+ (y &>> 8 & low)) &>> 8 & low
        return x | y &<< 8
    }

    /// 16 pixels blended with coverage m in Float lanes, for colours with a
    /// fractional channel. No clamping: with c <= c.a, m in [0, 1] and d <=
    /// 255, c m + d (1 - m c.a/255) <= 255 m c.a/255 + 255 (1 - m c.a/255) = 255.
    @_transparent
    func blendExact(_ d: Word16Lanes, coverage m: Float16Lanes) -> Word16Lanes {
        let mask = Word16Lanes(repeating: 0xFF)
        let dr = Lanes.toFloat(d & mask), dg = Lanes.toFloat(d &>> 8 & mask)
        let db = Lanes.toFloat(d &>> 16 & mask), da = Lanes.toFloat(d &>> 24)
        let inverse = 1 - m * (alpha / 255)
        return FillLanes.round(m * color.x + dr * inverse) | FillLanes.round(m * color.y + dg * inverse) &<< 8
            | FillLanes.round(m * color.z + db * inverse) &<< 16 | FillLanes.round(m * color.w + da * inverse) &<< 24
    }

    /// Whether every lane's m8 (from `biased8`) is 0 or 255, where the 8-bit
    /// blend is exact: m8 + 1 is then 1 or 256, the only values in 1...256
    /// with bits 1-7 clear.
    @_transparent
    static func wholeCoverage(_ biased: Float16Lanes) -> Bool {
        let x = (coverage8(biased) &+ 1) & 0xFE
        let x8 = x.lowHalf | x.highHalf
        let x4 = x8.lowHalf | x8.highHalf
        let x2 = x4.lowHalf | x4.highHalf
        return x2.x | x2.y == 0
    }

    /// 16 pixels with coverage m, by whichever path is exact for them.
    @_transparent
    func blendAny(_ d: Word16Lanes, coverage m: Float16Lanes) -> Word16Lanes {
        let biased = FillPainter.biased8(m)
        if integral && FillPainter.wholeCoverage(biased) { return blend(d, coverage8: FillPainter.coverage8(biased)) }
        return opaque && integral ? blendOpaque(d, coverage: m) : blendExact(d, coverage: m)
    }

    /// 16 pixels under an opaque whole-channel colour with partial coverage
    /// m: the schedules' shared 15-bit blend (raster_fill.h's
    /// `raster_fill_blend16_opaque`, which gives its accuracy).
    @inline(__always)
    func blendOpaque(_ d: Word16Lanes, coverage m: Float16Lanes) -> Word16Lanes {
        var d = d
        withUnsafeMutableBytes(of: &d) { blend16Opaque($0.baseAddress!, coverage: m) }
        return d
    }

    /// The shared helper on the 16 pixels at `p`, in place.
    @_transparent
    func blend16Opaque(_ p: UnsafeMutableRawPointer, coverage m: Float16Lanes) {
        var m = m
        withUnsafeBytes(of: &m) {
            raster_fill_blend16_opaque(p.assumingMemoryBound(to: UInt32.self),
                                       $0.baseAddress!.assumingMemoryBound(to: Float.self), solid)
        }
    }

    /// `count` (1...16) pixels at `p` with per-pixel coverage `m`. Under an
    /// opaque whole-channel colour (the common case) the 15-bit blend;
    /// otherwise left alone where every coverage rounds to 0, stored where
    /// every one rounds to 1 under an opaque colour, the 8-bit blend where
    /// each rounds to 0 or 1, else the Float blend.
    @_transparent
    func chunk(_ p: UnsafeMutablePointer<UInt8>, count: Int, coverage m: Float16Lanes) {
        guard count == FillLanes.width else { return chunkTail(p, count: count, coverage: m) }
        let raw = UnsafeMutableRawPointer(p)
        // Every coverage class at once under an opaque whole-channel colour:
        // the 15-bit blend leaves d where m rounds to 0 in 8 bits and gives c
        // where it rounds to 255 (raster_fill.h's argument), and the class is
        // a branch the predictor misses along an edge (blob -3%, stars -8%
        // in alternating processes).
        if opaque && integral { return blend16Opaque(raw, coverage: m) }
        let biased = FillPainter.biased8(m)
        if Lanes.allEqual(biased, Lanes.magic) { return }
        if opaque && Lanes.allEqual(biased, Lanes.magic + 255) {
            raw.storeBytes(of: Word16Lanes(repeating: solid), as: Word16Lanes.self)
        } else if integral && FillPainter.wholeCoverage(biased) {
            let m8 = FillPainter.coverage8(biased)
            raw.storeBytes(of: blend(raw.loadUnaligned(as: Word16Lanes.self), coverage8: m8), as: Word16Lanes.self)
        } else {
            chunkExact(raw, coverage: m)
        }
    }

    /// 16 pixels at `p` under an opaque whole-channel colour, from their
    /// windings `a`: the rule in units and m15 in integers, then the 15-bit
    /// blend (raster_fill.h's `raster_fill_chunk16_opaque`) -- the pixels
    /// `chunk` gives for the rule's coverage, with no float in between.
    @_transparent
    func chunkOpaque(_ p: UnsafeMutablePointer<UInt8>, windings a: Word16Lanes, evenOdd: Bool) {
        var a = a
        withUnsafeBytes(of: &a) {
            raster_fill_chunk16_opaque(UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                       $0.baseAddress!.assumingMemoryBound(to: UInt32.self), evenOdd ? 1 : 0, solid)
        }
    }

    @inline(never)
    func chunkExact(_ raw: UnsafeMutableRawPointer, coverage m: Float16Lanes) {
        raw.storeBytes(of: blendExact(raw.loadUnaligned(as: Word16Lanes.self), coverage: m), as: Word16Lanes.self)
    }

    @inline(never)
    func chunkTail(_ p: UnsafeMutablePointer<UInt8>, count: Int, coverage m: Float16Lanes) {
        var d = Word16Lanes()
        withUnsafeMutableBytes(of: &d) { $0.baseAddress!.copyMemory(from: p, byteCount: 4 * count) }
        var out = blendAny(d, coverage: m)
        withUnsafeBytes(of: &out) { p.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 4 * count) }
    }

    /// `count` pixels at `p` that share one coverage `m` (a run between edges).
    @_transparent
    func run(_ p: UnsafeMutablePointer<UInt8>, count: Int, coverage m: Float) {
        if m < FillPainter.runEpsilon || count <= 0 { return }
        if m > 1 - FillPainter.runEpsilon && opaque {
            FillPainter.store(solid, count: count, at: p)
        } else {
            blendRun(p, count: count, coverage: min(1, m))
        }
    }

    /// `count` copies of `word` from `p`: the schedules' shared run store
    /// (raster_fill.h's `raster_fill_store_run`, aligned 64-byte stores
    /// between one unaligned store at each end).
    @_transparent
    static func store(_ word: UInt32, count: Int, at p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).withMemoryRebound(to: UInt32.self, capacity: count) {
            raster_fill_store_run($0, Int32(truncatingIfNeeded: count), word)
        }
    }

    @inline(never)
    func blendRun(_ p: UnsafeMutablePointer<UInt8>, count: Int, coverage m: Float) {
        let lanes = Float16Lanes(repeating: m > 1 - FillPainter.runEpsilon ? 1 : m)
        let biased = FillPainter.biased8(lanes)
        let m8 = FillPainter.coverage8(biased)
        let eightBit = integral && FillPainter.wholeCoverage(biased)
        var x = 0
        while x + FillLanes.width <= count {
            let raw = UnsafeMutableRawPointer(p + 4 * x)
            let d = raw.loadUnaligned(as: Word16Lanes.self)
            let out = eightBit ? blend(d, coverage8: m8)
                : (opaque && integral ? blendOpaque(d, coverage: lanes) : blendExact(d, coverage: lanes))
            raw.storeBytes(of: out, as: Word16Lanes.self)
            x += FillLanes.width
        }
        if x < count { chunkTail(p + 4 * x, count: count - x, coverage: lanes) }
    }
}
