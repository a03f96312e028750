/// The lane vocabulary: the 8-lane types and helpers here, the 16-lane ones
/// in `Lanes16.swift`. Helpers must inline: Swift passes vectors to a call
/// in 128-bit pieces, so a helper left as a call costs inserts and extracts
/// around one instruction. The 16-lane ones are `@_transparent`; the 8-lane
/// ones stay `@inline(__always)` because made `@_transparent` they changed
/// `SIMDComposite`'s release code (659 to 998 instructions, more scalar
/// extracts and shuffles), a change no benchmark has judged yet.
///
/// What the helpers compile to (Swift 6.3, -O, checked with
/// `scripts/wide-asm.sh`, which builds this folder with one probe per helper
/// for x86-64-v3 and -v4 and prints each probe's `objdump -d`):
///
/// - AVX2 (x86-64-v3): 8 lanes are one ymm register, 16 lanes two, with no
///   inserts or extracts. `toFloat`/`toInt` (the 2^23 trick) are vorps or
///   vaddps plus one integer add -- no vcvtps2dq/vcvttps2dq, no libcall;
///   `minimum`/`maximum`/`positivePart` are one vminps/vmaxps; `clamp` is
///   vmaxps + vcmpltps + vblendvps; `quantize` adds vroundps; `magnitude`
///   one vandps; `allEqual` vpxor + vpor + vptest.
/// - AVX-512 (x86-64-v4): 16 lanes are one zmm register and each helper the
///   same single instructions on it (`allEqual` becomes vpcmpneqd into a
///   mask + kortestw); 8 lanes stay ymm, with compares into k registers and
///   masked moves instead of vblendvps.
///
/// The compare-and-select forms matter: the standard library's
/// `pointwiseMin`/`pointwiseMax`, `clamped` and `min()`/`max()` follow IEEE
/// minNum/maxNum NaN rules and compile to per-lane code on this toolchain.
/// Where a NaN meets a compare-and-select helper, the compare is false and
/// the first operand passes through.
typealias FloatLanes = SIMD8<Float>
typealias WordLanes = SIMD8<UInt32>

enum Lanes {
    static let width = FloatLanes.scalarCount

    /// Row loops are written as a local `@inline(__always) func body(x, n)`
    /// called from a whole-vector loop with the constant `Lanes.width`, then
    /// once for the tail (see `SIMDComposite`). With the count a constant,
    /// the tail branches inside `load`/`store` fold away and the main loop
    /// is straight vector code. (A helper taking the body as a closure would
    /// be tidier, but this toolchain does not inline the closure into it, and
    /// the indirect call with a runtime count costs 5x.)

    /// 0, 1, 2, ... as floats: lane offsets along a row. A literal, so it
    /// folds into a constant (a `static let` would cost a lazy-init check
    /// at every use inside the hot loops).
    @inline(__always)
    static var ramp: FloatLanes { FloatLanes(0, 1, 2, 3, 4, 5, 6, 7) }

    /// 2^23: adding it to a float in [0, 2^23) leaves the integer part in the
    /// low mantissa bits, a vector float-to-int conversion with no libcall.
    static let magic: Float = 8_388_608
    static let magicBits: UInt32 = 0x4B00_0000

    /// Clamps to [0, 255], rounds to nearest with ties away from zero (docs/contract.md
    /// §1: floor(v + 0.5) for non-negative v), returns the integers.
    @inline(__always)
    static func quantize(_ v: FloatLanes) -> WordLanes {
        let c = (clamp(v, 0, 255) + 0.5).rounded(.down) + magic
        return unsafeBitCast(c, to: WordLanes.self) &- magicBits
    }

    /// Clamping by compare-and-select. The standard library's `clamped(lowerBound:
    /// upperBound:)` and `pointwiseMin/Max` follow IEEE minNum/maxNum NaN rules
    /// and compile to a compare-and-branch per lane here (7x the instructions).
    @inline(__always)
    static func clamp(_ v: FloatLanes, _ lo: Float, _ hi: Float) -> FloatLanes {
        var r = v
        r.replace(with: lo, where: v .< lo)
        r.replace(with: hi, where: v .> hi)
        return r
    }

    /// max(v, 0) by compare-and-select (see `clamp`).
    @inline(__always)
    static func positivePart(_ v: FloatLanes) -> FloatLanes { v.replacing(with: 0, where: v .< 0) }

    /// min(v, hi) by compare-and-select (see `clamp`).
    @inline(__always)
    static func minimum(_ v: FloatLanes, _ hi: Float) -> FloatLanes { v.replacing(with: hi, where: v .> hi) }

    /// Whether any lane of `mask` is set. The standard library's
    /// `any(mask)` is a generic `min()` left as a call here (`objdump -d`
    /// of K1's row loop: the call, and the vectors around it split into
    /// 128-bit halves and spilled); folding halves is a few vector ORs.
    @inline(__always)
    static func any(_ mask: SIMDMask<WordLanes.MaskStorage>) -> Bool {
        let w = unsafeBitCast(mask, to: WordLanes.MaskStorage.self)
        let w4 = w.lowHalf | w.highHalf
        let w2 = w4.lowHalf | w4.highHalf
        return w2.x | w2.y != 0
    }

    /// Four channel vectors to packed little-endian RGBA8 words.
    @inline(__always)
    static func packRGBA8(_ r: FloatLanes, _ g: FloatLanes, _ b: FloatLanes, _ a: FloatLanes) -> WordLanes {
        quantize(r) | quantize(g) &<< 8 | quantize(b) &<< 16 | quantize(a) &<< 24
    }

    /// Stores `count` (1...width) packed pixels at `p` (no alignment needed).
    @inline(__always)
    static func store(_ words: WordLanes, to p: UnsafeMutablePointer<UInt8>, count: Int) {
        let raw = UnsafeMutableRawPointer(p)
        if count == width {
            raw.storeBytes(of: words, as: WordLanes.self)
        } else {
            for i in 0..<count { raw.storeBytes(of: words[i], toByteOffset: 4 * i, as: UInt32.self) }
        }
    }

    /// Unpacks one vector of RGBA8 pixels (`count` valid, rest zero) into channel floats.
    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<UInt8>, count: Int) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        var w = WordLanes()
        let raw = UnsafeRawPointer(p)
        if count == width {
            w = raw.loadUnaligned(as: WordLanes.self)
        } else {
            for i in 0..<count { w[i] = raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
        }
        let m = WordLanes(repeating: 0xFF)
        return (toFloat(w & m), toFloat(w &>> 8 & m), toFloat(w &>> 16 & m), toFloat(w &>> 24))
    }

    /// Small non-negative integers (< 2^23) to float, again via the magic
    /// number rather than the per-lane generic conversion.
    @inline(__always)
    static func toFloat(_ w: WordLanes) -> FloatLanes {
        unsafeBitCast(w | magicBits, to: FloatLanes.self) - magic
    }
}
