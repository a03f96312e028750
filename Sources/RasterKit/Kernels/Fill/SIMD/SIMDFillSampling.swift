/// The supersampled variants' cell fill (the sampler stage of the simd
/// schedule): per strip, crossing lists in the band's own buffers.
struct SIMDFillSampler {
    let cells: SIMDFillCells
    /// Samples per axis, 0 for exact area coverage (the sampler unused).
    let samples: Int
    /// The rule the spans are found by (the sweep then counts samples).
    let evenOdd: Bool
    /// (x, direction) per crossing, one list per sub-scanline.
    let crossings: UnsafeMutablePointer<SIMD2<Float>>
    /// Each sub-scanline list's start, then (after filling) its end.
    let starts: UnsafeMutablePointer<Int32>

    /// The supersampled variants' cell fill for one strip (the walk's next):
    /// per sub-scanline, the crossings of its edges (sorted by x) are walked
    /// with a winding count, and each inside span [x_a, x_b) -- quantised to
    /// the sample centres it contains -- is written as two vertical unit
    /// steps of height 1/S at sample-exact x into the same cells the exact
    /// variant uses. The sweep's prefix sum then counts covered samples.
    func sample(_ walk: inout FillStripWalk, strip s: Int, top: Int, bottom: Int) {
        let n = samples
        let sf = Float(n)
        let inverse = 1 / sf
        let subTop = top * n, lines = (bottom - top) * n
        starts.update(repeating: 0, count: lines + 1)
        walk.forEachEdge(ofStrip: s) { e in
            let k0 = max(subTop, FillStrips.firstSubScanline(min(e.y, e.w), samples: n))
            let k1 = min(subTop + lines, FillStrips.firstSubScanline(max(e.y, e.w), samples: n))
            var k = k0
            while k < k1 { starts[k - subTop + 1] += 1; k += 1 }
        }
        for k in 0..<lines { starts[k + 1] += starts[k] }
        walk.forEachEdge(ofStrip: s, carryingBelow: bottom) { e in
            let dir: Float = e.w > e.y ? 1 : -1
            let dxdy = (e.z - e.x) / (e.w - e.y)
            let k0 = max(subTop, FillStrips.firstSubScanline(min(e.y, e.w), samples: n))
            let k1 = min(subTop + lines, FillStrips.firstSubScanline(max(e.y, e.w), samples: n))
            var k = k0
            while k < k1 {
                let y = (Float(k) + 0.5) * inverse // exact: S is a power of two
                let slot = Int(starts[k - subTop])
                crossings[slot] = SIMD2(e.x + (y - e.y) * dxdy, dir)
                starts[k - subTop] = Int32(slot + 1)
                k += 1
            }
        }
        // starts[k] is now the end of list k.
        // 1/S of a pixel row, split between two cells in S-ths: exact in
        // fixed point (S^2 divides `FillFixed.one`).
        let unit = UInt32(FillFixed.one) / UInt32(n * n)
        for k in 0..<lines {
            let begin = k == 0 ? 0 : Int(starts[k - 1]), end = Int(starts[k])
            if end - begin < 2 { continue }
            let buffer = UnsafeMutableBufferPointer(start: crossings + begin, count: end - begin)
            CrossingSort.byX(buffer)
            let y = top + k / n
            let cell = cells.cellRow(y, top: top), bits = cells.bitRow(y, top: top)
            var winding = 0
            for i in 0..<(buffer.count - 1) {
                winding &+= buffer[i].y > 0 ? 1 : -1
                if !FillCoverage.inside(winding, evenOdd: evenOdd) { continue }
                let from = Int((buffer[i].x * sf - 0.5).rounded(.up))
                let to = Int((buffer[i + 1].x * sf - 0.5).rounded(.up))
                if from >= to { continue }
                addStep(cell, bits, at: from, unit: unit)
                addStep(cell, bits, at: to, unit: 0 &- unit)
            }
        }
    }

    /// A vertical step of S `unit`s (1/S of a pixel, signed by wrapping) at
    /// x = sample / S: split between the cell it falls in and the next, like
    /// a vertical edge.
    @inline(__always)
    func addStep(_ cell: UnsafeMutablePointer<UInt32>, _ bits: UnsafeMutablePointer<UInt64>, at sample: Int, unit: UInt32) {
        let c = sample / samples
        let r = UInt32(truncatingIfNeeded: sample - c * samples)
        cell[c] &+= unit &* (UInt32(samples) &- r)
        cell[c + 1] &+= unit &* r
        cells.mark(bits, from: c, to: c + 1)
    }
}
