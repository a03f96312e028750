import CRasterOMP

/// K3's own lane types: 16 lanes, not the 8 of `FloatLanes`. The blur's
/// hot loops use only the concrete SIMD operators (+, -, *, fused
/// multiply-add, bit operations, constant-index permutations); what 16
/// lanes compile to on AVX2 and AVX-512 is the note in `Wide/Lanes.swift`.
typealias BlurLanes = SIMD16<Float>
typealias BlurWords = SIMD16<UInt32>

/// 64 Float lanes: one sample of a *bundle* of lines that K3's simd backend
/// filters together.
///
/// Both blur passes filter along lines one sample at a time (a running sum,
/// a recursion or a tap loop), so the vector lanes must run *across* lines:
/// a horizontal pass takes 16 rows x 4 channels per sample (a band), a
/// vertical pass 16 columns x 4 channels (a strip). Four `BlurLanes` give
/// every step enough independent work to hide FMA latency on AVX-512 and
/// AVX2. (Swift's own `SIMD64<Float>` is not used: its scalar broadcast and
/// products compile to per-lane loops on this toolchain.)
struct Quad {
    var a: BlurLanes, b: BlurLanes, c: BlurLanes, d: BlurLanes

    /// Samples are laid out as four consecutive `BlurLanes`.
    static let vectors = 4
    static let lanes = 64

    @inline(__always) init(_ a: BlurLanes, _ b: BlurLanes, _ c: BlurLanes, _ d: BlurLanes) {
        self.a = a; self.b = b; self.c = c; self.d = d
    }

    @inline(__always) init(repeating v: Float) {
        let l = BlurLanes(repeating: v)
        self.init(l, l, l, l)
    }

    static var zero: Quad { Quad(repeating: 0) }

    /// Sample `i` of a bundle buffer.
    @inline(__always) init(_ buffer: UnsafeMutablePointer<BlurLanes>, _ i: Int) {
        let p = buffer + Quad.vectors * i
        self.init(p[0], p[1], p[2], p[3])
    }

    @inline(__always) func store(_ buffer: UnsafeMutablePointer<BlurLanes>, _ i: Int) {
        let p = buffer + Quad.vectors * i
        p[0] = a; p[1] = b; p[2] = c; p[3] = d
    }

    @inline(__always) static func + (l: Quad, r: Quad) -> Quad { Quad(l.a + r.a, l.b + r.b, l.c + r.c, l.d + r.d) }
    @inline(__always) static func - (l: Quad, r: Quad) -> Quad { Quad(l.a - r.a, l.b - r.b, l.c - r.c, l.d - r.d) }
    @inline(__always) static func += (l: inout Quad, r: Quad) { l = l + r }
    @inline(__always) static func * (l: Quad, k: Float) -> Quad { Quad(l.a * k, l.b * k, l.c * k, l.d * k) }

    /// self += k * q, fused.
    @inline(__always) mutating func addProduct(_ k: Float, _ q: Quad) {
        a.addProduct(k, q.a); b.addProduct(k, q.b); c.addProduct(k, q.c); d.addProduct(k, q.d)
    }

    /// Round to the nearest integer (ties to even) for 0 <= v < 2^22:
    /// adding 2^23 leaves no fraction bits. Used for the box cascade's grid.
    @inline(__always) func roundedOnGrid() -> Quad {
        let m = Lanes.magic
        return Quad(a + m - m, b + m - m, c + m - m, d + m - m)
    }
}

/// Moving pixels between images and bundle buffers.
///
/// Lanes are pixel-major: lane 4k + c is channel c of the k-th pixel of a
/// vector. Bands (horizontal pass): sample x holds pixel x of 16 rows,
/// vector g rows 4g...4g+3. Rows past the image bottom repeat its last
/// row: those lanes compute exactly what the last row's lanes compute, so
/// writing them back is harmless. Strips (vertical pass): sample y holds
/// pixels x0...x0+15 of row y, vector g pixels 4g...4g+3.
///
/// The intermediate between the passes is a *strip-major* UInt16 plane
/// (`BlurBundle.stripOffset`): strip s holds rows 0..<height of its 16
/// columns as consecutive 128-byte rows, so the vertical pass reads each
/// strip as one sequential stream (a row-major plane 6000 bytes wide puts
/// every row of a strip on a new page, where hardware prefetchers stop and
/// each row costs a cache miss) and a band writes 2 KB blocks. Values are
/// 8.8 fixed point (value * 256): half the traffic of Float, and rounding
/// to 1/512 of an 8-bit step is far below anything the blur can show.
///
/// Every conversion here is written with the concrete SIMD operators only
/// (+, -, *, &, shifts, bit casts, lane permutations by constant index):
/// perf annotate found the generic forms (`pointwiseMin`, `clamped`) split
/// into 4-lane pieces or per-lane loops costing more than the filters; the
/// note in `Wide/Lanes.swift` lists what the lane helpers compile to.
enum BlurBundle {
    static let bandRows = 16
    static let stripPixels = 16
    static let fixedOne: Float = 256

    /// Four packed RGBA8 pixels (one per lane) to 16 channel floats.
    @inline(__always)
    static func unpackBytes(_ v: SIMD4<UInt32>) -> BlurLanes {
        // (Vector constants are written inline: a `static let` vector costs
        // a lazy-initialisation check on every use in the loop.)
        let w = BlurWords(v[0], v[0], v[0], v[0], v[1], v[1], v[1], v[1], v[2], v[2], v[2], v[2], v[3], v[3], v[3], v[3])
        return Lanes.toFloat((w &>> BlurWords(0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24, 0, 8, 16, 24)) & 0xFF)
    }

    /// Four pixels of UInt16 8.8 channels (as 8 words) to 16 channel floats.
    @inline(__always)
    static func unpackHalves(_ u: SIMD8<UInt32>) -> BlurLanes {
        let w = BlurWords(u[0], u[0], u[1], u[1], u[2], u[2], u[3], u[3], u[4], u[4], u[5], u[5], u[6], u[6], u[7], u[7])
        return Lanes.toFloat((w &>> BlurWords(0, 16, 0, 16, 0, 16, 0, 16, 0, 16, 0, 16, 0, 16, 0, 16)) & 0xFFFF) * (1 / fixedOne)
    }

    /// Clamps to 0...limit (limit < 2^22), as the bits of a float: the
    /// bit patterns of non-negative floats order like the floats, and
    /// negative ones have the sign bit set.
    @inline(__always)
    static func clampBits(_ v: BlurLanes, limit: Float) -> SIMD16<Int32> {
        var b = unsafeBitCast(v, to: SIMD16<Int32>.self)
        b = b & ~(b &>> 31)
        return minimum(b, SIMD16<Int32>(repeating: Int32(bitPattern: limit.bitPattern)))
    }

    /// Lane-wise minimum of integers, branch-free.
    @inline(__always)
    static func minimum(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
        let d = b &- a
        return a &+ (d & (d &>> 31))
    }

    /// floor(v + 0.5) for clamped bits v (round to nearest, ties away from
    /// zero, docs/contract.md §1): the 2^23 trick rounds half to even, and the
    /// sign of (t - rounded) says where that rounded up.
    @inline(__always)
    static func roundBits(_ b: SIMD16<Int32>) -> SIMD16<Int32> {
        let t = unsafeBitCast(b, to: BlurLanes.self) + 0.5
        let s = t + Lanes.magic
        let roundedUp = unsafeBitCast(t - (s - Lanes.magic), to: SIMD16<Int32>.self) &>> 31
        return unsafeBitCast(s, to: SIMD16<Int32>.self) &- Int32(bitPattern: Lanes.magicBits) &+ roundedUp
    }

    /// Stores 16 channel floats as four RGBA8 pixels at `p`, colour
    /// clamped to alpha (raster_pack16_alpha_clamped, shared with blur.c).
    @inline(__always)
    static func storePixels(_ v: BlurLanes, to p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: raster_pack16_alpha_clamped(v), as: SIMD16<UInt8>.self)
    }

    /// Stores 16 channel floats as UInt16 8.8 at `p`.
    @inline(__always)
    static func storeHalves(_ v: BlurLanes, to p: UnsafeMutablePointer<UInt16>) {
        let q = roundBits(clampBits(v * fixedOne, limit: 65535))
        for i in 0..<16 { p[i] = UInt16(truncatingIfNeeded: q[i]) }
    }

    /// UInt16 elements of the strip-major plane for an image `width` wide.
    static func stripPlaneCount(width: Int, height: Int) -> Int {
        (width + stripPixels - 1) / stripPixels * height * 4 * stripPixels
    }

    /// Element offset of pixel (x, y) in the strip-major plane.
    @inline(__always)
    static func stripOffset(x: Int, y: Int, height: Int) -> Int {
        ((x / stripPixels) * height + y) * 4 * stripPixels + (x % stripPixels) * 4
    }

    /// Row y0 + r of the band, clamped to the image.
    @inline(__always)
    static func bandRow(_ y0: Int, _ r: Int, _ height: Int) -> Int { min(y0 + r, height - 1) }

    // MARK: bands

    /// Loads pixels 0..<width of rows y0..<y0+16 of an RGBA8 image into
    /// samples `offset...` of `buffer`.
    static func loadBand(_ image: ImageView, y0: Int, into buffer: UnsafeMutablePointer<BlurLanes>, offset: Int) {
        let h = image.height
        for g in 0..<4 {
            let p0 = UnsafeRawPointer(image.row(bandRow(y0, 4 * g, h))), p1 = UnsafeRawPointer(image.row(bandRow(y0, 4 * g + 1, h)))
            let p2 = UnsafeRawPointer(image.row(bandRow(y0, 4 * g + 2, h))), p3 = UnsafeRawPointer(image.row(bandRow(y0, 4 * g + 3, h)))
            var out = buffer + Quad.vectors * offset + g
            for x in 0..<image.width {
                let o = 4 * x
                out.pointee = unpackBytes(SIMD4(p0.load(fromByteOffset: o, as: UInt32.self), p1.load(fromByteOffset: o, as: UInt32.self),
                                                p2.load(fromByteOffset: o, as: UInt32.self), p3.load(fromByteOffset: o, as: UInt32.self)))
                out += Quad.vectors
            }
        }
    }

    /// Loads a band from a UInt16 8.8 plane (`stride` elements per row).
    static func loadBand(_ plane: UnsafeMutablePointer<UInt16>, stride: Int, width: Int, height: Int, y0: Int,
                         into buffer: UnsafeMutablePointer<BlurLanes>, offset: Int) {
        for g in 0..<4 {
            let p0 = UnsafeRawPointer(plane + bandRow(y0, 4 * g, height) * stride)
            let p1 = UnsafeRawPointer(plane + bandRow(y0, 4 * g + 1, height) * stride)
            let p2 = UnsafeRawPointer(plane + bandRow(y0, 4 * g + 2, height) * stride)
            let p3 = UnsafeRawPointer(plane + bandRow(y0, 4 * g + 3, height) * stride)
            var out = buffer + Quad.vectors * offset + g
            for x in 0..<width {
                let o = 8 * x
                let v = SIMD4<UInt64>(p0.loadUnaligned(fromByteOffset: o, as: UInt64.self), p1.loadUnaligned(fromByteOffset: o, as: UInt64.self),
                                      p2.loadUnaligned(fromByteOffset: o, as: UInt64.self), p3.loadUnaligned(fromByteOffset: o, as: UInt64.self))
                out.pointee = unpackHalves(unsafeBitCast(v, to: SIMD8<UInt32>.self))
                out += Quad.vectors
            }
        }
    }

    /// Stores samples `offset...` of a band into the strip-major plane.
    static func storeBand(_ buffer: UnsafeMutablePointer<BlurLanes>, offset: Int, into plane: UnsafeMutablePointer<UInt16>,
                          width: Int, height: Int, y0: Int) {
        for g in 0..<4 {
            let y = bandRow(y0, 4 * g, height)
            // Rows past the bottom are clamped: write them to the last row.
            let d1 = (bandRow(y0, 4 * g + 1, height) - y) * 4 * stripPixels
            let d2 = (bandRow(y0, 4 * g + 2, height) - y) * 4 * stripPixels
            let d3 = (bandRow(y0, 4 * g + 3, height) - y) * 4 * stripPixels
            var src = buffer + Quad.vectors * offset + g
            for x in 0..<width {
                let q = roundBits(clampBits(src.pointee * fixedOne, limit: 65535))
                var h = SIMD16<UInt16>()
                for i in 0..<16 { h[i] = UInt16(truncatingIfNeeded: q[i]) }
                let rows = unsafeBitCast(h, to: SIMD4<UInt64>.self)
                let p = UnsafeMutableRawPointer(plane + stripOffset(x: x, y: y, height: height))
                p.storeBytes(of: rows[0], as: UInt64.self)
                p.storeBytes(of: rows[1], toByteOffset: 2 * d1, as: UInt64.self)
                p.storeBytes(of: rows[2], toByteOffset: 2 * d2, as: UInt64.self)
                p.storeBytes(of: rows[3], toByteOffset: 2 * d3, as: UInt64.self)
                src += Quad.vectors
            }
        }
    }

    // MARK: strips

    /// Loads strip `strip` (rows 0..<height) of the strip-major plane into
    /// samples `offset...`. Columns past the image's right edge hold
    /// whatever is there; their lanes are never stored.
    static func loadStrip(_ plane: UnsafeMutablePointer<UInt16>, height: Int, strip: Int,
                          into buffer: UnsafeMutablePointer<BlurLanes>, offset: Int) {
        var p = UnsafeRawPointer(plane + strip * height * 4 * stripPixels)
        for y in 0..<height {
            Quad(unpackHalves(p.loadUnaligned(as: SIMD8<UInt32>.self)),
                 unpackHalves(p.loadUnaligned(fromByteOffset: 32, as: SIMD8<UInt32>.self)),
                 unpackHalves(p.loadUnaligned(fromByteOffset: 64, as: SIMD8<UInt32>.self)),
                 unpackHalves(p.loadUnaligned(fromByteOffset: 96, as: SIMD8<UInt32>.self))).store(buffer, offset + y)
            p += 8 * stripPixels
        }
    }

    /// Stores a strip into a row-major UInt16 8.8 plane (`stride` elements
    /// per row).
    static func storeStrip(_ buffer: UnsafeMutablePointer<BlurLanes>, offset: Int, into plane: UnsafeMutablePointer<UInt16>,
                           stride: Int, height: Int, x0: Int, count: Int, spare: UnsafeMutablePointer<UInt16>) {
        for y in 0..<height {
            let s = Quad(buffer, offset + y)
            let dst = plane + y * stride + 4 * x0
            let p = count < stripPixels ? spare : dst
            storeHalves(s.a, to: p); storeHalves(s.b, to: p + 16); storeHalves(s.c, to: p + 32); storeHalves(s.d, to: p + 48)
            if count < stripPixels { dst.update(from: spare, count: 4 * count) }
        }
    }

    /// Stores a strip as RGBA8 pixels, rounded, colour clamped to alpha.
    static func storeStrip(_ buffer: UnsafeMutablePointer<BlurLanes>, offset: Int, into image: ImageView,
                           x0: Int, count: Int, spare: UnsafeMutablePointer<UInt8>) {
        for y in 0..<image.height {
            let s = Quad(buffer, offset + y)
            let dst = image.row(y) + 4 * x0
            let p = count < stripPixels ? spare : dst
            storePixels(s.a, to: p); storePixels(s.b, to: p + 16); storePixels(s.c, to: p + 32); storePixels(s.d, to: p + 48)
            if count < stripPixels { dst.update(from: spare, count: 4 * count) }
        }
    }

    /// Copies sample `from` of a bundle to samples `range` (edge padding).
    @inline(__always)
    static func replicate(_ buffer: UnsafeMutablePointer<BlurLanes>, from: Int, to range: Range<Int>) {
        let s = Quad(buffer, from)
        for i in range { s.store(buffer, i) }
    }

    @inline(__always)
    static func clear(_ buffer: UnsafeMutablePointer<BlurLanes>, _ range: Range<Int>) {
        for i in range { Quad.zero.store(buffer, i) }
    }
}
