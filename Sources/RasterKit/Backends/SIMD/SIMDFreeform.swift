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
            if kernel.swirl > 0 { renderSwirled(kernel, rows: dst.height, width: dst.width) { c, x, y, n in
                Lanes.store(Lanes.packRGBA8(c.0, c.1, c.2, c.3), to: dst.row(y) + 4 * x, count: n)
            } } else { renderFrame(kernel, dst, Plain.self) }
            return
        }
        // The grid goes straight into the up-sampler's source planes (whose
        // rows hold whole vectors, so no tail case).
        let up = PlanarUpsampler(grid: grid, columns: columns, rows: rows, scratch: scratch)
        if kernel.swirl > 0 { renderSwirled(kernel, rows: up.sh, width: up.sw) { c, x, y, _ in
            up.storeSource(c, x: x, y: y, count: Lanes.width)
        } } else { renderGrid(kernel, up, Plain.self) }
        up.run(into: dst, threads: threads)
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
                        Lanes.store(Lanes.packRGBA8(c.0, c.1, c.2, c.3), to: row + 4 * x, count: n)
                    }
                    var x = 0
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
    private func renderSwirled<C: WeightCurve>(_ kernel: FreeformLanes<C>, rows height: Int, width: Int,
                                               _ emit: (_ c: (FloatLanes, FloatLanes, FloatLanes, FloatLanes), _ x: Int, _ y: Int, _ n: Int) -> Void) {
        let run = 8
        RowBands.run(height: height, threads: threads) { rows in
            withUnsafeTemporaryAllocation(of: FloatLanes.self, capacity: 2 * run) { warped in
                for y in rows {
                    let qy = (Float(y) + 0.5) * kernel.sampleY
                    var x0 = 0
                    while x0 < width {
                        let vectors = min(run, (width - x0 + Lanes.width - 1) / Lanes.width)
                        for v in 0..<vectors {
                            let w = kernel.warp(x: x0 + v * Lanes.width, qy: qy)
                            warped[2 * v] = w.0; warped[2 * v + 1] = w.1
                        }
                        for v in 0..<vectors {
                            let x = x0 + v * Lanes.width
                            emit(kernel.evaluateWarped(warped[2 * v], warped[2 * v + 1]), x, y, min(Lanes.width, width - x))
                        }
                        x0 += run * Lanes.width
                    }
                }
            }
        }
    }

    private func renderGrid<C: WeightCurve, S: FreeformSampler>(_ kernel: FreeformLanes<C>, _ up: PlanarUpsampler, _: S.Type) {
        RowBands.run(height: up.sh, threads: threads) { rows in
            for y in rows {
                kernel.withRow(y) { plan in
                    var x = 0
                    while x < up.sw {
                        up.storeSource(S.evaluate(kernel, x: x, plan), x: x, y: y, count: Lanes.width)
                        x += Lanes.width
                    }
                }
            }
        }
    }
}

/// How a row's vectors are evaluated (the plain sampler; the swirled path
/// has its own loop, `renderSwirled`).
protocol FreeformSampler {
    static func evaluate<C: WeightCurve>(_ k: FreeformLanes<C>, x: Int, _ plan: FreeformLanes<C>.RowPlan)
        -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes)
}

enum Plain: FreeformSampler {
    @inline(__always)
    static func evaluate<C: WeightCurve>(_ k: FreeformLanes<C>, x: Int, _ plan: FreeformLanes<C>.RowPlan)
        -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) { k.evaluate(x: x, plan) }
}

/// K1 evaluated one vector of pixels of a row at a time.
///
/// The influence curve is a type parameter (`WeightCurve`), not a runtime
/// switch, so each instantiation of `evaluate` is a straight run of vector
/// arithmetic with the curve inlined; the switch happens once per call in
/// `withFreeformLanes`.
struct FreeformLanes<Curve: WeightCurve> {
    let count: Int
    /// L, in pixels.
    let influence: Float
    let px: UnsafeBufferPointer<Float>, py: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<SIMD4<Float>>
    let curve: Curve
    /// Pixel (i, j) samples q = ((i + 0.5) sampleX, (j + 0.5) sampleY) in
    /// the points' coordinates (`FreeformGrid`).
    let sampleX: Float, sampleY: Float
    /// Telegram's swirl (0: none; unit space only).
    let swirl: Float

    /// A point that can reach row y: its vertical offset squared and the x
    /// range (in sample coordinates) of the row it can reach.
    struct Reach {
        var index: Int
        var dy2: Float
        var xMin: Float, xMax: Float
    }

    /// The points whose influence disc reaches row y, so that vectors the
    /// disc misses skip the point entirely. A skipped point's weight would
    /// have been exactly 0 (the discs are widened by a relative 1e-4, far
    /// beyond Float rounding of d / L), so the image is unchanged. A swirl
    /// moves the samples off their row, so then no plan is made and every
    /// point is evaluated.
    struct RowPlan {
        let qy: Float
        let reach: UnsafeMutableBufferPointer<Reach>
        var count: Int
    }

    @inline(__always)
    func withRow<R>(_ y: Int, _ body: (RowPlan) -> R) -> R {
        let qy = (Float(y) + 0.5) * sampleY
        let reachL = influence * (1 + 1e-4)
        return withUnsafeTemporaryAllocation(of: Reach.self, capacity: count) { buffer in
            var n = 0
            for i in 0..<count where swirl == 0 {
                let dy = qy - py[i]
                let h2 = reachL * reachL - dy * dy
                guard h2 > 0 else { continue }
                let h = h2.squareRoot() + 1e-3
                buffer[n] = Reach(index: i, dy2: dy * dy, xMin: px[i] - h, xMax: px[i] + h)
                n += 1
            }
            return body(RowPlan(qy: qy, reach: buffer, count: n))
        }
    }

    /// Channels (r, g, b, a) of the `Lanes.width` pixels starting at x in
    /// the plan's row (no swirl).
    @inline(__always)
    func evaluate(x: Int, _ plan: RowPlan) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        // Pixel space samples pixel centres: no multiply there (measured).
        var qx = Lanes.ramp + (Float(x) + 0.5)
        var left = Float(x) + 0.5, right = Float(x) + 0.5 + Float(Lanes.width - 1)
        if sampleX != 1 { qx *= sampleX; left *= sampleX; right *= sampleX }
        var sum = FloatLanes(), r = FloatLanes(), g = FloatLanes(), b = FloatLanes(), a = FloatLanes()
        for k in 0..<plan.count {
            let p = plan.reach[k]
            if p.xMax < left || p.xMin > right { continue }
            let dx = qx - px[p.index]
            let f = curve.weight(FloatLanes(repeating: p.dy2).addingProduct(dx, dx))
            let c = colors[p.index]
            sum += f
            r = r.addingProduct(f, c.x); g = g.addingProduct(f, c.y)
            b = b.addingProduct(f, c.z); a = a.addingProduct(f, c.w)
        }
        let empty = sum .== 0
        if _slowPath(any(empty)) {
            return nearestFill(qx: qx, qy: FloatLanes(repeating: plan.qy), empty: empty, r, g, b, a, sum)
        }
        let inv = 1 / sum
        return (r * inv, g * inv, b * inv, a * inv)
    }

    /// The swirled samples of the vector at x: q rotated about (0.5, 0.5)
    /// by swirl |q - m|^2 (`SwirlSinCos`) and clamped to [0, 1]^2.
    @inline(__always)
    func warp(x: Int, qy: Float) -> (FloatLanes, FloatLanes) {
        let qx = (Lanes.ramp + (Float(x) + 0.5)) * sampleX
        let dx = qx - 0.5, dy = FloatLanes(repeating: qy - 0.5)
        let (sn, cs) = SwirlSinCos.evaluate(swirl * (dy * dy).addingProduct(dx, dx))
        return (Lanes.clamp((0.5 + dx * cs) - dy * sn, 0, 1), Lanes.clamp((0.5 + dx * sn) + dy * cs, 0, 1))
    }

    /// K1 at warped samples (wx, wy): every point (no row plan).
    @inline(__always)
    func evaluateWarped(_ wx: FloatLanes, _ wy: FloatLanes) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        var sum = FloatLanes(), r = FloatLanes(), g = FloatLanes(), b = FloatLanes(), a = FloatLanes()
        for i in 0..<count {
            let ex = wx - px[i], ey = wy - py[i]
            let f = curve.weight((ey * ey).addingProduct(ex, ex))
            let c = colors[i]
            sum += f
            r = r.addingProduct(f, c.x); g = g.addingProduct(f, c.y)
            b = b.addingProduct(f, c.z); a = a.addingProduct(f, c.w)
        }
        let empty = sum .== 0
        if _slowPath(any(empty)) { return nearestFill(qx: wx, qy: wy, empty: empty, r, g, b, a, sum) }
        let inv = 1 / sum
        return (r * inv, g * inv, b * inv, a * inv)
    }

    /// Lanes with no point in range take the nearest point's colour (lowest
    /// index on ties); the rest keep their weighted average.
    @inline(never)
    func nearestFill(qx: FloatLanes, qy: FloatLanes, empty: SIMDMask<FloatLanes.MaskStorage>,
                     _ r: FloatLanes, _ g: FloatLanes, _ b: FloatLanes, _ a: FloatLanes, _ sum: FloatLanes)
        -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let inv = 1 / sum.replacing(with: 1, where: empty)
        var out = (r * inv, g * inv, b * inv, a * inv)
        var best = FloatLanes(repeating: .infinity)
        for i in 0..<count {
            let dx = qx - px[i], dy = qy - py[i]
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
        func make<C: WeightCurve>(_ c: C) -> FreeformLanes<C> {
            FreeformLanes(count: points.count, influence: Float(points.influence), px: points.x, py: points.y,
                          colors: points.colors, curve: c, sampleX: Float(grid.sampleX), sampleY: Float(grid.sampleY),
                          swirl: Float(g.swirl))
        }
        if let table { return body(.table(make(TableCurve(values: table, invL: invL)))) }
        switch g.integerExponent {
        case 4: return body(.quartic(make(QuarticCurve(invL: invL))))
        case 3: return body(.cubic(make(CubicCurve(invL: invL))))
        case let .some(e): return body(.integer(make(IntegerCurve(invL: invL, exponent: e))))
        case .none: return body(.power(make(PowerCurve(invL: invL, exponent: Float(g.exponent)))))
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

/// f(d^2) = max(0, 1 - d/L)^e in one of its computable forms.
protocol WeightCurve {
    func weight(_ d2: FloatLanes) -> FloatLanes
}

extension WeightCurve {
    @inline(__always)
    static func base(_ d2: FloatLanes, _ invL: Float) -> FloatLanes {
        Lanes.positivePart(FloatLanes(repeating: 1).addingProduct(d2.squareRoot(), -invL))
    }
}

/// e = 4, Telegram's default: two squarings.
struct QuarticCurve: WeightCurve {
    let invL: Float
    @inline(__always) func weight(_ d2: FloatLanes) -> FloatLanes {
        let m = Self.base(d2, invL), m2 = m * m
        return m2 * m2
    }
}

/// e = 3, Telegram iOS's renderer: a square and a product, unrolled (the
/// generic loop below measured more than twice as slow per point).
struct CubicCurve: WeightCurve {
    let invL: Float
    @inline(__always) func weight(_ d2: FloatLanes) -> FloatLanes {
        let m = Self.base(d2, invL)
        return m * m * m
    }
}

/// Other whole exponents up to 16: repeated multiplication.
struct IntegerCurve: WeightCurve {
    let invL: Float
    let exponent: Int
    @inline(__always) func weight(_ d2: FloatLanes) -> FloatLanes {
        let m = Self.base(d2, invL)
        var f = m
        for _ in 1..<exponent { f *= m }
        return f
    }
}

/// Fractional exponents: powf per lane (Swift SIMD has no vector pow).
struct PowerCurve: WeightCurve {
    let invL: Float
    let exponent: Float
    @inline(__always) func weight(_ d2: FloatLanes) -> FloatLanes {
        let m = Self.base(d2, invL)
        var f = FloatLanes()
        for i in 0..<Lanes.width { f[i] = powf(m[i], exponent) }
        return f
    }
}

/// The `lut` variant: per-lane table reads (Swift SIMD has no gather).
struct TableCurve: WeightCurve {
    let values: UnsafePointer<Float>
    let invL: Float
    @inline(__always) func weight(_ d2: FloatLanes) -> FloatLanes {
        let last = Float(InfluenceTable.intervals)
        let pos = Lanes.minimum(d2 * (invL * invL * last), last)
        var f = FloatLanes()
        for i in 0..<Lanes.width {
            let k = Int(pos[i])
            f[i] = values[k] + (pos[i] - Float(k)) * (values[k + 1] - values[k])
        }
        return f
    }
}
