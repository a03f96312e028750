import CRasterOMP

extension SIMDBackend {
    public func gradient(_ gradient: Gradient, variant: GradientVariant, into dst: ImageView) throws {
        if gradient.isDegenerate {
            let c = gradient.stops[gradient.stops.count - 1].color.rgba8
            RowBands.run(height: dst.height, threads: threads) { rows in
                for y in rows { ImageView(base: dst.row(y), width: dst.width, height: 1, stride: dst.stride).fill(c) }
            }
            return
        }
        let pixel = GradientPixelGeometry(gradient)
        if variant == .lut {
            TableRows(gradient.table, pixel).run(dst, threads: threads)
            return
        }
        let ramp = RampLanes(gradient.ramp, extend: gradient.extend)
        let plan = pixel.rowPlan(height: dst.height)
        if pixel.prefersRuns(width: dst.width, intervals: ramp.starts.count) {
            var frame = RunFrame(ramp: ramp, pixel: pixel, plan: plan, dst: dst, threads: threads)
            if pixel.shape == 0 {
                frame.draw(folds: nil)
            } else {
                // A radial frame's runs read its fold table, on the C stack.
                withUnsafeMutablePointer(to: &frame) { frame in
                    pixel.withFolds(gradient.ramp, width: dst.width, height: dst.height, context: frame) { table, frame in
                        frame!.assumingMemoryBound(to: RunFrame.self).pointee.draw(folds: table)
                    }
                }
            }
            return
        }
        switch gradient.shape {
        case let .linear(s, t):
            // u = dot(q - s, t - s) / |t - s|^2 is affine in x and y: one
            // multiply-add per pixel from a per-row origin.
            let d = t - s
            let k = 1 / d.dot(d)
            let ux = Float(d.x * k), uy = d.y * k
            let origin = -(s.x * d.x + s.y * d.y) * k
            RowBands.run(height: dst.height, threads: threads) { rows in
                for y in rows {
                    let u0 = Float(origin + (Double(y) + 0.5) * uy + 0.5 * d.x * k)
                    let row = dst.row(y)
                    @inline(__always) func body(_ x: Int, _ n: Int) {
                        ramp.store((Lanes.ramp + Float(x)) * ux + u0, to: row + 4 * x, count: n)
                    }
                    var x = 0
                    while x + Lanes.width <= dst.width { body(x, Lanes.width); x += Lanes.width }
                    if x < dst.width { body(x, dst.width - x) }
                }
            }
        case let .radial(c, r):
            let inv = Float(1 / r)
            // Rows y and m - y of the plan have the same dy up to its sign:
            // y + 1/2 - cy rounds symmetrically.
            plan.run(dst, threads: threads) { y in
                let dy = Float(Double(y) + 0.5 - c.y)
                let row = dst.row(y)
                let x0 = Float(0.5 - c.x)
                @inline(__always) func body(_ x: Int, _ n: Int) {
                    let dx = Lanes.ramp + (Float(x) + x0)
                    ramp.store((dx * dx + dy * dy).squareRoot() * inv, to: row + 4 * x, count: n)
                }
                var x = 0
                while x + Lanes.width <= dst.width { body(x, Lanes.width); x += Lanes.width }
                if x < dst.width { body(x, dst.width - x) }
            }
        }
    }
}

/// A frame drawn as runs (raster_gradient_next_span) on the simd backend:
/// its rows across the threads, each row's runs by `RampLanes.storeRuns`.
/// `folds` is the radial frame's fold table (nil for linear).
private struct RunFrame {
    let ramp: RampLanes
    let pixel: GradientPixelGeometry
    let plan: raster_gradient_row_plan
    let dst: ImageView
    let threads: Int

    func draw(folds: UnsafePointer<raster_gradient_fold_table>?) {
        plan.run(dst, threads: threads) { y in
            ramp.starts.withUnsafeBufferPointer { starts in
                var row = raster_gradient_row()
                pixel.start(&row, y, width: dst.width, starts: starts.baseAddress!, intervals: starts.count)
                raster_gradient_row_use_ladder(&row, folds)
                ramp.storeRuns(&row, folds: folds, to: dst.row(y))
            }
        }
    }
}

/// A `GradientRamp` evaluated on lanes: extend u, then pick each lane's
/// interval by comparison (later intervals override earlier ones) and apply
/// its affine colour. No gathers, one compare and select per interval.
struct RampLanes {
    let starts: [Float]
    let slopes: [SIMD4<Float>]
    let biases: [SIMD4<Float>]
    let extend: ExtendMode
    /// Per interval: whether its colour is constant, and that colour packed.
    let flat: [Bool]
    let packed: [UInt32]

    init(_ ramp: GradientRamp, extend: ExtendMode) {
        starts = ramp.starts; slopes = ramp.slopes; biases = ramp.biases
        self.extend = extend
        flat = ramp.flat; packed = ramp.packed
    }

    /// One row as runs (raster_gradient_next_span): a constant run is a
    /// fill; otherwise t = sign * (u - period) + offset and the colour is
    /// t * slope + bias, u computed as raster_gradient_u computes it.
    /// Linear runs step fixed-point colours (raster_gradient_run_steps);
    /// radial runs take t per pixel. Both store whole vectors while they fit
    /// in the row: pixels past a run's end belong to later runs of the row,
    /// drawn after it, which overwrite them. A radial row symmetric about
    /// its centre column draws one side and mirrors it.
    /// `folds` is the frame's fold table (radial frames only).
    @inline(__always)
    func storeRuns(_ row: inout raster_gradient_row, folds: UnsafePointer<raster_gradient_fold_table>?,
                   to p: UnsafeMutablePointer<UInt8>) {
        let width = Int(row.width)
        let m = Int(raster_gradient_mirror_axis(&row))
        guard m >= 0 else {
            storeRuns(&row, folds, from: 0, to: width, p)
            return
        }
        // Left of the centre, the pixels whose mirror is in the row are
        // copies (raster_gradient_mirror_axis), drawn last, over any whole
        // vector stored past a run's end.
        let lo = max(0, m - width + 1), mid = Int(row.mid)
        storeRuns(&row, folds, from: 0, to: lo, p)
        storeRuns(&row, folds, from: mid, to: width, p)
        let words = UnsafeMutableRawPointer(p)
        var x = lo
        while x + Lanes.width <= mid {
            let v = words.loadUnaligned(fromByteOffset: 4 * (m - x - 7), as: WordLanes.self)
            words.storeBytes(of: WordLanes(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]), toByteOffset: 4 * x, as: WordLanes.self)
            x += Lanes.width
        }
        while x < mid {
            words.storeBytes(of: words.load(fromByteOffset: 4 * (m - x), as: UInt32.self), toByteOffset: 4 * x, as: UInt32.self)
            x += 1
        }
    }

    /// Pixels [x0, x1) of the row as runs.
    @inline(__always)
    func storeRuns(_ row: inout raster_gradient_row, _ folds: UnsafePointer<raster_gradient_fold_table>?,
                   from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>) {
        var span = raster_gradient_span()
        var x = x0
        while x < x1 {
            let end = min(Int(raster_gradient_next_span(&row, Int32(x), &span)), x1)
            let k = Int(span.interval)
            if flat[k] {
                UnsafeMutableRawPointer(p + 4 * x).withMemoryRebound(to: UInt32.self, capacity: end - x) {
                    $0.update(repeating: packed[k], count: end - x)
                }
            } else if row.shape == 0 {
                storeLinearRun(&row, &span, k, from: x, to: end, p)
            } else {
                let lo = starts[k], hi = starts[k + 1]
                var fold = (k: SIMD4<Float>(), c: SIMD4<Float>())
                if Self.radialFold(&row, &span, folds, slopes[k], biases[k], &fold) {
                    storeRadialRun(row, fold.k, fold.c, from: x, to: end, p)
                } else if Self.convertsUnclamped(slopes[k], biases[k], lo, hi) {
                    storeRadialRunInterval(row, span, slopes[k], biases[k], lo, hi, from: x, to: end, p)
                } else {
                    storeRadialRunClamped(row, span, slopes[k], biases[k], from: x, to: end, p)
                }
            }
            x = end
        }
    }

    // Linear and radial runs are written out separately, each vector loop
    // spelled out: with u passed in as a closure, or the loop body as a
    // local function, this toolchain left a call per vector in the loop.
    // Plain * and +, not addingProduct: SIMD8's is not one vector FMA here.
    @inline(__always)
    static func shade(_ t: FloatLanes, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>) -> WordLanes {
        Lanes.packRGBA8(t * sl.x + bi.x, t * sl.y + bi.y, t * sl.z + bi.z, t * sl.w + bi.w)
    }

    /// A linear run in chunks of fixed-point colours (raster_gradient_run_steps,
    /// where the accuracy argument is); a chunk whose colours leave [0, 255]
    /// is shaded per pixel with a clamp.
    @inline(__always)
    func storeLinearRun(_ row: inout raster_gradient_row, _ span: inout raster_gradient_span, _ k: Int,
                        from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>) {
        var start = SIMD4<Int32>(), step = SIMD4<Int32>()
        var sl = slopes[k], bi = biases[k]
        var x = x0
        while x < x1 {
            let end = withUnsafeMutablePointer(to: &sl) { slp in
                withUnsafeMutablePointer(to: &bi) { bip in
                    withUnsafeMutablePointer(to: &start) { s in
                        withUnsafeMutablePointer(to: &step) { d in
                            Int(raster_gradient_run_steps(
                                &row, &span, UnsafeRawPointer(slp).assumingMemoryBound(to: Float.self),
                                UnsafeRawPointer(bip).assumingMemoryBound(to: Float.self), Int32(x), Int32(x1),
                                UnsafeMutableRawPointer(s).assumingMemoryBound(to: Int32.self),
                                UnsafeMutableRawPointer(d).assumingMemoryBound(to: Int32.self)))
                        }
                    }
                }
            }
            if end > x {
                Self.stepRun(p, from: x, to: end, width: Int(row.width), start, step)
                x = end
            } else {
                storeLinearRunClamped(row, span, slopes[k], biases[k], from: x, to: x1, p)
                x = x1
            }
        }
    }

    /// Fixed-point colours (raster_gradient_run_steps) stepped in pixel
    /// order, as the openmp backend steps them: vector k holds pixel
    /// x + k + 4q in its 128-bit quarter q, and the C kernels'
    /// raster_pack16_steps shifts, saturates and packs sixteen pixels
    /// (Swift's own shifts and masks took a third more instructions), then
    /// raster_pack8_steps the one 8-pixel vector that may fit before the
    /// row's end. Unsigned wrapping adds: past x1 a steep run's values may
    /// leave Int32 (those pixels are overwritten by later runs).
    @inline(__always)
    static func stepRun(_ p: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int, width: Int,
                        _ start: SIMD4<Int32>, _ step: SIMD4<Int32>) {
        let s = SIMD4<UInt32>(truncatingIfNeeded: start), d = SIMD4<UInt32>(truncatingIfNeeded: step)
        let bits = UInt32(RASTER_GRADIENT_STEP_BITS)
        let d2 = SIMD8<UInt32>(lowHalf: d, highHalf: d), d4 = SIMD16<UInt32>(lowHalf: d2, highHalf: d2)
        let s2 = SIMD8<UInt32>(lowHalf: s, highHalf: s)
        let quarter = SIMD16<UInt32>(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12)
        let d16 = d4 &<< 4
        var p0 = SIMD16<UInt32>(lowHalf: s2, highHalf: s2) &+ quarter &* d4
        var p1 = p0 &+ d4, p2 = p1 &+ d4, p3 = p2 &+ d4
        let words = UnsafeMutableRawPointer(p)
        var x = x0
        while x < x1 && x + 16 <= width {
            let w = raster_pack16_steps(SIMD16<Int32>(truncatingIfNeeded: p0), SIMD16<Int32>(truncatingIfNeeded: p1),
                                        SIMD16<Int32>(truncatingIfNeeded: p2), SIMD16<Int32>(truncatingIfNeeded: p3))
            words.storeBytes(of: w, toByteOffset: 4 * x, as: SIMD16<UInt32>.self)
            p0 &+= d16; p1 &+= d16; p2 &+= d16; p3 &+= d16
            x += 16
        }
        if x < x1 && x + Lanes.width <= width {
            let w = raster_pack8_steps(SIMD8<Int32>(truncatingIfNeeded: p0.lowHalf), SIMD8<Int32>(truncatingIfNeeded: p1.lowHalf),
                                       SIMD8<Int32>(truncatingIfNeeded: p2.lowHalf), SIMD8<Int32>(truncatingIfNeeded: p3.lowHalf))
            Lanes.store(w, to: p + 4 * x, count: Lanes.width)
            x += Lanes.width
        }
        while x < x1 {
            let v = (s &+ d &* UInt32(truncatingIfNeeded: x - x0)) &>> bits
            words.storeBytes(of: v.x | v.y << 8 | v.z << 16 | v.w << 24, toByteOffset: 4 * x, as: UInt32.self)
            x += 1
        }
    }

    @inline(__always)
    func storeLinearRunClamped(_ row: raster_gradient_row, _ span: raster_gradient_span, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>,
                               from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>) {
        let sign = span.sign, period = span.period, offset = span.offset, ux = row.ux, u0 = row.u0
        var x = x0
        while x + Lanes.width <= x1 {
            let t = (((Lanes.ramp + Float(x)) * ux + u0) - period) * sign + offset
            Lanes.store(Self.shade(t, sl, bi), to: p + 4 * x, count: Lanes.width)
            x += Lanes.width
        }
        if x < x1 {
            let t = (((Lanes.ramp + Float(x)) * ux + u0) - period) * sign + offset
            Lanes.store(Self.shade(t, sl, bi), to: p + 4 * x, count: x1 - x)
        }
    }

    /// Whether t * slope + bias + 1/2, evaluated in Float for t in [lo, hi],
    /// stays in [0, 256) on every channel with room for its rounding: the
    /// ends (an affine function's extremes) a quarter level inside, and
    /// coefficients small enough that Float's rounding stays far below that.
    @inline(__always)
    static func convertsUnclamped(_ sl: SIMD4<Float>, _ bi: SIMD4<Float>, _ lo: Float, _ hi: Float) -> Bool {
        let a = lo * sl + bi + 0.5, b = hi * sl + bi + 0.5
        let big = sl.replacing(with: -sl, where: sl .< 0) + bi.replacing(with: -bi, where: bi .< 0)
        return all(a .>= 0.25 .& a .<= 255.75 .& b .>= 0.25 .& b .<= 255.75 .& big .< 0x1p20)
    }

    /// raster_gradient_radial_fold: whether a radial run's colours are one
    /// multiply-add per channel from d, and the coefficients, from the
    /// frame's table when it holds the run's class (raster_gradient_fold_lookup).
    @inline(__always)
    static func radialFold(_ row: inout raster_gradient_row, _ span: inout raster_gradient_span,
                           _ folds: UnsafePointer<raster_gradient_fold_table>?, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>,
                           _ fold: inout (k: SIMD4<Float>, c: SIMD4<Float>)) -> Bool {
        if let folds {
            var k: UnsafePointer<Float>?, c: UnsafePointer<Float>?
            let held = raster_gradient_fold_lookup(folds, &span, &k, &c)
            if held >= 0 {
                if held == 0 { return false }
                fold = (UnsafeRawPointer(k!).loadUnaligned(as: SIMD4<Float>.self),
                        UnsafeRawPointer(c!).loadUnaligned(as: SIMD4<Float>.self))
                return true
            }
        }
        var sl = sl, bi = bi
        return withUnsafeMutablePointer(to: &sl) { slp in
            withUnsafeMutablePointer(to: &bi) { bip in
                withUnsafeMutablePointer(to: &fold.k) { kp in
                    withUnsafeMutablePointer(to: &fold.c) { cp in
                        raster_gradient_radial_fold(
                            &row, &span, UnsafeRawPointer(slp).assumingMemoryBound(to: Float.self),
                            UnsafeRawPointer(bip).assumingMemoryBound(to: Float.self),
                            UnsafeMutableRawPointer(kp).assumingMemoryBound(to: Float.self),
                            UnsafeMutableRawPointer(cp).assumingMemoryBound(to: Float.self)) != 0
                    }
                }
            }
        }
    }

    /// A radial run from raster_gradient_radial_fold's coefficients: each
    /// channel is d * k + c, the half of round-half-up inside c, within
    /// [1/8, 256 - 1/8] on the run's pixels (the fold's margin), so
    /// truncation is the rounded byte and no clamp is needed. The pixels
    /// are the C kernels' (raster_radial_lanes.h) and so is the loop's
    /// shape (gradient.c's radial_folded_loop), so both threaded backends
    /// give the same bytes. Whole vectors past the run's end may hold
    /// anything: later runs overwrite them.
    @inline(__always)
    func storeRadialRun(_ row: raster_gradient_row, _ k: SIMD4<Float>, _ c: SIMD4<Float>,
                        from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>) {
        // Alpha's multiply-add and conversion are a ninth of the loop's
        // instructions; an opaque ramp's alpha slope is 0, and d * 0 + c
        // is c, so its loop converts c (the same bytes).
        if k.w == 0 {
            storeRadialRun(row, k, c, from: x0, to: x1, p, flatAlpha: 1)
        } else {
            storeRadialRun(row, k, c, from: x0, to: x1, p, flatAlpha: 0)
        }
    }

    @inline(__always)
    func storeRadialRun(_ row: raster_gradient_row, _ k: SIMD4<Float>, _ c: SIMD4<Float>,
                        from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>, flatAlpha: Int32) {
        let cx = row.cx, dy2 = row.dy2, width = Int(row.width)
        // Whole floats (below 2^24): adding 16 is exact, as converting each x is.
        var xf = SIMD16<Float>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) + Float(x0)
        // One bound per loop: min(run end, row end - vector + 1).
        var x = x0
        let end16 = min(x1, width - 15)
        while x < end16 {
            UnsafeMutableRawPointer(p + 4 * x).storeBytes(of: raster_radial_folded16(xf, cx, dy2, k, c, flatAlpha),
                                                          as: SIMD16<UInt32>.self)
            xf += 16
            x += 16
        }
        // From x, not xf.lowHalf: this toolchain left that a call to the
        // generic SIMD16.lowHalf, with a vzeroupper (`objdump -d` of RunFrame.draw).
        var xf8 = Lanes.ramp + Float(x)
        if x < x1 && x < width - 7 {
            UnsafeMutableRawPointer(p + 4 * x).storeBytes(of: raster_radial_folded8(xf8, cx, dy2, k, c, flatAlpha),
                                                          as: WordLanes.self)
            xf8 += 8
            x += 8
        }
        if x < x1 { Lanes.store(raster_radial_folded8(xf8, cx, dy2, k, c, flatAlpha), to: p + 4 * x, count: x1 - x) }
    }

    /// A radial run whose colours need no clamp (convertsUnclamped): t is
    /// held in the run's interval [lo, hi] (it is there but for Float's
    /// rounding), the half of round-half-up is folded into the bias, and
    /// truncation in the C kernels' pack (raster_pack8_truncated) is the
    /// floor of the non-negative colour: the bytes of the openmp backend.
    @inline(__always)
    func storeRadialRunInterval(_ row: raster_gradient_row, _ span: raster_gradient_span, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>,
                                _ lo: Float, _ hi: Float, from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>) {
        // addingProduct with all operands vectors compiles to one vfmadd
        // here (objdump); the other run loops keep plain * and +.
        let a = FloatLanes(repeating: span.sign * row.inv_r), b = FloatLanes(repeating: span.offset - span.sign * span.period)
        let cx = row.cx, dy2 = FloatLanes(repeating: row.dy2), width = Int(row.width)
        let sr = FloatLanes(repeating: sl.x), sg = FloatLanes(repeating: sl.y)
        let sb = FloatLanes(repeating: sl.z), sa = FloatLanes(repeating: sl.w)
        let br = FloatLanes(repeating: bi.x + 0.5), bg = FloatLanes(repeating: bi.y + 0.5)
        let bb = FloatLanes(repeating: bi.z + 0.5), ba = FloatLanes(repeating: bi.w + 0.5)
        var x = x0
        // Whole floats (below 2^24): adding 8 is exact, as converting each x is.
        var xf = Lanes.ramp + Float(x0)
        while x < x1 && x + Lanes.width <= width {
            let dx = xf - cx
            xf += Float(Lanes.width)
            let t = Lanes.clamp(b.addingProduct(dy2.addingProduct(dx, dx).squareRoot(), a), lo, hi)
            let w = raster_pack8_truncated(br.addingProduct(t, sr), bg.addingProduct(t, sg),
                                           bb.addingProduct(t, sb), ba.addingProduct(t, sa))
            Lanes.store(w, to: p + 4 * x, count: Lanes.width)
            x += Lanes.width
        }
        if x < x1 { storeRadialRunClamped(row, span, sl, bi, from: x, to: x1, p) }
    }

    @inline(__always)
    func storeRadialRunClamped(_ row: raster_gradient_row, _ span: raster_gradient_span, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>,
                               from x0: Int, to x1: Int, _ p: UnsafeMutablePointer<UInt8>) {
        let sign = span.sign, period = span.period, offset = span.offset, cx = row.cx, inv = row.inv_r, dy2 = row.dy2
        var x = x0
        while x + Lanes.width <= x1 {
            let dx = (Lanes.ramp + Float(x)) - cx
            let t = ((dx * dx + dy2).squareRoot() * inv - period) * sign + offset
            Lanes.store(Self.shade(t, sl, bi), to: p + 4 * x, count: Lanes.width)
            x += Lanes.width
        }
        if x < x1 {
            let dx = (Lanes.ramp + Float(x)) - cx
            let t = ((dx * dx + dy2).squareRoot() * inv - period) * sign + offset
            Lanes.store(Self.shade(t, sl, bi), to: p + 4 * x, count: x1 - x)
        }
    }

    @inline(__always)
    func store(_ u: FloatLanes, to p: UnsafeMutablePointer<UInt8>, count: Int) {
        let t: FloatLanes
        switch extend {
        case .pad:
            // The stop rule pads by itself; the clamp only keeps lanes finite.
            t = Lanes.clamp(u, RASTER_GRADIENT_PAD_LOW, RASTER_GRADIENT_PAD_HIGH)
        case .repeat:
            t = u - u.rounded(.down)
        case .reflect:
            let m = u - 2 * (u * 0.5).rounded(.down)
            t = m.replacing(with: 2 - m, where: m .> 1)
        }
        var r = FloatLanes(repeating: biases[0].x), g = FloatLanes(repeating: biases[0].y)
        var b = FloatLanes(repeating: biases[0].z), a = FloatLanes(repeating: biases[0].w)
        starts.withUnsafeBufferPointer { starts in
            slopes.withUnsafeBufferPointer { slopes in
                biases.withUnsafeBufferPointer { biases in
                    for k in 1..<starts.count {
                        let inside = t .>= starts[k]
                        let sl = slopes[k], bi = biases[k]
                        r.replace(with: t * sl.x + bi.x, where: inside)
                        g.replace(with: t * sl.y + bi.y, where: inside)
                        b.replace(with: t * sl.z + bi.z, where: inside)
                        a.replace(with: t * sl.w + bi.w, where: inside)
                    }
                }
            }
        }
        Lanes.store(Lanes.packRGBA8(r, g, b, a), to: p, count: count)
    }
}
