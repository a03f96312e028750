import Foundation

extension SIMDBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        // TODO(K1 unit space): not implemented yet in this backend.
        guard gradient.space == .pixels else {
            throw RasterError.unsupported(backend: kind.rawValue, kernel: "freeform (unit space)", variant: variant.rawValue)
        }
        let s = variant.downscale
        let table = variant == .lut ? scratch.influenceTable(exponent: gradient.exponent) : nil
        withFreeformLanes(gradient, scale: s, table: table) { dispatch in
            switch dispatch {
            case let .quartic(k): render(k, s, dst, scratch)
            case let .integer(k): render(k, s, dst, scratch)
            case let .power(k): render(k, s, dst, scratch)
            case let .table(k): render(k, s, dst, scratch)
            }
        }
    }

    private func render<C: WeightCurve>(_ kernel: FreeformLanes<C>, _ s: Int, _ dst: ImageView, _ scratch: Scratch) {
        if s == 1 {
            RowBands.run(height: dst.height, threads: threads) { rows in
                for y in rows {
                    let row = dst.row(y)
                    kernel.withRow(y) { plan in
                        @inline(__always) func body(_ x: Int, _ n: Int) {
                            let c = kernel.evaluate(x: x, plan)
                            Lanes.store(Lanes.packRGBA8(c.0, c.1, c.2, c.3), to: row + 4 * x, count: n)
                        }
                        var x = 0
                        while x + Lanes.width <= dst.width { body(x, Lanes.width); x += Lanes.width }
                        if x < dst.width { body(x, dst.width - x) }
                    }
                }
            }
            return
        }
        // The small image goes straight into the up-sampler's source planes
        // (whose rows hold whole vectors, so no tail case).
        let up = PlanarUpsampler(target: (dst.width, dst.height), scale: s, scratch: scratch)
        RowBands.run(height: up.sh, threads: threads) { rows in
            for y in rows {
                kernel.withRow(y) { plan in
                    var x = 0
                    while x < up.sw {
                        up.storeSource(kernel.evaluate(x: x, plan), x: x, y: y, count: Lanes.width)
                        x += Lanes.width
                    }
                }
            }
        }
        up.run(into: dst, threads: threads)
    }
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

    /// A point that can reach row y: its vertical offset squared and the x
    /// range (in pixel-centre coordinates) of the row it can reach.
    struct Reach {
        var index: Int
        var dy2: Float
        var xMin: Float, xMax: Float
    }

    /// The points whose influence disc reaches row y, so that vectors the
    /// disc misses skip the point entirely. A skipped point's weight would
    /// have been exactly 0 (the discs are widened by a relative 1e-4, far
    /// beyond Float rounding of d / L), so the image is unchanged.
    struct RowPlan {
        let qy: Float
        let reach: UnsafeMutableBufferPointer<Reach>
        var count: Int
    }

    @inline(__always)
    func withRow<R>(_ y: Int, _ body: (RowPlan) -> R) -> R {
        let qy = Float(y) + 0.5
        let reachL = influence * (1 + 1e-4)
        return withUnsafeTemporaryAllocation(of: Reach.self, capacity: count) { buffer in
            var n = 0
            for i in 0..<count {
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
    /// the plan's row.
    @inline(__always)
    func evaluate(x: Int, _ plan: RowPlan) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let qx = Lanes.ramp + (Float(x) + 0.5)
        let left = Float(x) + 0.5, right = left + Float(Lanes.width - 1)
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
        if _slowPath(any(empty)) { return nearestFill(qx: qx, qy: plan.qy, empty: empty, r, g, b, a, sum) }
        let inv = 1 / sum
        return (r * inv, g * inv, b * inv, a * inv)
    }

    /// Lanes with no point in range take the nearest point's colour (lowest
    /// index on ties); the rest keep their weighted average.
    @inline(never)
    func nearestFill(qx: FloatLanes, qy: Float, empty: SIMDMask<FloatLanes.MaskStorage>,
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
/// on the canvas scaled down by `scale`.
func withFreeformLanes<R>(_ g: FreeformGradient, scale: Int, table: UnsafePointer<Float>?,
                          _ body: (FreeformLanesDispatch) -> R) -> R {
    g.withPoints(scaledBy: 1 / Double(scale)) { points in
        let invL = Float(1 / points.influence)
        func make<C: WeightCurve>(_ c: C) -> FreeformLanes<C> {
            FreeformLanes(count: points.count, influence: Float(points.influence), px: points.x, py: points.y,
                          colors: points.colors, curve: c)
        }
        if let table { return body(.table(make(TableCurve(values: table, invL: invL)))) }
        switch g.integerExponent {
        case 4: return body(.quartic(make(QuarticCurve(invL: invL))))
        case let .some(e): return body(.integer(make(IntegerCurve(invL: invL, exponent: e))))
        case .none: return body(.power(make(PowerCurve(invL: invL, exponent: Float(g.exponent)))))
        }
    }
}

/// The specialisations `withFreeformLanes` can hand out.
enum FreeformLanesDispatch {
    case quartic(FreeformLanes<QuarticCurve>)
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
