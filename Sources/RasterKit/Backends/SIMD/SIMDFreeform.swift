import Foundation

extension SIMDBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let s = variant.downscale
        if s == 1 {
            let kernel = FreeformLanes(gradient, table: variant == .lut ? InfluenceTable(exponent: gradient.exponent) : nil)
            RowBands.run(height: dst.height, threads: threads) { rows in
                for y in rows {
                    let row = dst.row(y)
                    var x = 0
                    while x < dst.width {
                        let n = min(Lanes.width, dst.width - x)
                        let c = kernel.evaluate(x: x, y: y)
                        Lanes.store(Lanes.packRGBA8(c.0, c.1, c.2, c.3), to: row + 4 * x, count: n)
                        x += Lanes.width
                    }
                }
            }
            return
        }
        let kernel = FreeformLanes(gradient.scaled(by: 1 / Double(s)), table: nil)
        let up = PlanarUpsampler(target: (dst.width, dst.height), scale: s, scratch: scratch)
        // The small image, straight into the up-sampler's source rows.
        RowBands.run(height: up.sh, threads: threads) { rows in
            for y in rows {
                var x = 0
                while x < up.sw {
                    let c = kernel.evaluate(x: x, y: y)
                    let n = min(Lanes.width, up.sw - x)
                    for ch in 0..<4 {
                        let v = ch == 0 ? c.0 : ch == 1 ? c.1 : ch == 2 ? c.2 : c.3
                        let p = up.sourceRow(y, channel: ch) + x
                        for i in 0..<n { p[i] = v[i] }
                    }
                    x += Lanes.width
                }
            }
        }
        up.run(into: dst, threads: threads)
    }
}

/// K1 evaluated sixteen pixels of one row at a time.
struct FreeformLanes {
    let count: Int
    let px: [Float], py: [Float], colors: [SIMD4<Float>]
    let invL: Float
    let exponent: Float
    let whole: Int?
    let table: InfluenceTable?

    init(_ g: FreeformGradient, table: InfluenceTable?) {
        count = g.points.count
        px = g.points.map { Float($0.position.x) }
        py = g.points.map { Float($0.position.y) }
        colors = g.points.map { $0.color.simd }
        invL = Float(1 / g.influence)
        exponent = Float(g.exponent)
        whole = g.integerExponent
        self.table = table
    }

    /// Channels (r, g, b, a) of the 16 pixels starting at (x, y).
    @inline(__always)
    func evaluate(x: Int, y: Int) -> (FloatLanes, FloatLanes, FloatLanes, FloatLanes) {
        let qx = Lanes.ramp + (Float(x) + 0.5)
        let qy = Float(y) + 0.5
        var sum = FloatLanes(), r = FloatLanes(), g = FloatLanes(), b = FloatLanes(), a = FloatLanes()
        px.withUnsafeBufferPointer { px in
            py.withUnsafeBufferPointer { py in
                colors.withUnsafeBufferPointer { colors in
                    for i in 0..<count {
                        let dx = qx - px[i]
                        let dy = qy - py[i]
                        let d2 = dx * dx + dy * dy
                        let f = weight(d2)
                        let c = colors[i]
                        sum += f
                        r += f * c.x; g += f * c.y; b += f * c.z; a += f * c.w
                    }
                }
            }
        }
        let empty = sum .== 0
        if any(empty) { return nearestFill(qx: qx, qy: qy, empty: empty, r, g, b, a, sum) }
        let inv = 1 / sum
        return (r * inv, g * inv, b * inv, a * inv)
    }

    /// f = max(0, 1 - d/L)^e, or the table's interpolated value.
    @inline(__always)
    func weight(_ d2: FloatLanes) -> FloatLanes {
        if let table { return lookup(table, d2 * (invL * invL)) }
        let m = pointwiseMax(FloatLanes(), 1 - d2.squareRoot() * invL)
        switch whole {
        case 1: return m
        case 2: return m * m
        case 3: return m * m * m
        case 4: let m2 = m * m; return m2 * m2
        case let .some(e):
            var f = m
            for _ in 1..<e { f *= m }
            return f
        case .none:
            var f = FloatLanes()
            for i in 0..<Lanes.width { f[i] = powf(m[i], exponent) }
            return f
        }
    }

    /// Per-lane table reads: Swift SIMD has no gather, so this is scalar.
    @inline(__always)
    func lookup(_ table: InfluenceTable, _ t: FloatLanes) -> FloatLanes {
        var f = FloatLanes()
        let pos = t * Float(InfluenceTable.intervals)
        table.values.withUnsafeBufferPointer { v in
            for i in 0..<Lanes.width where t[i] < 1 {
                let k = Int(pos[i])
                f[i] = v[k] + (pos[i] - Float(k)) * (v[k + 1] - v[k])
            }
        }
        return f
    }

    /// Lanes with no point in range take the nearest point's colour (lowest
    /// index on ties); the rest keep their weighted average.
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
