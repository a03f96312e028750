import CRasterOMP
import Foundation

extension SIMDBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let grid = FreeformGrid(gradient, variant: variant, width: dst.width, height: dst.height)
        let table = variant == .lut ? scratch.influenceTable(exponent: gradient.exponent) : nil
        withFreeformLanes(gradient, grid: grid, table: table) { dispatch in
            switch dispatch {
            case let .quartic(k): render(k, grid, dst, scratch)
            case let .cubic(k): render(k, grid, dst, scratch)
            case let .integer(k): render(k, grid, dst, scratch)
            case let .power(k): render(k, grid, dst, scratch)
            case let .table(k): render(k, grid, dst, scratch)
            }
        }
    }

    private func render<C: WeightCurve>(_ kernel: FreeformLanes<C>, _ grid: FreeformGrid, _ dst: ImageView, _ scratch: Scratch) {
        guard let columns = grid.columns, let rows = grid.rows else {
            if kernel.swirl > 0 { renderSwirled(kernel, rows: dst.height, width: dst.width, FrameSink(dst: dst))
            } else { renderFrame(kernel.withColumns(width: dst.width, scratch), dst, Plain.self) }
            return
        }
        // The grid goes straight into the up-sampler's source planes (whose
        // rows hold whole vectors, so no tail case).
        let up = PlanarUpsampler(grid: grid, columns: columns, rows: rows, scratch: scratch)
        if kernel.swirl > 0 { renderSwirled(kernel, rows: up.sh, width: up.sw, up)
        } else { renderGrid(kernel.withColumns(width: up.sw, scratch), up, Plain.self) }
        up.run(into: dst, threads: threads, scratch: scratch)
    }

    /// Every pixel of the frame with sampler `S`, chosen at compile time so
    /// that the plain loop carries no trace of the swirl.
    private func renderFrame<C: WeightCurve, S: FreeformSampler>(_ kernel: FreeformLanes<C>, _ dst: ImageView, _: S.Type) {
        RowBands.run(height: dst.height, threads: threads) { rows in
            for y in rows {
                let row = dst.row(y)
                kernel.withRow(y) { plan in
                    @inline(__always) func body(_ x: Int, _ n: Int) {
                        let c = S.evaluate(kernel, x: x, plan)
                        Lanes.store(packBlend(c),
                                    to: row + 4 * x, count: n)
                    }
                    var x = 0
                    @inline(__always) func store16(_ c: (Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes), _ x: Int) {
                        UnsafeMutableRawPointer(row + 4 * x).storeBytes(of: raster_k1_pack16(c.0, c.1, c.2, c.3),
                                                                      as: Word16Lanes.self)
                    }
                    while x + 32 <= dst.width {
                        let (c0, c1) = S.evaluate32(kernel, x: x, plan)
                        store16(c0, x)
                        store16(c1, x + 16)
                        x += 32
                    }
                    while x + Lanes.width <= dst.width { body(x, Lanes.width); x += Lanes.width }
                    if x < dst.width { body(x, dst.width - x) }
                }
            }
        }
    }

    /// The swirled path in runs of 8 vectors: first every sample of the run
    /// is warped (independent polynomial chains the core can overlap),
    /// then the points meet the warped samples. Warping each vector just
    /// before its points measured 6.3 ms against 5.0 ms for this (750x1334,
    /// one thread): the sin/cos chain's latency stalled every vector.
    /// Pairs of vectors are warped as one of 16 lanes (`warp16`): the warp
    /// is 40-odd instructions a vector, and with AVX-512 that halves them
    /// (telegram frame 30, one thread: minima 2.98 against 2.55 ms, the
    /// freeform study). The blended vectors go to `sink`, a type rather
    /// than a closure so that its store is inlined into the row loop: as a
    /// closure it was a call per 8 pixels, with the four vectors handed
    /// over in 128-bit halves (`objdump -d` of the row closure).
    private func renderSwirled<C: WeightCurve, Sink: SwirlSink>(_ kernel: FreeformLanes<C>, rows height: Int, width: Int,
                                                                _ sink: Sink) {
        let run = 8
        RowBands.run(height: height, threads: threads) { rows in
            withUnsafeTemporaryAllocation(of: FloatLanes.self, capacity: 2 * run) { warped in
                for y in rows {
                    kernel.withRow(y) { plan in
                        var x0 = 0
                        while x0 < width {
                            let vectors = min(run, (width - x0 + Lanes.width - 1) / Lanes.width)
                            // Two vectors a step; an odd last one takes a
                            // whole step too, whose second half (samples past
                            // the run, never stored) lands in `warped`'s spare
                            // slots: 2 (vectors + 1) <= 2 run for odd vectors.
                            var v = 0
                            while v < vectors {
                                kernel.warp16(x: x0 + v * Lanes.width, qy: plan.qy, into: warped.baseAddress! + 2 * v)
                                v += 2
                            }
                            for v in 0..<vectors {
                                let x = x0 + v * Lanes.width
                                sink.store(kernel.evaluateWarped(warped[2 * v], warped[2 * v + 1], plan), x: x, y: y,
                                           count: min(Lanes.width, width - x))
                            }
                            x0 += run * Lanes.width
                        }
                    }
                }
            }
        }
    }

    private func renderGrid<C: WeightCurve, S: FreeformSampler>(_ kernel: FreeformLanes<C>, _ up: PlanarUpsampler, _: S.Type) {
        RowBands.run(height: up.sh, threads: threads) { rows in
            for y in rows {
                kernel.withRow(y) { plan in
                    // 32 pixels a step where they fit, as `renderFrame`.
                    @inline(__always) func store16(_ c: (Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes), _ x: Int) {
                        up.store((c.0.lowHalf, c.1.lowHalf, c.2.lowHalf, c.3.lowHalf), x: x, y: y, count: Lanes.width)
                        up.store((c.0.highHalf, c.1.highHalf, c.2.highHalf, c.3.highHalf), x: x + Lanes.width, y: y,
                                 count: Lanes.width)
                    }
                    var x = 0
                    while x + 32 <= up.sw {
                        let (c0, c1) = S.evaluate32(kernel, x: x, plan)
                        store16(c0, x)
                        store16(c1, x + 16)
                        x += 32
                    }
                    while x < up.sw {
                        up.store(S.evaluate(kernel, x: x, plan), x: x, y: y, count: Lanes.width)
                        x += Lanes.width
                    }
                }
            }
        }
    }
}

/// Where the swirled path's blended vectors go: the frame's pixels, or the
/// up-sampler's source planes (`PlanarUpsampler`).
protocol SwirlSink {
    func store(_ c: (FloatLanes, FloatLanes, FloatLanes, FloatLanes), x: Int, y: Int, count: Int)
}

/// The frame's RGBA8 pixels.
struct FrameSink: SwirlSink {
    let dst: ImageView
    @inline(__always)
    func store(_ c: (FloatLanes, FloatLanes, FloatLanes, FloatLanes), x: Int, y: Int, count: Int) {
        Lanes.store(packBlend(c), to: dst.row(y) + 4 * x, count: count)
    }
}

/// Packed RGBA8 of K1's blended channels (with a uniform alpha the alpha
/// lanes are that alpha): the C step the openmp backend also uses, a
/// truncating conversion and saturating packs. A free function, not a
/// method of the generic `FreeformLanes`: as a method the optimiser left
/// the pack a call with its vectors passed in 128-bit halves.
@inline(__always)
private func packBlend(_ c: (FloatLanes, FloatLanes, FloatLanes, FloatLanes)) -> WordLanes {
    raster_k1_pack8(c.0, c.1, c.2, c.3)
}

/// How a row's vectors are evaluated (the plain sampler; the swirled path
/// has its own loop, `renderSwirled`).
protocol FreeformSampler {
    static func evaluate<C: WeightCurve>(_ k: FreeformLanes<C>, x: Int, _ plan: FreeformLanes<C>.RowPlan)
        -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes)
    /// 32 pixels as two vectors of 16 lanes.
    static func evaluate32<C: WeightCurve>(_ k: FreeformLanes<C>, x: Int, _ plan: FreeformLanes<C>.RowPlan)
        -> ((Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes), (Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes))
}

enum Plain: FreeformSampler {
    @inline(__always)
    static func evaluate<C: WeightCurve>(_ k: FreeformLanes<C>, x: Int, _ plan: FreeformLanes<C>.RowPlan)
        -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) { k.evaluate(x: x, plan) }
    @inline(__always)
    static func evaluate32<C: WeightCurve>(_ k: FreeformLanes<C>, x: Int, _ plan: FreeformLanes<C>.RowPlan)
        -> ((Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes), (Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes)) {
        k.evaluate32(x: x, plan)
    }
}

/// K1 evaluated one vector of pixels of a row at a time.
///
/// The influence curve is a type parameter (`WeightCurve`), not a runtime
/// switch, so each instantiation of `evaluate` is a straight run of vector
/// arithmetic with the curve inlined; the switch happens once per call in
/// `withFreeformLanes`.
///
/// Distances are measured in units of L (`scaledX`, `scaledY`, the row
/// plan's dy^2 and the column table), so the curve gets d^2 / L^2 and the
/// fall-off 1 - d / L is a subtraction, not a multiply-add. Colours are
/// blended as the first reaching point's colour plus the others' weighted
/// differences from it: sum(f_i c_i) / S = c_b + sum(f_i (c_i - c_b)) / S,
/// so the base point costs only its weight, and when every point has the
/// same alpha (opaque colours, the usual case) the alpha channel is that
/// alpha and is not accumulated at all.
struct FreeformLanes<Curve: WeightCurve> {
    let count: Int
    /// The points in the gradient's coordinates (for the row plan).
    let px: UnsafeBufferPointer<Float>, py: UnsafeBufferPointer<Float>
    /// The points divided by L.
    let scaledX: UnsafeBufferPointer<Float>, scaledY: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<SIMD4<Float>>
    let curve: Curve
    /// L and 1 / L in the points' coordinates.
    let influence: Float, invL: Float
    /// Pixel (i, j) samples q = ((i + 0.5) sampleX, (j + 0.5) sampleY) in
    /// the points' coordinates (`FreeformGrid`).
    let sampleX: Float, sampleY: Float
    /// Telegram's swirl (0: none; unit space only).
    let swirl: Float
    /// Whether every point has the same alpha (then so has every blend).
    let uniformAlpha: Bool
    /// Per point, ((i + 0.5) sampleX - p_x)^2 / L^2 for every column i of
    /// the row (`pitch` floats a point): the x part of d^2 / L^2, the same
    /// on every row, so a plain row needs one add per point for its
    /// squared distances. Nil on the swirled path (its samples leave their row).
    var columns: UnsafePointer<Float>? = nil
    var pitch = 0

    /// This kernel with its column table filled for rows `width` pixels
    /// wide (whole vectors, so the last vector reads no further).
    func withColumns(width: Int, _ scratch: Scratch) -> FreeformLanes {
        var k = self
        k.pitch = (width + Lanes.width - 1) / Lanes.width * Lanes.width
        let table = scratch.buffer(ScratchSlot.freeformColumns, count: max(1, count * k.pitch), of: Float.self)
        for i in 0..<count {
            for x in 0..<k.pitch {
                let dx = ((Float(x) + 0.5) * sampleX - px[i]) * invL
                table[i * k.pitch + x] = dx * dx
            }
        }
        k.columns = UnsafePointer(table)
        return k
    }

    /// A point that can reach row y: where its columns start in the column
    /// table, its vertical offset squared (over L^2), the x range (in sample
    /// coordinates) of the row it can reach and its colour's difference
    /// from the row's base colour (scalars, so each is one broadcast load).
    struct Reach {
        var index: Int, offset: Int
        var dy2: Float
        var xMin: Float, xMax: Float
        var dr: Float, dg: Float, db: Float, da: Float
    }

    /// The points whose influence disc reaches row y, so that vectors the
    /// disc misses skip the point entirely. A skipped point's weight would
    /// have been exactly 0 (the discs are widened by a relative 1e-4, far
    /// beyond Float rounding of d / L), so the image is unchanged. A swirl
    /// moves the samples off their row, so then every point is in the plan
    /// (only its colour difference is used). `base` is the colour the blend
    /// starts from: the first reaching point's (the first point's when none
    /// reaches, or with a swirl).
    struct RowPlan {
        let qy: Float
        let reach: UnsafeMutableBufferPointer<Reach>
        var count: Int
        let base: SIMD4<Float>
    }

    @inline(__always)
    func withRow<R>(_ y: Int, _ body: (RowPlan) -> R) -> R {
        let qy = (Float(y) + 0.5) * sampleY
        let reachL = influence * (1 + 1e-4)
        return withUnsafeTemporaryAllocation(of: Reach.self, capacity: count) { buffer in
            var n = 0
            var base = colors[0]
            for i in 0..<count {
                var dy2: Float = 0, xMin = -Float.infinity, xMax = Float.infinity
                if swirl == 0 {
                    let dy = qy - py[i]
                    let h2 = reachL * reachL - dy * dy
                    guard h2 > 0 else { continue }
                    let h = h2.squareRoot() + 1e-3
                    if n == 0 { base = colors[i] }
                    let dyL = dy * invL
                    dy2 = raster_k1_row_dy2(dyL); xMin = px[i] - h; xMax = px[i] + h
                }
                let d = colors[i] - base
                buffer[n] = Reach(index: i, offset: i &* pitch, dy2: dy2, xMin: xMin, xMax: xMax,
                                  dr: d.x, dg: d.y, db: d.z, da: d.w)
                n += 1
            }
            return body(RowPlan(qy: qy, reach: buffer, count: n, base: base))
        }
    }

    /// Channels (r, g, b, a) of the `Lanes.width` pixels starting at x in
    /// the plan's row (no swirl; needs `withColumns`).
    @inline(__always)
    func evaluate(x: Int, _ plan: RowPlan) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let left = (Float(x) + 0.5) * sampleX, right = (Float(x) + 0.5 + Float(Lanes.width - 1)) * sampleX
        let table = UnsafeRawPointer(self.columns.unsafelyUnwrapped)
        var sum = FloatLanes(), r = FloatLanes(), g = FloatLanes(), b = FloatLanes(), a = FloatLanes()
        for k in 0..<plan.count {
            let p = plan.reach[k]
            if p.xMax < left || p.xMin > right { continue }
            let dx2 = table.loadUnaligned(fromByteOffset: 4 &* (p.offset &+ x), as: FloatLanes.self)
            let f = curve.weight(dx2 + p.dy2)
            sum += f
            // The base point's difference is zero.
            if k == 0 { continue }
            r = r.addingProduct(f, p.dr); g = g.addingProduct(f, p.dg); b = b.addingProduct(f, p.db)
            if !uniformAlpha { a = a.addingProduct(f, p.da) }
        }
        return finish(x: x, sum, r, g, b, a, plan)
    }

    /// `evaluate` of the 32 pixels at x as two vectors of 16 lanes (one
    /// AVX-512 register each: the same arithmetic lane by lane in half the
    /// instructions, which the quartic curve's estimated square root in
    /// raster_k1_quartic16 needs to be cheaper than the square-root unit; two,
    /// so that two chains from the square roots to the divide are
    /// independent, as in C's `chunk_quartic`: one alone waited on the
    /// divide). A point is skipped only when it reaches none of the 32
    /// pixels; where it does not reach, its weight is 0, so the sums are
    /// those of `evaluate`. The full frame's store packs 16 pixels at once
    /// (raster_k1_pack16).
    @inline(__always)
    func evaluate32(x: Int, _ plan: RowPlan) -> ((Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes),
                                                (Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes)) {
        let w = 16
        let left = (Float(x) + 0.5) * sampleX, right = (Float(x) + 0.5 + Float(2 * w - 1)) * sampleX
        let table = UnsafeRawPointer(self.columns.unsafelyUnwrapped)
        var sum0 = Float16Lanes(), r0 = Float16Lanes(), g0 = Float16Lanes(), b0 = Float16Lanes(), a0 = Float16Lanes()
        var sum1 = Float16Lanes(), r1 = Float16Lanes(), g1 = Float16Lanes(), b1 = Float16Lanes(), a1 = Float16Lanes()
        // One loop per alpha case, so that the usual one (a uniform alpha)
        // has no alpha accumulators: with them the register allocator kept
        // five of the ten in memory, a load and a store per multiply-add
        // (`perf annotate` of the full-frame closure).
        @inline(__always) func accumulate(alpha: Bool) {
            for k in 0..<plan.count {
                let p = plan.reach[k]
                if p.xMax < left || p.xMin > right { continue }
                let offset = 4 &* (p.offset &+ x)
                let f0 = curve.weight16(table.loadUnaligned(fromByteOffset: offset, as: Float16Lanes.self) + p.dy2)
                let f1 = curve.weight16(table.loadUnaligned(fromByteOffset: offset &+ 4 &* w, as: Float16Lanes.self) + p.dy2)
                sum0 += f0; sum1 += f1
                if k == 0 { continue }
                r0 = r0.addingProduct(f0, p.dr); g0 = g0.addingProduct(f0, p.dg); b0 = b0.addingProduct(f0, p.db)
                r1 = r1.addingProduct(f1, p.dr); g1 = g1.addingProduct(f1, p.dg); b1 = b1.addingProduct(f1, p.db)
                if alpha { a0 = a0.addingProduct(f0, p.da); a1 = a1.addingProduct(f1, p.da) }
            }
        }
        if uniformAlpha { accumulate(alpha: false) } else { accumulate(alpha: true) }
        return (finish16(x: x, sum0, r0, g0, b0, a0, plan), finish16(x: x + w, sum1, r1, g1, b1, a1, plan))
    }

    /// `finish` on 16 lanes (the empty-lane case by halves).
    @inline(__always)
    func finish16(x: Int, _ sum: Float16Lanes, _ r: Float16Lanes, _ g: Float16Lanes, _ b: Float16Lanes, _ a: Float16Lanes,
                  _ plan: RowPlan) -> (Float16Lanes, Float16Lanes, Float16Lanes, Float16Lanes) {
        if _slowPath(Lanes.any(sum.lowHalf .== 0) || Lanes.any(sum.highHalf .== 0)) {
            let w = Lanes.width
            let lo = finish(x: x, sum.lowHalf, r.lowHalf, g.lowHalf, b.lowHalf, a.lowHalf, plan)
            let hi = finish(x: x + w, sum.highHalf, r.highHalf, g.highHalf, b.highHalf, a.highHalf, plan)
            return (Float16Lanes(lowHalf: lo.0, highHalf: hi.0), Float16Lanes(lowHalf: lo.1, highHalf: hi.1),
                    Float16Lanes(lowHalf: lo.2, highHalf: hi.2), Float16Lanes(lowHalf: lo.3, highHalf: hi.3))
        }
        // `normalise` on 16 lanes.
        let inv = raster_k1_reciprocal16(sum), base = plan.base
        let alpha = uniformAlpha ? Float16Lanes(repeating: base.w) : Float16Lanes(repeating: base.w).addingProduct(a, inv)
        return (Float16Lanes(repeating: base.x).addingProduct(r, inv), Float16Lanes(repeating: base.y).addingProduct(g, inv),
                Float16Lanes(repeating: base.z).addingProduct(b, inv), alpha)
    }

    /// The blend of the vector at x from its sums: `normalise`, and the
    /// nearest point's colour where no point reaches.
    @inline(__always)
    func finish(x: Int, _ sum: FloatLanes, _ r: FloatLanes, _ g: FloatLanes, _ b: FloatLanes, _ a: FloatLanes,
                _ plan: RowPlan) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let blend = normalise(sum, plan.base, r, g, b, a)
        if _slowPath(Lanes.any(sum .== 0)) {
            let qx = (Lanes.ramp + (Float(x) + 0.5)) * (sampleX * invL)
            return nearestFill(qx: qx, qy: FloatLanes(repeating: plan.qy * invL), empty: sum .== 0, blend)
        }
        return blend
    }

    /// base + (r, g, b, a) / sum (lanes whose sum is 0 are left to `nearestFill`).
    @inline(__always)
    func normalise(_ sum: FloatLanes, _ base: SIMD4<Float>, _ r: FloatLanes, _ g: FloatLanes, _ b: FloatLanes,
                   _ a: FloatLanes) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        // raster_k1_fma8, not addingProduct: see its note.
        let inv = raster_k1_reciprocal8(sum)
        let alpha = uniformAlpha ? FloatLanes(repeating: base.w) : raster_k1_fma8(a, inv, FloatLanes(repeating: base.w))
        return (raster_k1_fma8(r, inv, FloatLanes(repeating: base.x)), raster_k1_fma8(g, inv, FloatLanes(repeating: base.y)),
                raster_k1_fma8(b, inv, FloatLanes(repeating: base.z)), alpha)
    }

    /// The swirled samples of the 16 pixels at x -- q rotated about
    /// (0.5, 0.5) by swirl |q - m|^2 and clamped to [0, 1]^2 -- into
    /// out[0...3] (x's wx, wy, then x + 8's), by raster_k1_swirl16 (the
    /// warp both threaded backends share), one 512-bit register a step
    /// with AVX-512.
    @inline(__always)
    func warp16(x: Int, qy: Float, into out: UnsafeMutablePointer<FloatLanes>) {
        let qx = (Lanes.ramp16 + (Float(x) + 0.5)) * sampleX
        UnsafeMutableRawPointer(out).withMemoryRebound(to: Float.self, capacity: 4 * Lanes.width) {
            raster_k1_swirl16(qx - 0.5, qy - 0.5, swirl, $0)
        }
    }

    /// K1 at warped samples (wx, wy): every point of the swirl's plan (the
    /// first point the base colour).
    @inline(__always)
    func evaluateWarped(_ wx: FloatLanes, _ wy: FloatLanes, _ plan: RowPlan) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let qx = wx * invL, qy = wy * invL
        var sum = FloatLanes(), r = FloatLanes(), g = FloatLanes(), b = FloatLanes(), a = FloatLanes()
        for k in 0..<plan.count {
            let p = plan.reach[k]
            let ex = qx - scaledX[p.index], ey = qy - scaledY[p.index]
            let f = curve.weight((ey * ey).addingProduct(ex, ex))
            sum += f
            if k == 0 { continue }
            r = r.addingProduct(f, p.dr); g = g.addingProduct(f, p.dg); b = b.addingProduct(f, p.db)
            if !uniformAlpha { a = a.addingProduct(f, p.da) }
        }
        let blend = normalise(sum, plan.base, r, g, b, a)
        if _slowPath(Lanes.any(sum .== 0)) { return nearestFill(qx: qx, qy: qy, empty: sum .== 0, blend) }
        return blend
    }

    /// Lanes with no point in range take the nearest point's colour (lowest
    /// index on ties); the rest keep their blend. (qx, qy) are the samples
    /// over L.
    @inline(never)
    func nearestFill(qx: FloatLanes, qy: FloatLanes, empty: SIMDMask<FloatLanes.MaskStorage>,
                     _ blend: (FloatLanes, FloatLanes, FloatLanes, FloatLanes))
        -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        var out = blend
        var best = FloatLanes(repeating: .infinity)
        for i in 0..<count {
            let dx = qx - scaledX[i], dy = qy - scaledY[i]
            let d2 = dx * dx + dy * dy
            let closer = empty .& (d2 .< best)
            best.replace(with: d2, where: closer)
            let c = colors[i]
            out.0.replace(with: c.x, where: closer)
            out.1.replace(with: c.y, where: closer)
            out.2.replace(with: c.z, where: closer)
            out.3.replace(with: c.w, where: closer)
        }
        return out
    }
}

/// Calls `body` with a `FreeformLanes` specialised for the gradient's curve,
/// sampling `grid`.
func withFreeformLanes<R>(_ g: FreeformGradient, grid: FreeformGrid, table: UnsafePointer<Float>?,
                          _ body: (FreeformLanesDispatch) -> R) -> R {
    g.withPoints(scaledBy: grid.pointScale) { points in
        let invL = Float(1 / points.influence)
        let alpha = points.colors[0].w
        let uniformAlpha = points.colors.allSatisfy { $0.w == alpha }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * points.count) { scaled in
            for i in 0..<points.count {
                scaled[i] = points.x[i] * invL
                scaled[points.count + i] = points.y[i] * invL
            }
            func make<C: WeightCurve>(_ c: C) -> FreeformLanes<C> {
                FreeformLanes(count: points.count, px: points.x, py: points.y,
                              scaledX: UnsafeBufferPointer(rebasing: scaled[0..<points.count]),
                              scaledY: UnsafeBufferPointer(rebasing: scaled[points.count...]),
                              colors: points.colors, curve: c, influence: Float(points.influence), invL: invL,
                              sampleX: Float(grid.sampleX), sampleY: Float(grid.sampleY),
                              swirl: Float(g.swirl), uniformAlpha: uniformAlpha)
            }
            if let table { return body(.table(make(TableCurve(values: table)))) }
            switch g.integerExponent {
            case 4: return body(.quartic(make(QuarticCurve())))
            case 3: return body(.cubic(make(CubicCurve())))
            case let .some(e): return body(.integer(make(IntegerCurve(exponent: e))))
            case .none: return body(.power(make(PowerCurve(exponent: Float(g.exponent)))))
            }
        }
    }
}

/// The specialisations `withFreeformLanes` can hand out.
enum FreeformLanesDispatch {
    case quartic(FreeformLanes<QuarticCurve>)
    case cubic(FreeformLanes<CubicCurve>)
    case integer(FreeformLanes<IntegerCurve>)
    case power(FreeformLanes<PowerCurve>)
    case table(FreeformLanes<TableCurve>)
}

/// f = max(0, 1 - d/L)^e in one of its computable forms, from t = d^2 / L^2.
protocol WeightCurve {
    func weight(_ t: FloatLanes) -> FloatLanes
    /// The same for 16 lanes (`evaluate32`).
    func weight16(_ t: Float16Lanes) -> Float16Lanes
}

extension WeightCurve {
    @inline(__always)
    static func base(_ t: FloatLanes) -> FloatLanes {
        Lanes.positivePart(1 - t.squareRoot())
    }

    /// Each half as `weight` computes it.
    @inline(__always)
    func weight16(_ t: Float16Lanes) -> Float16Lanes {
        Float16Lanes(lowHalf: weight(t.lowHalf), highHalf: weight(t.highHalf))
    }
}

/// e = 4, the contract's default and the suite's fixture: two squarings.
/// The curve is the openmp quartic blend's (raster_k1_quartic16 and its
/// 8-lane twin: with AVX-512 an estimated square root and a Newton step,
/// which raster_k1_lanes.h argues and the freeform study measured), so
/// both backends draw the same bytes. Its argument is at least
/// RASTER_K1_ROOT_FLOOR (the row plan's dy^2 / L^2 comes from
/// raster_k1_row_dy2).
struct QuarticCurve: WeightCurve {
    @inline(__always) func weight(_ t: FloatLanes) -> FloatLanes {
        raster_k1_quartic8(t)
    }

    @inline(__always) func weight16(_ t: Float16Lanes) -> Float16Lanes { raster_k1_quartic16(t) }
}

/// e = 3, Telegram iOS's renderer: a square and a product, unrolled (the
/// generic loop below measured more than twice as slow per point).
struct CubicCurve: WeightCurve {
    @inline(__always) func weight(_ t: FloatLanes) -> FloatLanes {
        let m = Self.base(t)
        return m * m * m
    }
}

/// Other whole exponents up to 16: repeated multiplication.
struct IntegerCurve: WeightCurve {
    let exponent: Int
    @inline(__always) func weight(_ t: FloatLanes) -> FloatLanes {
        let m = Self.base(t)
        var f = m
        for _ in 1..<exponent { f *= m }
        return f
    }
}

/// Fractional exponents: powf per lane (Swift SIMD has no vector pow).
struct PowerCurve: WeightCurve {
    let exponent: Float
    @inline(__always) func weight(_ t: FloatLanes) -> FloatLanes {
        let m = Self.base(t)
        var f = FloatLanes()
        for i in 0..<Lanes.width { f[i] = powf(m[i], exponent) }
        return f
    }
}

/// The `lut` variant: the table index computed for the whole vector, then
/// one read of each lane's two entries (Swift SIMD has no gather).
struct TableCurve: WeightCurve {
    let values: UnsafePointer<Float>
    @inline(__always) func weight(_ t: FloatLanes) -> FloatLanes {
        let last = Float(InfluenceTable.intervals)
        let pos = Lanes.minimum(t * last, last)
        let whole = pos.rounded(.down)
        let index = unsafeBitCast(whole + Lanes.magic, to: WordLanes.self) &- Lanes.magicBits
        var lo = FloatLanes(), hi = FloatLanes()
        for i in 0..<Lanes.width {
            let k = Int(index[i])
            lo[i] = values[k]; hi[i] = values[k + 1]
        }
        return lo.addingProduct(pos - whole, hi - lo)
    }
}
