/// K3's `down2` / `down4` on the simd backend: area down-sample into a
/// small UInt16 8.8 image, blur it with the iir bundles of `SIMDBlurPlan`,
/// bilinear up-sample into the image (see `BlurResampling` for the maths).
///
/// The up-sampler stretches each small row horizontally once (into one of
/// two per-worker rows), after which every target row is a vertical blend
/// of two stretched rows: contiguous 16-lane work with no gathers. The
/// stretch itself is periodic (target pixel f i + j always blends small
/// pixels i - 1, i, i + 1 with the same weights), so four target pixels are
/// four broadcast small pixels times four constant weight vectors.
struct SIMDBlurResampler {
    let blur: GaussianBlur
    let plan: BlurResampling
    let image: ImageView
    let scratch: Scratch

    /// Small pixels one group of four target pixels reads: base - 1 ... base + 2.
    static let sources = 4

    init(_ blur: GaussianBlur, factor: Int, image: ImageView, scratch: Scratch) throws {
        precondition(4 % factor == 0, "the stretch groups four target pixels")
        self.blur = blur
        self.image = image
        self.scratch = scratch
        plan = try BlurResampling(blur, factor: factor, width: image.width, height: image.height)
    }

    /// Floats per stretched row: whole groups of four pixels.
    var stretchedFloats: Int { (image.width + 3) / 4 * 16 }
    /// Floats per decoded small row: one padding pixel before, two after.
    var decodedFloats: Int { (plan.smallWidth + 3) * 4 }

    func run(threads: Int) {
        let sw = plan.smallWidth, sh = plan.smallHeight
        let small = scratch.buffer(BlurSlot.small, count: sw * sh * 4, of: UInt16.self)
        let smallPlane = scratch.buffer(BlurSlot.smallPlane, count: BlurBundle.stripPlaneCount(width: sw, height: sh), of: UInt16.self)
        // Per worker: two stretched rows (or the down-sampler's accumulator)
        // and one decoded small row.
        let rowFloats = 2 * stretchedFloats + decodedFloats
        let downsampling = RowBands(items: sh, threads: threads), upsampling = RowBands(items: image.height, threads: threads)
        let workers = max(downsampling.workers, upsampling.workers)
        let rows = scratch.buffer(BlurSlot.resampleRows, count: workers * rowFloats, of: Float.self)
        let weights = scratch.buffer(BlurSlot.resampleTaps, count: SIMDBlurResampler.sources, of: BlurLanes.self)
        stretchWeights(into: weights)

        downsampling.run { worker, range in
            let buffer = rows + worker * rowFloats
            downsample(rows: range, into: small, accumulator: buffer, row: buffer + 2 * stretchedFloats)
        }
        let smallBlur = SIMDBlurPlan(plan.smallBlur, variant: .iir, width: sw, height: sh, scratch: scratch, threads: threads)
        smallBlur.horizontal(from: .plane(small), into: smallPlane, threads: threads)
        smallBlur.vertical(from: smallPlane, into: .plane(small), threads: threads)
        upsampling.run { worker, range in
            upsample(rows: range, from: small, weights: weights, buffers: rows + worker * rowFloats)
        }
    }

    /// Weight vectors W_s (s = -1...2) such that target pixels 4m...4m+3 are
    /// sum_s W_s * small[4m/f + s], from `BlurResampling.tap`'s positions
    /// (clamping at the image edges becomes padding of the small row).
    private func stretchWeights(into weights: UnsafeMutablePointer<BlurLanes>) {
        let f = plan.factor
        for s in 0..<SIMDBlurResampler.sources { weights[s] = BlurLanes() }
        for k in 0..<4 {
            let offset = (Float(k % f) + 0.5) / Float(f) - 0.5
            let i = k / f
            let (left, right, wl) = offset < 0 ? (i - 1, i, -offset) : (i, i + 1, 1 - offset)
            for c in 0..<4 {
                weights[left + 1][4 * k + c] += wl
                weights[right + 1][4 * k + c] += 1 - wl
            }
        }
    }

    /// Small rows `rows`: the mean of each f x f block (zeros outside the
    /// image with transparent edges, only the inside pixels with clamp).
    private func downsample(rows: Range<Int>, into small: UnsafeMutablePointer<UInt16>,
                            accumulator acc: UnsafeMutablePointer<Float>, row means: UnsafeMutablePointer<Float>) {
        let f = plan.factor, w = image.width, h = image.height, sw = plan.smallWidth
        let clamp = blur.edge.isClamp
        let groups = (sw + 3) / 4
        for j in rows {
            let y0 = j * f, y1 = min(y0 + f, h)
            acc.update(repeating: 0, count: w * 4)
            for y in y0..<y1 {
                let row = image.row(y)
                for i in 0..<(w * 4) { acc[i] += Float(row[i]) }
            }
            let a = UnsafeRawPointer(acc)
            let full = 1 / Float(f * f)
            for i in 0..<sw {
                let x0 = i * f, x1 = min(x0 + f, w)
                var sum = SIMD4<Float>()
                for x in x0..<x1 { sum += a.load(fromByteOffset: 16 * x, as: SIMD4<Float>.self) }
                // Only clamp-mode blocks cut by the image edge have a smaller area.
                let scale = clamp && (x1 - x0) * (y1 - y0) < f * f ? 1 / Float((x1 - x0) * (y1 - y0)) : full
                UnsafeMutableRawPointer(means + 4 * i).storeBytes(of: sum * scale, as: SIMD4<Float>.self)
            }
            // Four pixels at a time; the last group may run past the row
            // (into the padding of `means`), so it goes through a spare.
            let out = small + j * sw * 4
            for g in 0..<groups {
                let v = UnsafeRawPointer(means + 16 * g).loadUnaligned(as: BlurLanes.self)
                let n = min(4, sw - 4 * g)
                if n == 4 {
                    BlurBundle.storeHalves(v, to: out + 16 * g)
                } else {
                    var spare = SIMD16<UInt16>()
                    withUnsafeMutablePointer(to: &spare) {
                        $0.withMemoryRebound(to: UInt16.self, capacity: 16) { s in
                            BlurBundle.storeHalves(v, to: s)
                            (out + 16 * g).update(from: s, count: 4 * n)
                        }
                    }
                }
            }
        }
    }

    /// Target rows `rows`, each a vertical blend of two stretched small rows.
    private func upsample(rows: Range<Int>, from small: UnsafeMutablePointer<UInt16>, weights: UnsafeMutablePointer<BlurLanes>,
                          buffers: UnsafeMutablePointer<Float>) {
        let w = image.width, sw = plan.smallWidth, sh = plan.smallHeight, f = plan.factor
        let groups = (w + 3) / 4
        var upper = buffers, lower = buffers + stretchedFloats
        let decoded = buffers + 2 * stretchedFloats
        var upperRow = -1, lowerRow = -1
        let w0 = weights[0], w1 = weights[1], w2 = weights[2], w3 = weights[3]

        func stretch(_ j: Int, into out: UnsafeMutablePointer<Float>) {
            // decoded[4 (i + 1) ...] = small pixel i, edges repeated.
            let src = small + j * sw * 4
            for i in 0..<(sw * 4) { decoded[4 + i] = Float(src[i]) * (1 / BlurBundle.fixedOne) }
            for c in 0..<4 {
                decoded[c] = decoded[4 + c]
                decoded[4 * (sw + 1) + c] = decoded[4 * sw + c]
                decoded[4 * (sw + 2) + c] = decoded[4 * sw + c]
            }
            let d = UnsafeRawPointer(decoded)
            for g in 0..<groups {
                // Small pixel base - 1 sits at decoded[4 * base].
                let p = d + 16 * (4 * g / f)
                var v = w0 * broadcast(p.loadUnaligned(as: SIMD4<Float>.self))
                v.addProduct(w1, broadcast(p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)))
                v.addProduct(w2, broadcast(p.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self)))
                v.addProduct(w3, broadcast(p.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self)))
                UnsafeMutableRawPointer(out + 16 * g).storeBytes(of: v, as: BlurLanes.self)
            }
        }

        var spare = SIMD16<UInt8>()
        for y in rows {
            let (j0, fy) = BlurResampling.tap(y, factor: f, limit: sh)
            let j1 = min(j0 + 1, sh - 1)
            if upperRow != j0 {
                if lowerRow == j0 {
                    swap(&upper, &lower); swap(&upperRow, &lowerRow)
                } else {
                    stretch(j0, into: upper); upperRow = j0
                }
            }
            if lowerRow != j1 { stretch(j1, into: lower); lowerRow = j1 }
            let row = image.row(y)
            let top = UnsafeRawPointer(upper), bottom = UnsafeRawPointer(lower)
            for g in 0..<groups {
                let t = top.load(fromByteOffset: 64 * g, as: BlurLanes.self)
                let v = t + (bottom.load(fromByteOffset: 64 * g, as: BlurLanes.self) - t) * fy
                let n = min(4, w - 4 * g)
                if n == 4 {
                    BlurBundle.storePixels(v, to: row + 16 * g)
                } else {
                    withUnsafeMutablePointer(to: &spare) {
                        $0.withMemoryRebound(to: UInt8.self, capacity: 16) { s in
                            BlurBundle.storePixels(v, to: s)
                            (row + 16 * g).update(from: s, count: 4 * n)
                        }
                    }
                }
            }
        }
    }

    /// One pixel's four channels repeated over the 16 lanes.
    @inline(__always)
    private func broadcast(_ p: SIMD4<Float>) -> BlurLanes {
        BlurLanes(lowHalf: SIMD8(lowHalf: p, highHalf: p), highHalf: SIMD8(lowHalf: p, highHalf: p))
    }
}
