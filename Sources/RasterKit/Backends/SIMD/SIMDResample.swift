import CRasterOMP

extension SIMDBackend {
    /// As `PlanarUpsampler`: each band of output rows stretches the source
    /// rows it reads to the target width (four Float channel planes) and
    /// blends them, two rows at a time, with vectors.
    public func resample(_ src: ImageView, into dst: ImageView, scratch: Scratch) throws {
        let plan = ResamplePlan(src, dst, scratch)
        let width = dst.width, sw = src.width
        // Up-sampling (each block of eight output columns within eight
        // source columns): a block whose right taps stay inside the row
        // (first + 8 < sw, so no right tap is clamped) takes its words by
        // raster_words8_near, two loads and two permutes for the sixteen
        // loads of the lane loop below.
        let near = raster_taps8_all_near(plan.tapIndex, Int32(width)) != 0
        PlanarUpsampler.stream(into: dst, sh: src.height, threads: threads, scratch: scratch, slot: .resampleStretched,
                               tap: { (Int(plan.rowIndex[$0]), plan.rowWeight[$0]) }) { y, out in
            let row = UnsafeRawPointer(src.row(y))
            let planes = UnsafeMutableRawPointer(out)
            var x = 0
            // A vector of output pixels at a time: their two source pixels
            // gathered by hand as packed words, unpacked to channel lanes.
            let words = row.assumingMemoryBound(to: UInt32.self), taps = UnsafeRawPointer(plan.tapIndex)
            while x + Lanes.width <= width {
                var left = WordLanes(), right = WordLanes()
                let first = plan.tapIndex[x]
                if near && Int(first) + Lanes.width < sw {
                    let index = taps.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<Int32>.self)
                    left = raster_words8_near(words, first, index)
                    right = raster_words8_near(words + 1, first, index)
                } else {
                    for k in 0..<Lanes.width {
                        let i = Int(plan.tapIndex[x + k])
                        left[k] = row.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                        right[k] = row.loadUnaligned(fromByteOffset: 4 * min(i + 1, sw - 1), as: UInt32.self)
                    }
                }
                let w = UnsafeRawPointer(plan.tapWeight).loadUnaligned(fromByteOffset: 4 * x, as: FloatLanes.self)
                let m = WordLanes(repeating: 0xFF)
                for ch in 0..<4 {
                    let shift = WordLanes(repeating: UInt32(8 * ch))
                    let a = Lanes.toFloat(left &>> shift & m), b = Lanes.toFloat(right &>> shift & m)
                    planes.storeBytes(of: a + (b - a) * w, toByteOffset: 4 * (ch * width + x), as: FloatLanes.self)
                }
                x += Lanes.width
            }
            // Row tail: the same arithmetic, pixel by pixel.
            while x < width {
                let i = Int(plan.tapIndex[x]), j = min(i + 1, sw - 1), w = plan.tapWeight[x]
                for ch in 0..<4 {
                    let a = Float(row.load(fromByteOffset: 4 * i + ch, as: UInt8.self))
                    let b = Float(row.load(fromByteOffset: 4 * j + ch, as: UInt8.self))
                    out[ch * width + x] = a + (b - a) * w
                }
                x += 1
            }
        }
    }
}
