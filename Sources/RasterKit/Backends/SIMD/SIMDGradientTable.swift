import CRasterOMP

/// K2's `lut` variant on the SIMD backend: rows read `GradientTable`.
/// Linear rows step a 32.32 fixed-point entry position by one add per pixel
/// (as raster_omp_gradient_lut does); radial rows take their square roots
/// on lanes and read the table per lane (no gather in Swift's SIMD types).
struct TableRows {
    let words: [UInt32]
    let size: Int32
    let extend: Int32
    let pixel: GradientPixelGeometry

    init(_ table: GradientTable, _ pixel: GradientPixelGeometry) {
        words = table.words; size = Int32(table.size); extend = pixel.extend; self.pixel = pixel
    }

    func run(_ dst: ImageView, threads: Int) {
        RowBands.run(height: dst.height, threads: threads) { rows in
            words.withUnsafeBufferPointer { lut in
                for y in rows {
                    let row = UnsafeMutableRawPointer(dst.row(y)).assumingMemoryBound(to: UInt32.self)
                    if pixel.shape == 0 { linear(y, lut.baseAddress!, row, dst.width) } else { radial(y, lut.baseAddress!, row, dst.width) }
                }
            }
        }
    }

    @inline(__always)
    func linear(_ y: Int, _ lut: UnsafePointer<UInt32>, _ row: UnsafeMutablePointer<UInt32>, _ width: Int) {
        let g = pixel.values, n = Double(size)
        let v0 = (g.2 + Double(y) * g.1) * n, dv = g.0 * n
        let v1 = v0 + dv * Double(width - 1)
        guard abs(v0) < 0x1p30, abs(v1) < 0x1p30 else {
            // Far outside the gradient's span (tiny vectors): the position per pixel.
            for x in 0..<width {
                row[x] = lut[Int(raster_gradient_lut_index(raster_gradient_lut_entry(v0 + Double(x) * dv), size, extend))]
            }
            return
        }
        // llrint's rounding (to nearest even), so the steps are the C kernel's.
        var p = Int64((v0 * 0x1p32).rounded(.toNearestOrEven))
        let step = Int64((dv * 0x1p32).rounded(.toNearestOrEven))
        // One loop per mode, the mode a literal, so each loop is branch-free.
        switch extend {
        case 0: for x in 0..<width { row[x] = lut[Int(raster_gradient_lut_index(p >> 32, size, 0))]; p &+= step }
        case 1: for x in 0..<width { row[x] = lut[Int(raster_gradient_lut_index(p >> 32, size, 1))]; p &+= step }
        default: for x in 0..<width { row[x] = lut[Int(raster_gradient_lut_index(p >> 32, size, 2))]; p &+= step }
        }
    }

    @inline(__always)
    func radial(_ y: Int, _ lut: UnsafePointer<UInt32>, _ row: UnsafeMutablePointer<UInt32>, _ width: Int) {
        // One loop per mode, the mode a literal (as in `linear`).
        switch extend {
        case 0: radial(y, lut, row, width, extend: 0)
        case 1: radial(y, lut, row, width, extend: 1)
        default: radial(y, lut, row, width, extend: 2)
        }
    }

    @inline(__always)
    func radial(_ y: Int, _ lut: UnsafePointer<UInt32>, _ row: UnsafeMutablePointer<UInt32>, _ width: Int,
                extend: Int32) {
        let g = pixel.values
        let cx = Float(g.0), k = Float(g.2 * Double(size))
        let dy = Float(Double(y) - g.1), dy2 = dy * dy
        @inline(__always) func entries(_ x: Int) -> WordLanes {
            let dx = (Lanes.ramp + Float(x)) - cx
            // v >= 0 and capped, so rounding down then adding 2^23 leaves the
            // entry in the low mantissa bits (Lanes.quantize's conversion).
            let v = Lanes.minimum((dx * dx + dy2).squareRoot() * k, RASTER_GRADIENT_LUT_RADIAL_CAP)
            return unsafeBitCast(v.rounded(.down) + Lanes.magic, to: WordLanes.self) &- Lanes.magicBits
        }
        var x = 0
        while x + Lanes.width <= width {
            let e = entries(x)
            for i in 0..<Lanes.width { row[x + i] = lut[Int(raster_gradient_lut_index(Int64(e[i]), size, extend))] }
            x += Lanes.width
        }
        if x < width {
            let e = entries(x)
            for i in 0..<(width - x) { row[x + i] = lut[Int(raster_gradient_lut_index(Int64(e[i]), size, extend))] }
        }
    }
}
