import Foundation

/// K3, Gaussian blur of a premultiplied RGBA8 image, in place.
///
/// The exact definition (docs/contract.md §2.3) is a separable convolution of each
/// premultiplied channel with the normalised Gaussian truncated at
/// r = ceil(4 sigma):
///
///     w_k = exp(-k^2 / (2 sigma^2)) / sum_{|j| <= r} exp(-j^2 / (2 sigma^2)),  |k| <= r
///     out(x, y) = sum_{|i|, |j| <= r} w_i w_j src(x + i, y + j)
///
/// where `src` outside the image is 0 (`transparent`: blurring a layer) or
/// the nearest edge pixel (`clamp`). Blurring premultiplied channels keeps
/// colour <= alpha, which the backends enforce again after rounding.
///
/// Cost: the exact form needs 2r + 1 taps per pixel and direction, i.e.
/// hundreds at the aurora scene's sigma (60 pt = 120 px at 2x). The fast
/// variants (`BlurVariant`) replace it with an approximation whose cost does
/// not depend on sigma; each is measured against the exact reference,
/// never passed off as exact. The coefficients every backend shares live
/// beside this type: `GaussianWeights` (exact), `ExtendedBox` (box3),
/// `DericheIIR` (iir) and `BlurResampling` (down2, down4).
public struct GaussianBlur: Sendable, Hashable {
    /// The largest sigma accepted. docs/contract.md §2.3 asks for at least 256; beyond a few
    /// thousand pixels every canvas this library accepts is blurred to its
    /// mean, and the exact variant's tap table (8 sigma + 1 entries) stops
    /// being small.
    public static let maxSigma = 4096.0
    /// The smallest sigma accepted. Below it the exact kernel is the
    /// identity to 8 bits (w_1 = exp(-1 / (2 sigma^2)) = exp(-5000)), and
    /// far below it sigma^2 underflows to 0: -1 / (2 sigma^2) = -inf and
    /// w_0 = exp(0 * -inf) = NaN, which trapped naive's Float -> UInt8 at
    /// sigma = 1e-200 (iir's coefficients likewise at 5e-324).
    public static let minSigma = 0.01
    public static let acceptedText = "\(minSigma) <= sigma <= \(Int(maxSigma)) px"

    public let sigma: Double
    public let edge: BlurEdge

    public init(sigma: Double, edge: BlurEdge = .transparent) throws {
        guard sigma.isFinite, sigma >= GaussianBlur.minSigma, sigma <= GaussianBlur.maxSigma else {
            throw RasterError.invalidArgument(name: "sigma", value: "\(sigma)", accepted: GaussianBlur.acceptedText)
        }
        self.sigma = sigma
        self.edge = edge
    }

    /// r = ceil(4 sigma): the truncation radius of the exact kernel.
    public var radius: Int { Int((4 * sigma).rounded(.up)) }
}

/// What lies outside the image.
public enum BlurEdge: String, CaseIterable, Sendable {
    /// Zeros: a layer's transparent surroundings bleed in (the default).
    case transparent
    /// The nearest edge pixel, repeated.
    case clamp

    public var isClamp: Bool { self == .clamp }
}

/// K3's quality/time variants (docs/contract.md §4).
public enum BlurVariant: String, CaseIterable, Sendable, KernelVariant {
    /// The definition: separable convolution, 2r + 1 taps per pixel and pass.
    case exact
    /// Three passes of an extended box (Gwosdek et al.) whose variance
    /// matches sigma^2 exactly; running sums make it O(1) per pixel.
    case box3
    /// Deriche's 4th-order recursive Gaussian: O(1) per pixel, and within a
    /// few hundredths of an 8-bit step of the exact kernel for sigma >= 0.5.
    case iir
    /// Area down-sample by 2 or 4, `iir` blur at the matching smaller sigma,
    /// bilinear up-sample: a quarter or a sixteenth of the filtering work.
    case down2, down4

    public var isExact: Bool { self == .exact }
    public static let kernelName = "blur"

    /// The down-sampling factor (1 for full-resolution variants).
    public var downscale: Int {
        switch self {
        case .exact, .box3, .iir: return 1
        case .down2: return 2
        case .down4: return 4
        }
    }

    /// One line for `list` and reports.
    public var summary: String {
        switch self {
        case .exact: return "separable convolution truncated at ceil(4 sigma) (the definition)"
        case .box3: return "3-pass extended box cascade, variance-matched (Gwosdek 2011)"
        case .iir: return "Deriche 4th-order recursive Gaussian, cost independent of sigma"
        case .down2: return "2x area down-sample, iir blur, bilinear up-sample"
        case .down4: return "4x area down-sample, iir blur, bilinear up-sample"
        }
    }
}

/// `ScratchSlot`'s blur slots as K3 uses them. Each
/// backend takes what it needs; a caller that blurs every frame with one
/// `Scratch` allocates nothing after the first frame.
enum BlurSlot {
    /// The full-resolution intermediate between the two passes.
    static let plane = ScratchSlot.blurPlane
    /// Per-worker line buffers (bundles of 64 lanes in simd and openmp).
    static let lines = ScratchSlot.blurLines
    /// The down-sampled image of `down2` / `down4`.
    static let small = ScratchSlot.blurSmall
    /// The down-sampled image's own intermediate.
    static let smallPlane = ScratchSlot.blurSmallPlane
    /// Tap tables (exact weights, up-sampling positions).
    static let table = ScratchSlot.blurTable
    /// Per-worker rows of the down-sampler and up-sampler.
    static let resampleRows = ScratchSlot.blurResampleRows
    /// Per-worker spare pixels for partial strips at the right edge.
    static let edgeSpare = ScratchSlot.blurEdgeSpare
    /// Up-sampling taps (source index and weight per target column).
    static let resampleTaps = ScratchSlot.blurResampleTaps
}

// MARK: - Exact

/// The exact kernel's taps along one line of `length` samples, as the SIMD
/// and C backends use them.
///
/// Taps further than the line length from every sample always land outside
/// the line, so the kernel is cut at the *effective* radius
/// `reach = min(r, length)`: with `transparent` edges the cut taps read
/// zeros, and with `clamp` edges they read the edge samples, which is the
/// constant `tail` weight (the sum of the cut taps on one side) times each
/// edge sample. This keeps sigma = 256 on a 1-pixel-wide image cheap
/// without changing a single output.
///
/// Nothing here allocates: weights are computed on demand (a blur per
/// frame must not touch the heap, see `Scratch`).
public struct GaussianWeights: Sendable {
    public let radius: Int
    /// -1 / (2 sigma^2).
    private let exponent: Double
    /// 1 / sum_{|k| <= r} exp(-k^2 / (2 sigma^2)).
    private let norm: Double

    public init(_ blur: GaussianBlur) {
        radius = blur.radius
        exponent = -1 / (2 * blur.sigma * blur.sigma)
        var total = 1.0
        for k in stride(from: radius, through: 1, by: -1) { total += 2 * exp(Double(k * k) * exponent) }
        norm = 1 / total
    }

    /// The normalised weight w_k, |k| <= r (Double, as the maths).
    @inline(__always)
    public func weight(_ k: Int) -> Double { exp(Double(k * k) * exponent) * norm }

    /// The effective radius on a line of `length` samples.
    public func reach(length: Int) -> Int { min(radius, length) }

    /// Weight of all taps beyond `reach` on one side.
    public func tail(length: Int) -> Double {
        var t = 0.0
        let e = reach(length: length)
        if e < radius { for k in stride(from: radius, through: e + 1, by: -1) { t += weight(k) } }
        return t
    }

    /// Writes the symmetric taps w_{-reach-pad} ... w_{reach+pad} (zeros
    /// beyond the reach) as Float: `2 * (reach + pad) + 1` values. The
    /// padding lets a blocked FIR that computes `pad + 1` outputs at once
    /// index taps without bounds tests.
    public func fill(_ out: UnsafeMutablePointer<Float>, length: Int, pad: Int) {
        let e = reach(length: length)
        let n = 2 * (e + pad) + 1
        out.initialize(repeating: 0, count: n)
        for k in -e...e { out[e + pad + k] = Float(weight(abs(k))) }
    }

    public static func tableCount(reach: Int, pad: Int) -> Int { 2 * (reach + pad) + 1 }
}

// MARK: - Box cascade

/// The `box3` variant: three passes of an *extended* box filter (Gwosdek,
/// Grewenig, Bruhn and Weickert, "Theoretical foundations of Gaussian
/// convolution by extended box filtering", SSVM 2011).
///
/// A plain box of radius r has variance r(r + 1)/3, which takes only
/// discrete values, so a cascade of plain boxes (Kovesi's or Pillow's) can
/// miss sigma^2 by up to a third of a pixel^2 per pass. The extended box adds
/// a fractional tap alpha at +-(r + 1):
///
///     kernel = [alpha, 1, 1, ..., 1, alpha] / (2r + 1 + 2 alpha)
///     variance = (r(r+1)(2r+1)/3 + 2 alpha (r+1)^2) / (2r + 1 + 2 alpha)
///
/// Each of the n = 3 passes takes s^2 = sigma^2 / 3, r is the largest radius
/// with r(r + 1)/3 <= s^2, and alpha (in [0, 1)) solves the variance equation:
///
///     alpha = (2r + 1)(s^2 - r(r+1)/3) / (2((r + 1)^2 - s^2))
///
/// so three passes have exactly the Gaussian's variance. By the central limit
/// theorem the cascade's shape is close to, but not, a Gaussian: `verify`
/// measures how close.
///
/// Running sums make each pass O(1) per sample. They must not drift (a Float
/// running sum over a 2000-sample line accumulates rounding error), so the
/// backends keep every value on an integer grid of `1 / 2^gridBits` 8-bit
/// units where Float adds are exact: inputs are integers on the grid, window
/// sums stay below 2^24, and each pass's output is rounded back onto the
/// grid (an error of at most 2^-(gridBits + 1) per pass).
///
/// Edges: a cascade is only equivalent to one filter if every pass sees the
/// *extended* signal, so the line is extended by `3(r + 1)` samples on each
/// side (zeros or the edge sample) and pass p is computed on the part of the
/// extension that later passes still read. That costs 6(r + 1) extra samples
/// per line; it is the only place sigma enters box3's cost.
public struct ExtendedBox: Sendable, Hashable {
    public static let passes = 3
    public let radius: Int
    public let alpha: Double
    /// Fractional bits of the exact-integer grid (0...8).
    public let gridBits: Int

    public init(_ blur: GaussianBlur) {
        let s2 = blur.sigma * blur.sigma / Double(ExtendedBox.passes)
        var r = Int(((1 + 12 * s2).squareRoot() - 1) / 2)
        // Guard the floor against rounding on either side.
        while Double(r * (r + 1)) / 3 > s2 { r -= 1 }
        while Double((r + 1) * (r + 2)) / 3 <= s2 { r += 1 }
        radius = r
        let rr = Double(r)
        alpha = (2 * rr + 1) * (s2 - rr * (rr + 1) / 3) / (2 * ((rr + 1) * (rr + 1) - s2))
        // Largest grid with 255 * 2^bits * (2r + 3) < 2^24: every window sum
        // (and window sum + edge taps) is then an exactly representable
        // Float integer.
        var bits = 8
        while bits > 0, 255 * (1 << bits) * (2 * r + 3) >= 1 << 24 { bits -= 1 }
        gridBits = bits
    }

    /// 2r + 1 + 2 alpha: the kernel's total weight before normalising.
    public var width: Double { Double(2 * radius + 1) + 2 * alpha }
    /// Samples each side by which a line is extended: 3(r + 1).
    public var lineExtension: Int { ExtendedBox.passes * (radius + 1) }
    public var grid: Double { Double(1 << gridBits) }
}

// MARK: - Recursive (IIR)

/// The `iir` variant: Deriche's 4th-order recursive approximation of the
/// Gaussian (R. Deriche, "Recursively implementing the Gaussian and its
/// derivatives", INRIA RR-1893, 1993), in the normalised form of P. Getreuer,
/// "A Survey of Gaussian Convolution Algorithms", IPOL 2013.
///
/// The continuous kernel is fitted by two damped cosines,
///
///     G(t) ~ sum_{k=1,2} 2 Re(a_k exp(-lambda_k t / sigma)) / (sigma sqrt(2 pi)),
///
/// which in discrete time is a sum of complex first-order filters with poles
/// p_k = exp(-lambda_k / sigma). The line is filtered by a causal part
/// (n >= 0) and an anti-causal part (n >= 1) applied to the *input* and added
/// (Deriche's parallel form):
///
///     y+[n] = p y+[n-1] + 2b x[n]          h(n)  = 2 Re(b p^n),  n >= 0
///     y-[n] = p y-[n+1] + 2bp x[n+1]       h(-n) = 2 Re(b p^n),  n >= 1
///     out[n] = sum_k Re(y+_k[n] + y-_k[n])
///
/// The residues b_k are scaled so that the whole discrete kernel sums to 1,
/// which makes flat regions exact. Running each conjugate pair as one complex
/// first-order recursion (instead of Deriche's combined 4th-order
/// difference equation) keeps Float precise: the combined form's
/// denominators cancel like (1 - p)^4 ~ sigma^-4, the complex form's only
/// like (1 - p).
///
/// Edges are exact in the parallel form because both parts see the input:
/// `transparent` starts both recursions at rest; `clamp` starts them in the
/// steady state of a constant edge sample, y+[-1] = 2b x[0] / (1 - p) and
/// y-[N-1] = 2bp x[N-1] / (1 - p).
///
/// Error against the truncated exact kernel, measured on impulses and
/// steps: below 0.075 (8-bit units) for sigma >= 0.5, below 0.02 for
/// sigma >= 3 — most of it the Gaussian tail beyond 4 sigma that the exact
/// definition drops (6e-5 of the mass).
public struct DericheIIR: Sendable, Hashable {
    /// The fit of Deriche (1993) as normalised by Getreuer (2013): residue
    /// a_k and exponent lambda_k of each complex-conjugate pair.
    static let fit: (first: (a: SIMD2<Double>, lambda: SIMD2<Double>), second: (a: SIMD2<Double>, lambda: SIMD2<Double>)) =
        ((SIMD2(0.84, 1.8675), SIMD2(1.783, 0.6318)), (SIMD2(-0.34015, -0.1299), SIMD2(1.723, 1.997)))

    /// One complex first-order section; complex numbers as (re, im).
    public struct Section: Sendable, Hashable {
        /// Pole p.
        public var pole: SIMD2<Double>
        /// 2b: the causal input coefficient.
        public var causal: SIMD2<Double>
        /// 2bp: the anti-causal input coefficient.
        public var anticausal: SIMD2<Double>
        /// 2b / (1 - p): causal state before sample 0 per unit edge value (clamp).
        public var causalRest: SIMD2<Double>
        /// 2bp / (1 - p): anti-causal state at the last sample per unit edge value.
        public var anticausalRest: SIMD2<Double>
    }

    /// The two sections (stored, not in an array: no allocation per blur).
    public let first: Section, second: Section

    public init(sigma: Double) {
        typealias C = SIMD2<Double>
        func mul(_ a: C, _ b: C) -> C { C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x) }
        func div(_ a: C, _ b: C) -> C {
            let d = b.x * b.x + b.y * b.y
            return C((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d)
        }
        let norm = 1 / (sigma * (2 * Double.pi).squareRoot())
        func pole(_ lambda: C) -> C {
            let m = exp(-lambda.x / sigma), theta = -lambda.y / sigma
            return C(m * cos(theta), m * sin(theta))
        }
        let p0 = pole(DericheIIR.fit.first.lambda), p1 = pole(DericheIIR.fit.second.lambda)
        let b0 = DericheIIR.fit.first.a * norm, b1 = DericheIIR.fit.second.a * norm
        // Sum of the discrete kernel over all n: 2 Re(b (1 + p) / (1 - p)) per pair.
        func mass(_ b: C, _ p: C) -> Double { 2 * div(mul(b, C(1 + p.x, p.y)), C(1 - p.x, -p.y)).x }
        let total = mass(b0, p0) + mass(b1, p1)
        func section(_ p: C, _ b: C) -> Section {
            let b2 = b * (2 / total)
            let bp2 = mul(b2, p)
            let oneMinusP = C(1 - p.x, -p.y)
            return Section(pole: p, causal: b2, anticausal: bp2,
                           causalRest: div(b2, oneMinusP), anticausalRest: div(bp2, oneMinusP))
        }
        first = section(p0, b0)
        second = section(p1, b1)
    }

    /// Writes the 20 Float coefficients the C backend takes, section by
    /// section: pole, causal, anticausal, causalRest, anticausalRest (re, im
    /// each).
    public func write(to out: UnsafeMutablePointer<Float>) {
        func put(_ s: Section, _ o: UnsafeMutablePointer<Float>) {
            func c(_ i: Int, _ v: SIMD2<Double>) { o[2 * i] = Float(v.x); o[2 * i + 1] = Float(v.y) }
            c(0, s.pole); c(1, s.causal); c(2, s.anticausal); c(3, s.causalRest); c(4, s.anticausalRest)
        }
        put(first, out)
        put(second, out + 10)
    }
}

// MARK: - Down-sampled

/// The `down2` / `down4` variants: area down-sample by f, blur the small
/// image with `iir` at sigma', bilinear up-sample (pixel centres aligned:
/// target x + 0.5 reads small index (x + 0.5)/f - 0.5, clamped to the small
/// image).
///
/// The f x f box average already blurs with variance (f^2 - 1)/12 target
/// pixels^2, so the small image is blurred with
///
///     sigma' = sqrt(max(sigma^2 - (f^2 - 1)/12, minimumVariance)) / f.
///
/// (Compensating the bilinear up-sample's smoothing as well makes it worse:
/// interpolation is not a convolution, its smoothing varies with phase.)
/// Edge blocks that stick out of the image average zeros with `transparent`
/// edges and only the pixels inside with `clamp`. The variant is meant for
/// large sigma: once sigma' is several small pixels the blurred image has no
/// detail left that the small grid cannot carry (sigma 30 at f = 4: PSNR
/// above 60 dB); at sigma ~ f it is visibly soft.
public struct BlurResampling: Sendable, Hashable {
    /// Variance floor (small pixels^2 times f^2) so tiny sigmas stay defined.
    static let minimumVariance = 0.01

    public let factor: Int
    public let smallWidth: Int, smallHeight: Int
    public let smallBlur: GaussianBlur

    /// Down-sampling factors accepted: the variance floor keeps the small
    /// sigma at or above 0.1 / f, which is at least `GaussianBlur.minSigma`
    /// up to f = 10.
    public static let factors = 1...8

    public init(_ blur: GaussianBlur, factor f: Int, width: Int, height: Int) throws {
        guard BlurResampling.factors.contains(f) else {
            throw RasterError.invalidArgument(name: "factor", value: "\(f)", accepted: "\(BlurResampling.factors)")
        }
        factor = f
        smallWidth = (width + f - 1) / f
        smallHeight = (height + f - 1) / f
        let v = max(blur.sigma * blur.sigma - Double(f * f - 1) / 12, BlurResampling.minimumVariance)
        // Within range: at most sigma (f >= 1), at least 0.1 / f (see `factors`).
        smallBlur = try GaussianBlur(sigma: v.squareRoot() / Double(f), edge: blur.edge)
    }

    /// Lower small index and weight of the upper one for target index `i`
    /// along an axis of `limit` small samples (the same mapping as K1's
    /// down-scaled variants).
    @inline(__always)
    public static func tap(_ i: Int, factor: Int, limit: Int) -> (Int, Float) {
        let pos = max(0, (Float(i) + 0.5) / Float(factor) - 0.5)
        let i0 = min(Int(pos), limit - 1)
        let w = min(pos - Float(i0), 1)
        return (i0, i0 + 1 < limit ? w : 0)
    }
}
