/// K3 written the obvious way: a Float copy of the image, each row and then
/// each column filtered as a line, rounded back. One thread; the vertical
/// pass walks columns through memory, which is exactly the cost the simd and
/// openmp backends are built to avoid.
extension NaiveBackend {
    public func blur(_ blur: GaussianBlur, variant: BlurVariant, image: ImageView, scratch: Scratch) throws {
        let w = image.width, h = image.height
        switch variant {
        case .exact:
            NaiveBlur.exact(blur, image: image, scratch: scratch)
        case .box3, .iir:
            let plane = scratch.buffer(BlurSlot.plane, count: w * h * 4, of: Float.self)
            NaiveBlur.load(image, into: plane)
            NaiveBlur.filterLines(plane, width: w, height: h, variant: variant, blur: blur, scratch: scratch)
            NaiveBlur.store(plane, into: image)
        case .down2, .down4:
            try NaiveBlur.resampled(blur, factor: variant.downscale, image: image, scratch: scratch)
        }
    }
}

enum NaiveBlur {
    /// Channel values of the image as Floats, packed rows of w * 4.
    static func load(_ image: ImageView, into plane: UnsafeMutablePointer<Float>) {
        for y in 0..<image.height {
            let row = image.row(y)
            for i in 0..<(image.width * 4) { plane[y * image.width * 4 + i] = Float(row[i]) }
        }
    }

    /// Rounds the plane back to RGBA8 (nearest, ties away from zero), colour
    /// clamped to alpha so the result stays valid premultiplied colour.
    static func store(_ plane: UnsafeMutablePointer<Float>, into image: ImageView) {
        for y in 0..<image.height {
            let row = image.row(y)
            for x in 0..<image.width {
                storePixel(plane + (y * image.width + x) * 4, to: row + 4 * x)
            }
        }
    }

    @inline(__always)
    static func storePixel(_ p: UnsafePointer<Float>, to out: UnsafeMutablePointer<UInt8>) {
        let a = quantize(p[3])
        out[0] = min(quantize(p[0]), a)
        out[1] = min(quantize(p[1]), a)
        out[2] = min(quantize(p[2]), a)
        out[3] = a
    }

    @inline(__always)
    static func quantize(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 255) + 0.5) }

    // MARK: exact

    /// The definition, tap by tap: a horizontal pass into a Float plane, then
    /// a vertical pass back into the image.
    static func exact(_ blur: GaussianBlur, image: ImageView, scratch: Scratch) {
        let w = image.width, h = image.height
        let weights = GaussianWeights(blur)
        let r = weights.radius
        let taps = scratch.buffer(BlurSlot.table, count: r + 1, of: Float.self)
        for k in 0...r { taps[k] = Float(weights.weight(k)) }
        let plane = scratch.buffer(BlurSlot.plane, count: w * h * 4, of: Float.self)
        let clamp = blur.edge.isClamp
        for y in 0..<h {
            let row = image.row(y)
            for x in 0..<w {
                for c in 0..<4 {
                    var sum: Float = 0
                    if clamp {
                        for k in -r...r { sum += taps[abs(k)] * Float(row[4 * min(max(x + k, 0), w - 1) + c]) }
                    } else {
                        for k in max(-r, -x)...min(r, w - 1 - x) { sum += taps[abs(k)] * Float(row[4 * (x + k) + c]) }
                    }
                    plane[(y * w + x) * 4 + c] = sum
                }
            }
        }
        for y in 0..<h {
            let row = image.row(y)
            for x in 0..<w {
                var px = SIMD4<Float>()
                for c in 0..<4 {
                    var sum: Float = 0
                    if clamp {
                        for k in -r...r { sum += taps[abs(k)] * plane[(min(max(y + k, 0), h - 1) * w + x) * 4 + c] }
                    } else {
                        for k in max(-r, -y)...min(r, h - 1 - y) { sum += taps[abs(k)] * plane[((y + k) * w + x) * 4 + c] }
                    }
                    px[c] = sum
                }
                withUnsafePointer(to: &px) { p in
                    p.withMemoryRebound(to: Float.self, capacity: 4) { storePixel($0, to: row + 4 * x) }
                }
            }
        }
    }

    // MARK: line filters (box3, iir)

    /// Filters every row, then every column, of a Float plane (packed rows of
    /// w * 4) channel by channel, copying each line into a line buffer.
    static func filterLines(_ plane: UnsafeMutablePointer<Float>, width w: Int, height h: Int,
                            variant: BlurVariant, blur: GaussianBlur, scratch: Scratch) {
        let box = ExtendedBox(blur)
        let iir = DericheIIR(sigma: blur.sigma)
        let n = max(w, h)
        let longest = n + 2 * box.lineExtension
        let buffers = scratch.buffer(BlurSlot.lines, count: 3 * longest, of: Double.self)
        let line = buffers, a = buffers + longest, b = buffers + 2 * longest
        let clamp = blur.edge.isClamp
        func run(_ count: Int) {
            if variant == .box3 { boxLine(line, count, box, clamp, a, b) } else { iirLine(line, count, iir, clamp, a) }
        }
        for y in 0..<h {
            for c in 0..<4 {
                for x in 0..<w { line[x] = Double(plane[(y * w + x) * 4 + c]) }
                run(w)
                for x in 0..<w { plane[(y * w + x) * 4 + c] = Float(line[x]) }
            }
        }
        for x in 0..<w {
            for c in 0..<4 {
                for y in 0..<h { line[y] = Double(plane[(y * w + x) * 4 + c]) }
                run(h)
                for y in 0..<h { plane[(y * w + x) * 4 + c] = Float(line[y]) }
            }
        }
    }

    /// Three extended-box passes over `line[0..<n]`, in place, with Double
    /// running sums (53 bits: no drift worth measuring). The line is
    /// extended by 3(r + 1) samples each side and pass p computed on the part
    /// of the extension later passes read (see `ExtendedBox`). `a` and `b`
    /// hold n + 6(r + 1) values each.
    static func boxLine(_ line: UnsafeMutablePointer<Double>, _ n: Int, _ box: ExtendedBox, _ clamp: Bool,
                        _ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>) {
        let r = box.radius, e = box.lineExtension
        let first = clamp ? line[0] : 0, last = clamp ? line[n - 1] : 0
        for i in 0..<e { a[i] = first; a[e + n + i] = last }
        for i in 0..<n { a[e + i] = line[i] }
        let norm = 1 / box.width
        var src = a, dst = b
        for pass in 1...ExtendedBox.passes {
            // Output range, in extended indices: shrinks by r + 1 per pass.
            let margin = (ExtendedBox.passes - pass) * (r + 1)
            let lo = e - margin, hi = e + n + margin
            var sum = 0.0
            for i in (lo - r)...(lo + r) { sum += src[i] }
            for i in lo..<hi {
                dst[i] = (sum + box.alpha * (src[i - r - 1] + src[i + r + 1])) * norm
                if i + 1 < hi { sum += src[i + r + 1] - src[i - r] }
            }
            swap(&src, &dst)
        }
        for i in 0..<n { line[i] = src[e + i] }
    }

    /// Deriche's recursive Gaussian over `line[0..<n]`, in place: the causal
    /// part into `causal`, then the anti-causal part added on the way back.
    /// Each section is one complex first-order recursion y = p y + c x.
    static func iirLine(_ line: UnsafeMutablePointer<Double>, _ n: Int, _ iir: DericheIIR, _ clamp: Bool,
                        _ causal: UnsafeMutablePointer<Double>) {
        let s0 = iir.first, s1 = iir.second
        var y0 = clamp ? s0.causalRest * line[0] : .zero
        var y1 = clamp ? s1.causalRest * line[0] : .zero
        for i in 0..<n {
            y0 = step(y0, s0.pole, s0.causal, line[i])
            y1 = step(y1, s1.pole, s1.causal, line[i])
            causal[i] = y0.x + y1.x
        }
        y0 = clamp ? s0.anticausalRest * line[n - 1] : .zero
        y1 = clamp ? s1.anticausalRest * line[n - 1] : .zero
        for i in stride(from: n - 1, through: 0, by: -1) {
            let x = line[i]
            line[i] = causal[i] + y0.x + y1.x
            y0 = step(y0, s0.pole, s0.anticausal, x)
            y1 = step(y1, s1.pole, s1.anticausal, x)
        }
    }

    /// p y + c x for complex p, y, c (as (re, im)) and real x.
    @inline(__always)
    static func step(_ y: SIMD2<Double>, _ p: SIMD2<Double>, _ c: SIMD2<Double>, _ x: Double) -> SIMD2<Double> {
        SIMD2(p.x * y.x - p.y * y.y + c.x * x, p.y * y.x + p.x * y.y + c.y * x)
    }

    // MARK: down2, down4

    /// Area down-sample by f into a Float plane, `iir` on it, bilinear
    /// up-sample back into the image.
    static func resampled(_ blur: GaussianBlur, factor f: Int, image: ImageView, scratch: Scratch) throws {
        let w = image.width, h = image.height
        let plan = try BlurResampling(blur, factor: f, width: w, height: h)
        let sw = plan.smallWidth, sh = plan.smallHeight
        let small = scratch.buffer(BlurSlot.small, count: sw * sh * 4, of: Float.self)
        let clamp = blur.edge.isClamp
        for j in 0..<sh {
            for i in 0..<sw {
                var sum = SIMD4<Float>(), count = 0
                for y in (j * f)..<min(j * f + f, h) {
                    for x in (i * f)..<min(i * f + f, w) {
                        let p = image.row(y) + 4 * x
                        sum += SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
                        count += 1
                    }
                }
                let px = sum / Float(clamp ? count : f * f)
                for c in 0..<4 { small[(j * sw + i) * 4 + c] = px[c] }
            }
        }
        filterLines(small, width: sw, height: sh, variant: .iir, blur: plan.smallBlur, scratch: scratch)
        for y in 0..<h {
            let (y0, fy) = BlurResampling.tap(y, factor: f, limit: sh)
            let y1 = min(y0 + 1, sh - 1)
            let row = image.row(y)
            for x in 0..<w {
                let (x0, fx) = BlurResampling.tap(x, factor: f, limit: sw)
                let x1 = min(x0 + 1, sw - 1)
                var px = SIMD4<Float>()
                for c in 0..<4 {
                    let top = small[(y0 * sw + x0) * 4 + c] * (1 - fx) + small[(y0 * sw + x1) * 4 + c] * fx
                    let bottom = small[(y1 * sw + x0) * 4 + c] * (1 - fx) + small[(y1 * sw + x1) * 4 + c] * fx
                    px[c] = top * (1 - fy) + bottom * fy
                }
                withUnsafePointer(to: &px) { p in
                    p.withMemoryRebound(to: Float.self, capacity: 4) { storePixel($0, to: row + 4 * x) }
                }
            }
        }
    }
}
