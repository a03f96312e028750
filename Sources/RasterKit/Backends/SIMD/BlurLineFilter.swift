/// One K3 variant's 1-D filter along a bundle of 64 lines (see `Quad`),
/// with the buffer geometry it needs. The same code runs the horizontal pass
/// (bands) and the vertical pass (strips): only the loaders differ.
///
/// A bundle buffer holds `lead + length + trail` samples; the loader writes
/// the line at samples `lead ..< lead + length`, `prepare` fills the lead
/// and trail (edge padding), `run` filters and returns the buffer holding
/// the result at the same offset `lead`.
struct BlurLineFilter {
    enum Kind {
        /// Blocked FIR: `taps` holds w_{-reach-3} ... w_{reach+3} (zero
        /// beyond the reach), `tail` the clamp-edge weight of cut taps.
        case fir(taps: UnsafePointer<Float>, reach: Int, tail: Float)
        case box(ExtendedBox)
        case iir(DericheIIR)
    }

    /// FIR outputs computed together (register blocking: each loaded sample
    /// feeds this many accumulators).
    static let firBlock = 4

    let kind: Kind
    let length: Int
    let clamp: Bool

    /// Samples before the line.
    var lead: Int {
        switch kind {
        case let .fir(_, reach, _): return reach
        case let .box(box): return box.lineExtension
        case .iir: return 0
        }
    }

    /// Samples after the line.
    var trail: Int {
        switch kind {
        case let .fir(_, reach, _): return reach + BlurLineFilter.firBlock
        case let .box(box): return box.lineExtension
        case .iir: return 0
        }
    }

    /// Samples per buffer (two buffers per worker).
    var samples: Int { lead + length + trail }

    /// Filters the line in `a` (samples lead..<lead+length), using `b` as
    /// the second buffer; returns whichever holds the result.
    @inline(__always)
    func run(_ a: UnsafeMutablePointer<BlurLanes>, _ b: UnsafeMutablePointer<BlurLanes>) -> UnsafeMutablePointer<BlurLanes> {
        let lead = self.lead, n = length
        switch kind {
        case let .fir(taps, reach, tail):
            pad(a, lead: lead, trail: trail, scale: 1)
            BlurLineFilter.fir(a, into: b, lead: lead, count: n, taps: taps, reach: reach,
                               tail: clamp ? tail : 0)
            return b
        case let .box(box):
            let grid = Float(box.grid)
            // Values onto the integer grid, extension included.
            for i in lead..<(lead + n) { (Quad(a, i) * grid).roundedOnGrid().store(a, i) }
            pad(a, lead: lead, trail: trail, scale: 1)
            return BlurLineFilter.box(a, b, lead: lead, count: n, box: box)
        case let .iir(iir):
            BlurLineFilter.iir(a, b, count: n, iir: iir, clamp: clamp)
            return b
        }
    }

    /// Fills the lead and trail with zeros or copies of the edge samples.
    @inline(__always)
    private func pad(_ a: UnsafeMutablePointer<BlurLanes>, lead: Int, trail: Int, scale: Float) {
        let end = lead + length
        if clamp {
            BlurBundle.replicate(a, from: lead, to: 0..<lead)
            BlurBundle.replicate(a, from: end - 1, to: end..<(end + trail))
        } else {
            BlurBundle.clear(a, 0..<lead)
            BlurBundle.clear(a, end..<(end + trail))
        }
    }

    // MARK: exact

    /// out[i] = sum_{|k| <= reach} w_k in[i + k] (+ tail * (first + last)),
    /// four outputs at a time: sample m of the window feeds accumulator j
    /// with weight w_{m-j}, so each loaded sample is used four times.
    static func fir(_ input: UnsafeMutablePointer<BlurLanes>, into out: UnsafeMutablePointer<BlurLanes>,
                    lead: Int, count n: Int, taps: UnsafePointer<Float>, reach: Int, tail: Float) {
        let block = firBlock
        // taps[k + reach + block - 1] = w_k for k in -(reach + block - 1)...(reach + block - 1).
        let center = reach + block - 1
        let edges = Quad(input, lead) + Quad(input, lead + n - 1)
        var i = 0
        while i < n {
            var acc0 = Quad.zero, acc1 = Quad.zero, acc2 = Quad.zero, acc3 = Quad.zero
            var m = -reach
            let base = lead + i
            while m <= reach + block - 1 {
                let x = Quad(input, base + m)
                let t = taps + (m + center)
                acc0.addProduct(t[0], x)
                acc1.addProduct(t[-1], x)
                acc2.addProduct(t[-2], x)
                acc3.addProduct(t[-3], x)
                m += 1
            }
            if tail != 0 {
                acc0.addProduct(tail, edges); acc1.addProduct(tail, edges)
                acc2.addProduct(tail, edges); acc3.addProduct(tail, edges)
            }
            acc0.store(out, base)
            acc1.store(out, base + 1)
            acc2.store(out, base + 2)
            acc3.store(out, base + 3)
            i += block
        }
    }

    // MARK: box3

    /// Three extended-box passes with exact running sums on the grid (see
    /// `ExtendedBox`). Pass p writes the samples later passes still read.
    static func box(_ a: UnsafeMutablePointer<BlurLanes>, _ b: UnsafeMutablePointer<BlurLanes>,
                    lead e: Int, count n: Int, box: ExtendedBox) -> UnsafeMutablePointer<BlurLanes> {
        let r = box.radius
        let alpha = Float(box.alpha)
        let norm = Float(1 / box.width)
        var src = a, dst = b
        for pass in 1...ExtendedBox.passes {
            let margin = (ExtendedBox.passes - pass) * (r + 1)
            let lo = e - margin, hi = e + n + margin
            var sum = Quad.zero
            for i in (lo - r)...(lo + r) { sum += Quad(src, i) }
            let last = pass == ExtendedBox.passes
            // The last pass leaves the grid: it scales straight to 8-bit units.
            let scale = last ? norm / Float(box.grid) : norm
            let edgeWeight = alpha * scale
            for i in lo..<hi {
                var v = sum * scale
                v.addProduct(edgeWeight, Quad(src, i - r - 1) + Quad(src, i + r + 1))
                (last ? v : v.roundedOnGrid()).store(dst, i)
                // Exact: integers below 2^24 (ExtendedBox.gridBits).
                sum += Quad(src, i + r + 1) - Quad(src, i - r)
            }
            swap(&src, &dst)
        }
        return src
    }

    // MARK: iir

    /// Deriche's parallel form: the causal sum into `out`, then the
    /// anti-causal sum added on the way back (see `DericheIIR`). Each of the
    /// two complex sections is a state (u, v) updated as
    /// (u, v) <- p (u, v) + c x, written so that only one FMA per step sits
    /// on each recursion's critical path.
    static func iir(_ input: UnsafeMutablePointer<BlurLanes>, _ out: UnsafeMutablePointer<BlurLanes>,
                    count n: Int, iir: DericheIIR, clamp: Bool) {
        let s0 = iir.first, s1 = iir.second
        let p0r = Float(s0.pole.x), p0i = Float(s0.pole.y), p1r = Float(s1.pole.x), p1i = Float(s1.pole.y)

        var c0r = Float(s0.causal.x), c0i = Float(s0.causal.y), c1r = Float(s1.causal.x), c1i = Float(s1.causal.y)
        let first = clamp ? Quad(input, 0) : Quad.zero
        var u0 = first * Float(s0.causalRest.x), v0 = first * Float(s0.causalRest.y)
        var u1 = first * Float(s1.causalRest.x), v1 = first * Float(s1.causalRest.y)
        for i in 0..<n {
            let x = Quad(input, i)
            var nu0 = x * c0r, nv0 = x * c0i, nu1 = x * c1r, nv1 = x * c1i
            nu0.addProduct(-p0i, v0); nv0.addProduct(p0i, u0)
            nu1.addProduct(-p1i, v1); nv1.addProduct(p1i, u1)
            nu0.addProduct(p0r, u0); nv0.addProduct(p0r, v0)
            nu1.addProduct(p1r, u1); nv1.addProduct(p1r, v1)
            u0 = nu0; v0 = nv0; u1 = nu1; v1 = nv1
            (u0 + u1).store(out, i)
        }

        c0r = Float(s0.anticausal.x); c0i = Float(s0.anticausal.y)
        c1r = Float(s1.anticausal.x); c1i = Float(s1.anticausal.y)
        let last = clamp ? Quad(input, n - 1) : Quad.zero
        u0 = last * Float(s0.anticausalRest.x); v0 = last * Float(s0.anticausalRest.y)
        u1 = last * Float(s1.anticausalRest.x); v1 = last * Float(s1.anticausalRest.y)
        var i = n - 1
        while i >= 0 {
            let x = Quad(input, i)
            (Quad(out, i) + (u0 + u1)).store(out, i)
            var nu0 = x * c0r, nv0 = x * c0i, nu1 = x * c1r, nv1 = x * c1i
            nu0.addProduct(-p0i, v0); nv0.addProduct(p0i, u0)
            nu1.addProduct(-p1i, v1); nv1.addProduct(p1i, u1)
            nu0.addProduct(p0r, u0); nv0.addProduct(p0r, v0)
            nu1.addProduct(p1r, u1); nv1.addProduct(p1r, v1)
            u0 = nu0; v0 = nv0; u1 = nu1; v1 = nv1
            i -= 1
        }
    }
}
