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
        if pixel.prefersRuns(width: dst.width, intervals: ramp.starts.count) {
            RowBands.run(height: dst.height, threads: threads) { rows in
                ramp.starts.withUnsafeBufferPointer { starts in
                    for y in rows {
                        let row = pixel.row(y, width: dst.width, starts: starts.baseAddress!, intervals: starts.count)
                        ramp.storeRuns(row, to: dst.row(y))
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
            RowBands.run(height: dst.height, threads: threads) { rows in
                for y in rows {
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
    @inline(__always)
    func storeRuns(_ row: raster_gradient_row, to p: UnsafeMutablePointer<UInt8>) {
        var row = row
        var span = raster_gradient_span()
        let width = Int(row.width)
        var x = 0
        while x < width {
            let end = Int(raster_gradient_next_span(&row, Int32(x), &span))
            let k = Int(span.interval)
            if flat[k] {
                UnsafeMutableRawPointer(p + 4 * x).withMemoryRebound(to: UInt32.self, capacity: end - x) {
                    $0.update(repeating: packed[k], count: end - x)
                }
            } else if row.shape == 0 {
                storeLinearRun(row, span, slopes[k], biases[k], from: x, to: end, p)
            } else {
                storeRadialRun(row, span, slopes[k], biases[k], from: x, to: end, p)
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

    @inline(__always)
    func storeLinearRun(_ row: raster_gradient_row, _ span: raster_gradient_span, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>,
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

    @inline(__always)
    func storeRadialRun(_ row: raster_gradient_row, _ span: raster_gradient_span, _ sl: SIMD4<Float>, _ bi: SIMD4<Float>,
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
