import Foundation

extension NaiveBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let s = variant.downscale
        if s == 1 {
            let table = variant == .lut ? InfluenceTable(exponent: gradient.exponent) : nil
            for y in 0..<dst.height {
                let row = dst.row(y)
                for x in 0..<dst.width {
                    let c = NaiveBackend.freeformPixel(gradient, Double(x) + 0.5, Double(y) + 0.5, table)
                    Bilinear.store(c, to: row + 4 * x)
                }
            }
            return
        }
        // Render at 1/s scale into a Float plane, then up-sample.
        let small = gradient.scaled(by: 1 / Double(s))
        let sw = (dst.width + s - 1) / s, sh = (dst.height + s - 1) / s
        let plane = scratch.buffer(ScratchSlot.freeformSmall, count: sw * sh, of: SIMD4<Float>.self)
        for y in 0..<sh {
            for x in 0..<sw {
                plane[y * sw + x] = NaiveBackend.freeformPixel(small, Double(x) + 0.5, Double(y) + 0.5, nil)
            }
        }
        let map = Bilinear(source: (sw, sh), target: (dst.width, dst.height), scale: s)
        for y in 0..<dst.height {
            let row = dst.row(y)
            for x in 0..<dst.width { Bilinear.store(map.sample(plane, x, y), to: row + 4 * x) }
        }
    }

    /// One pixel of K1 at centre (qx, qy), in 8-bit units.
    static func freeformPixel(_ g: FreeformGradient, _ qx: Double, _ qy: Double, _ table: InfluenceTable?) -> SIMD4<Float> {
        let invL = Float(1 / g.influence)
        let e = Float(g.exponent)
        let whole = g.integerExponent
        var sum: Float = 0, r: Float = 0, gr: Float = 0, b: Float = 0, a: Float = 0
        var nearest = 0
        var nearestD = Float.infinity
        for (i, p) in g.points.enumerated() {
            let dx = Float(qx - p.position.x), dy = Float(qy - p.position.y)
            let d2 = dx * dx + dy * dy
            var f: Float
            if let table {
                let t = d2 * invL * invL
                if t >= 1 { f = 0 } else {
                    let pos = t * Float(InfluenceTable.intervals)
                    let k = Int(pos)
                    f = table.values[k] + (pos - Float(k)) * (table.values[k + 1] - table.values[k])
                }
            } else {
                let m = max(0, 1 - d2.squareRoot() * invL)
                if let whole {
                    f = 1
                    for _ in 0..<whole { f *= m }
                } else {
                    f = powf(m, e)
                }
            }
            if d2 < nearestD { nearestD = d2; nearest = i }
            let c = p.color
            sum += f
            r += f * Float(c.r); gr += f * Float(c.g); b += f * Float(c.b); a += f * Float(c.a)
        }
        if sum > 0 { return SIMD4(r / sum, gr / sum, b / sum, a / sum) }
        return g.points[nearest].color.simd
    }
}

/// Bilinear up-sampling from a plane rendered at 1/scale, shared by the
/// scalar paths. Target pixel centre x + 0.5 sits at (x + 0.5) / scale in
/// source pixels, i.e. source index (x + 0.5) / scale - 0.5; beyond the
/// outermost source centres the edge value is held (clamp).
struct Bilinear {
    let sw: Int, sh: Int, scale: Int

    init(source: (Int, Int), target: (Int, Int), scale: Int) {
        sw = source.0; sh = source.1; self.scale = scale
    }

    /// Lower index and weight of the upper neighbour along one axis.
    @inline(__always)
    static func tap(_ i: Int, scale: Int, limit: Int) -> (Int, Float) {
        let pos = max(0, (Float(i) + 0.5) / Float(scale) - 0.5)
        let i0 = min(Int(pos), limit - 1)
        let w = min(pos - Float(i0), 1)
        return (i0, i0 + 1 < limit ? w : 0)
    }

    func sample(_ plane: UnsafeMutablePointer<SIMD4<Float>>, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let (x0, fx) = Bilinear.tap(x, scale: scale, limit: sw)
        let (y0, fy) = Bilinear.tap(y, scale: scale, limit: sh)
        let x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1)
        let top = plane[y0 * sw + x0] * (1 - fx) + plane[y0 * sw + x1] * fx
        let bottom = plane[y1 * sw + x0] * (1 - fx) + plane[y1 * sw + x1] * fx
        return top * (1 - fy) + bottom * fy
    }

    /// Rounds to nearest (ties away from zero) and stores four bytes.
    @inline(__always)
    static func store(_ c: SIMD4<Float>, to p: UnsafeMutablePointer<UInt8>) {
        p[0] = quantize(c.x); p[1] = quantize(c.y); p[2] = quantize(c.z); p[3] = quantize(c.w)
    }

    @inline(__always)
    static func quantize(_ v: Float) -> UInt8 {
        UInt8(min(max(v, 0), 255) + 0.5)
    }
}
