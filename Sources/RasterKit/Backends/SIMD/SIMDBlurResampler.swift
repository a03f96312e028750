/// K3's `down2` / `down4` on the simd backend: area down-sample into a
/// small UInt16 8.8 image, blur it with the iir bundles of `SIMDBlurPlan`,
/// bilinear up-sample into the image (see `BlurResampling` for the maths).
///
/// The up-sampler stretches each small row horizontally once (into one of
/// two per-worker rows), after which every target row is a vertical blend
/// of two stretched rows: contiguous 16-lane work with no gathers.
struct SIMDBlurResampler {
    let blur: GaussianBlur
    let plan: BlurResampling
    let image: ImageView
    let scratch: Scratch

    init(_ blur: GaussianBlur, factor: Int, image: ImageView, scratch: Scratch) {
        self.blur = blur
        self.image = image
        self.scratch = scratch
        plan = BlurResampling(blur, factor: factor, width: image.width, height: image.height)
    }

    func run(threads: Int) {
        let sw = plan.smallWidth, sh = plan.smallHeight, w = image.width
        let small = scratch.buffer(BlurSlot.small, count: sw * sh * 4, of: UInt16.self)
        let smallPlane = scratch.buffer(BlurSlot.smallPlane, count: BlurBundle.stripPlaneCount(width: sw, height: sh), of: UInt16.self)
        // Per worker: two stretched rows, one decoded small row (Floats)
        // and 16 bytes for the last pixels of a row.
        let rowFloats = 2 * w * 4 + sw * 4 + 4
        let workers = max(BlurWorkers.count(items: sh, threads: threads), BlurWorkers.count(items: image.height, threads: threads))
        let rows = scratch.buffer(BlurSlot.resampleRows, count: workers * rowFloats, of: Float.self)
        let taps = scratch.buffer(BlurSlot.resampleTaps, count: w, of: SIMD2<Float>.self)
        for x in 0..<w {
            let (x0, fx) = BlurResampling.tap(x, factor: plan.factor, limit: sw)
            taps[x] = SIMD2(Float(x0), fx)
        }

        BlurWorkers.run(items: sh, threads: threads) { worker, range in
            downsample(rows: range, into: small, accumulator: rows + worker * rowFloats)
        }
        let smallBlur = SIMDBlurPlan(plan.smallBlur, variant: .iir, width: sw, height: sh, scratch: scratch, threads: threads)
        smallBlur.horizontal(from: .plane(small), into: smallPlane, threads: threads)
        smallBlur.vertical(from: smallPlane, into: .plane(small), threads: threads)
        BlurWorkers.run(items: image.height, threads: threads) { worker, range in
            upsample(rows: range, from: small, taps: taps, buffers: rows + worker * rowFloats)
        }
    }

    /// Small rows `rows`: the mean of each f x f block (zeros outside the
    /// image with transparent edges, only the inside pixels with clamp).
    private func downsample(rows: Range<Int>, into small: UnsafeMutablePointer<UInt16>, accumulator acc: UnsafeMutablePointer<Float>) {
        let f = plan.factor, w = image.width, h = image.height, sw = plan.smallWidth
        let clamp = blur.edge.isClamp
        for j in rows {
            let y0 = j * f, y1 = min(y0 + f, h)
            acc.update(repeating: 0, count: w * 4)
            for y in y0..<y1 {
                let row = image.row(y)
                for i in 0..<(w * 4) { acc[i] += Float(row[i]) }
            }
            let out = small + j * sw * 4
            for i in 0..<sw {
                let x0 = i * f, x1 = min(x0 + f, w)
                var sum = SIMD4<Float>()
                for x in x0..<x1 { sum += UnsafeRawPointer(acc + 4 * x).loadUnaligned(as: SIMD4<Float>.self) }
                let area = clamp ? Float((x1 - x0) * (y1 - y0)) : Float(f * f)
                let v = sum * (BlurBundle.fixedOne / area) + 0.5
                for c in 0..<4 { out[4 * i + c] = UInt16(min(v[c], 65535)) }
            }
        }
    }

    /// Target rows `rows`, each a vertical blend of two stretched small rows.
    private func upsample(rows: Range<Int>, from small: UnsafeMutablePointer<UInt16>, taps: UnsafeMutablePointer<SIMD2<Float>>,
                          buffers: UnsafeMutablePointer<Float>) {
        let w = image.width, sw = plan.smallWidth, sh = plan.smallHeight, f = plan.factor
        var upper = buffers, lower = buffers + w * 4
        let decoded = buffers + 2 * w * 4
        let spare = UnsafeMutableRawPointer(decoded + sw * 4).assumingMemoryBound(to: UInt8.self)
        var upperRow = -1, lowerRow = -1

        func stretch(_ j: Int, into out: UnsafeMutablePointer<Float>) {
            let src = small + j * sw * 4
            for i in 0..<(sw * 4) { decoded[i] = Float(src[i]) * (1 / BlurBundle.fixedOne) }
            let d = UnsafeRawPointer(decoded)
            for x in 0..<w {
                let t = taps[x]
                let x0 = Int(t.x), x1 = min(x0 + 1, sw - 1)
                let a = d.loadUnaligned(fromByteOffset: 16 * x0, as: SIMD4<Float>.self)
                let b = d.loadUnaligned(fromByteOffset: 16 * x1, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: a + (b - a) * t.y, as: SIMD4<Float>.self)
            }
        }

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
            var x = 0
            while x < w {
                let n = min(4, w - x)
                let top = UnsafeRawPointer(upper + 4 * x), bottom = UnsafeRawPointer(lower + 4 * x)
                var v: FloatLanes
                if n == 4 {
                    let t = top.loadUnaligned(as: FloatLanes.self)
                    v = t + (bottom.loadUnaligned(as: FloatLanes.self) - t) * fy
                } else {
                    v = FloatLanes()
                    for i in 0..<(4 * n) {
                        let t = top.load(fromByteOffset: 4 * i, as: Float.self)
                        v[i] = t + (bottom.load(fromByteOffset: 4 * i, as: Float.self) - t) * fy
                    }
                }
                if n == 4 {
                    BlurBundle.storePixels(v, to: row + 4 * x)
                } else {
                    BlurBundle.storePixels(v, to: spare)
                    (row + 4 * x).update(from: spare, count: 4 * n)
                }
                x += 4
            }
        }
    }
}
