import Foundation

extension NaiveBackend {
    public func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws {
        let grid = FreeformGrid(gradient, variant: variant, width: dst.width, height: dst.height)
        let table = variant == .lut ? scratch.influenceTable(exponent: gradient.exponent) : nil
        gradient.withPoints(scaledBy: grid.pointScale) { points in
            let sx = Float(grid.sampleX), sy = Float(grid.sampleY), swirl = Float(gradient.swirl)
            func sample(_ i: Int, _ j: Int) -> SIMD4<Float> {
                var qx = (Float(i) + 0.5) * sx, qy = (Float(j) + 0.5) * sy
                if swirl > 0 {
                    // Telegram's warp (FreeformGradient): rotate about the centre, clamp.
                    let dx = qx - 0.5, dy = qy - 0.5
                    let theta = swirl * (dx * dx + dy * dy)
                    let c = cos(theta), s = sin(theta)
                    qx = min(max(0.5 + dx * c - dy * s, 0), 1)
                    qy = min(max(0.5 + dx * s + dy * c, 0), 1)
                }
                return NaiveBackend.freeformPixel(points, gradient, qx, qy, table)
            }
            guard let columns = grid.columns, let rows = grid.rows else {
                for y in 0..<dst.height {
                    let row = dst.row(y)
                    for x in 0..<dst.width { Bilinear.store(sample(x, y), to: row + 4 * x) }
                }
                return
            }
            // Evaluate the grid into a Float plane, then up-sample.
            let sw = grid.width, sh = grid.height
            let plane = scratch.buffer(ScratchSlot.freeformSmall, count: sw * sh, of: SIMD4<Float>.self)
            for y in 0..<sh {
                for x in 0..<sw { plane[y * sw + x] = sample(x, y) }
            }
            let map = Bilinear(columns: columns, rows: rows)
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

/// Bilinear sampling of a Float plane along two `BilinearAxis` mappings,
/// shared by the scalar paths (beyond the outermost source centres the edge
/// value is held).
struct Bilinear {
    let columns: BilinearAxis, rows: BilinearAxis

    func sample(_ plane: UnsafeMutablePointer<SIMD4<Float>>, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let sw = columns.source, sh = rows.source
        let (x0, fx) = columns.tap(x)
        let (y0, fy) = rows.tap(y)
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
