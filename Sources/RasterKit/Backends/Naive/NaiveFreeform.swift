import Foundation

extension NaiveBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        // TODO(K1 unit space): not implemented yet in this backend.
        guard gradient.space == .pixels else {
            throw RasterError.unsupported(backend: kind.rawValue, kernel: "freeform (unit space)", variant: variant.rawValue)
        }
        let s = variant.downscale
        let table = variant == .lut ? scratch.influenceTable(exponent: gradient.exponent) : nil
        gradient.withPoints(scaledBy: 1 / Double(s)) { points in
            if s == 1 {
                for y in 0..<dst.height {
                    let row = dst.row(y)
                    for x in 0..<dst.width {
                        let c = NaiveBackend.freeformPixel(points, gradient, Float(x) + 0.5, Float(y) + 0.5, table)
                        Bilinear.store(c, to: row + 4 * x)
                    }
                }
                return
            }
            // Render at 1/s scale into a Float plane, then up-sample.
            let sw = (dst.width + s - 1) / s, sh = (dst.height + s - 1) / s
            let plane = scratch.buffer(ScratchSlot.freeformSmall, count: sw * sh, of: SIMD4<Float>.self)
            for y in 0..<sh {
                for x in 0..<sw {
                    plane[y * sw + x] = NaiveBackend.freeformPixel(points, gradient, Float(x) + 0.5, Float(y) + 0.5, nil)
                }
            }
            let map = Bilinear(sw: sw, sh: sh, scale: s)
            for y in 0..<dst.height {
                let row = dst.row(y)
                for x in 0..<dst.width { Bilinear.store(map.sample(plane, x, y), to: row + 4 * x) }
            }
        }
    }

    /// One pixel of K1 at centre (qx, qy), in 8-bit units.
    static func freeformPixel(_ points: FreeformPoints, _ g: FreeformGradient, _ qx: Float, _ qy: Float,
                              _ table: UnsafePointer<Float>?) -> SIMD4<Float> {
        let invL = Float(1 / points.influence)
        let e = Float(g.exponent)
        let whole = g.integerExponent
        var sum: Float = 0, r: Float = 0, gr: Float = 0, b: Float = 0, a: Float = 0
        var nearest = 0
        var nearestD = Float.infinity
        for i in 0..<points.count {
            let dx = qx - points.x[i], dy = qy - points.y[i]
            let d2 = dx * dx + dy * dy
            var f: Float
            if let table {
                let pos = min(d2 * invL * invL, 1) * Float(InfluenceTable.intervals)
                let k = Int(pos)
                f = table[k] + (pos - Float(k)) * (table[k + 1] - table[k])
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
            let c = points.colors[i]
            sum += f
            r += f * c.x; gr += f * c.y; b += f * c.z; a += f * c.w
        }
        if sum > 0 { return SIMD4(r / sum, gr / sum, b / sum, a / sum) }
        return points.colors[nearest]
    }
}

/// Bilinear up-sampling from a plane rendered at 1/scale, shared by the
/// scalar paths. Target pixel centre x + 0.5 sits at (x + 0.5) / scale in
/// source pixels, i.e. source index (x + 0.5) / scale - 0.5; beyond the
/// outermost source centres the edge value is held (clamp).
struct Bilinear {
    /// Source size and the integer up-sampling factor.
    let sw: Int, sh: Int, scale: Int

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
