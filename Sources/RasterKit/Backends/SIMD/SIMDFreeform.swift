import Foundation

extension SIMDBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let s = variant.downscale
        let g = s == 1 ? gradient : gradient.scaled(by: 1 / Double(s))
        withFreeformLanes(g, lut: variant == .lut) { dispatch in
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
                    var x = 0
                    while x < dst.width {
                        let c = kernel.evaluate(x: x, y: y)
                        Lanes.store(Lanes.packRGBA8(c.0, c.1, c.2, c.3), to: row + 4 * x, count: min(Lanes.width, dst.width - x))
                        x += Lanes.width
                    }
                }
            }
            return
        }
        // The small image goes straight into the up-sampler's source planes.
        let up = PlanarUpsampler(target: (dst.width, dst.height), scale: s, scratch: scratch)
        RowBands.run(height: up.sh, threads: threads) { rows in
            for y in rows {
                var x = 0
                while x < up.sw {
                    let c = kernel.evaluate(x: x, y: y)
                    let n = min(Lanes.width, up.sw - x)
                    up.storeSource(c, x: x, y: y, count: n)
                    x += Lanes.width
                }
            }
        }
        up.run(into: dst, threads: threads)
    }
}

/// K1 evaluated sixteen pixels of one row at a time.
///
/// The influence curve is a type parameter (`WeightCurve`), not a runtime
/// switch, so each instantiation of `evaluate` is a straight run of vector
/// arithmetic with the curve inlined; the switch happens once per call in
/// `FreeformLanes.with`.
struct FreeformLanes<Curve: WeightCurve> {
    let count: Int
    let px: UnsafeBufferPointer<Float>, py: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<SIMD4<Float>>
    let curve: Curve

    /// Channels (r, g, b, a) of the 16 pixels starting at (x, y).
    @inline(__always)
    func evaluate(x: Int, y: Int) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let qx = Lanes.ramp + (Float(x) + 0.5)
        let qy = Float(y) + 0.5
        var sum = FloatLanes(), r = FloatLanes(), g = FloatLanes(), b = FloatLanes(), a = FloatLanes()
        for i in 0..<count {
            let dx = qx - px[i]
            let dy = qy - py[i]
            let f = curve.weight(dx * dx + dy * dy)
            let c = colors[i]
            sum += f
            r += f * c.x; g += f * c.y; b += f * c.z; a += f * c.w
        }
        let empty = sum .== 0
        if _slowPath(any(empty)) { return nearestFill(qx: qx, qy: qy, empty: empty, r, g, b, a, sum) }
        let inv = 1 / sum
        return (r * inv, g * inv, b * inv, a * inv)
    }

    /// Lanes with no point in range take the nearest point's colour (lowest
    /// index on ties); the rest keep their weighted average.
    @inline(never)
    func nearestFill(qx: FloatLanes, qy: Float, empty: SIMDMask<SIMD16<Int32>>,
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

/// Calls `body` with a `FreeformLanes` specialised for the gradient's curve.
func withFreeformLanes<R>(_ g: FreeformGradient, lut: Bool,
                          _ body: (FreeformLanesDispatch) -> R) -> R {
    let px = g.points.map { Float($0.position.x) }
    let py = g.points.map { Float($0.position.y) }
    let colors = g.points.map { $0.color.simd }
    let invL = Float(1 / g.influence)
    return px.withUnsafeBufferPointer { px in
        py.withUnsafeBufferPointer { py in
            colors.withUnsafeBufferPointer { colors in
                func make<C: WeightCurve>(_ c: C) -> FreeformLanes<C> {
                    FreeformLanes(count: px.count, px: px, py: py, colors: colors, curve: c)
                }
                if lut {
                    let table = InfluenceTable(exponent: g.exponent)
                    return table.values.withUnsafeBufferPointer { body(.table(make(TableCurve(values: $0, invL: invL)))) }
                }
                switch g.integerExponent {
                case 4: return body(.quartic(make(QuarticCurve(invL: invL))))
                case let .some(e): return body(.integer(make(IntegerCurve(invL: invL, exponent: e))))
                case .none: return body(.power(make(PowerCurve(invL: invL, exponent: Float(g.exponent)))))
                }
            }
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
        Lanes.positivePart(1 - d2.squareRoot() * invL)
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
    let values: UnsafeBufferPointer<Float>
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
