import CRasterOMP

/// K4's edges bucketed into strips of `rows` pixel rows, for the banded
/// rasterisers: each strip owns a small cell buffer (rows x the path's
/// width) that stays in L1/L2 while its edges are accumulated and its rows
/// swept, and each thread takes a contiguous run of strips.
///
/// Strips are aligned to absolute multiples of `rows` and list their edges
/// in path order, so a strip's work -- and every float sum in it -- is the
/// same whichever band holds it: the image cannot depend on the thread count.
struct FillStrips {
    /// Rows per strip (raster_fill.h's RASTER_OMP_FILL_STRIP_ROWS, which
    /// says why 32; the C schedule's strips are the same).
    static let rows = Int(RASTER_OMP_FILL_STRIP_ROWS)

    /// Global index of the first strip (strip s covers rows 32 s ..< 32 s + 32).
    let first: Int
    let count: Int
    /// Edge indices of strip `first + i`: indices[offsets[i] ..< offsets[i + 1]].
    let offsets: UnsafeMutablePointer<Int32>
    let indices: UnsafeMutablePointer<Int32>
    /// The most sub-scanline crossings any one strip has (0 unless sampling).
    let maxCrossings: Int

    /// Sub-scanline k samples y = (k + 0.5) / S, so an edge from y0 to y1
    /// (y0 < y1) crosses the sub-scanlines ceil(y0 S - 0.5) ..< ceil(y1 S - 0.5).
    @inline(__always)
    static func firstSubScanline(_ y: Float, samples: Int) -> Int {
        Int((y * Float(samples) - 0.5).rounded(.up))
    }

    /// Buckets `edges` into the strips `range` (absolute strip indices);
    /// the parts of edges outside them are ignored.
    init(_ edges: FillEdges, samples: Int, range: Range<Int>, scratch: Scratch) {
        first = range.lowerBound
        count = range.count
        offsets = scratch.buffer(ScratchSlot.fillBucketOffsets, count: count + 1, of: Int32.self)
        offsets.update(repeating: 0, count: count + 1)
        let e = edges.edges
        // Pass 1: edges per strip.
        var total = 0
        for i in 0..<edges.count {
            let (a, b) = FillStrips.stripRange(e[i], first: first, count: count)
            if a > b { continue }
            for s in a...b { offsets[s + 1] += 1 }
            total += b - a + 1
        }
        for s in 0..<count { offsets[s + 1] += offsets[s] }
        // Pass 2: indices in path order (offsets[s] advances to the end of s).
        indices = scratch.buffer(ScratchSlot.fillBucketEdges, count: max(1, total), of: Int32.self)
        for i in 0..<edges.count {
            let (a, b) = FillStrips.stripRange(e[i], first: first, count: count)
            if a > b { continue }
            for s in a...b { indices[Int(offsets[s])] = Int32(i); offsets[s] += 1 }
        }
        for s in stride(from: count, to: 0, by: -1) { offsets[s] = offsets[s - 1] }
        offsets[0] = 0
        // Crossings per strip, for sizing the supersamplers' lists.
        var most = 0
        if samples > 0 {
            let perStrip = FillStrips.rows * samples
            for s in 0..<count {
                let lo = (first + s) * perStrip, hi = lo + perStrip
                var n = 0
                for j in Int(offsets[s])..<Int(offsets[s + 1]) {
                    let edge = e[Int(indices[j])]
                    let k0 = FillStrips.firstSubScanline(min(edge.y, edge.w), samples: samples)
                    let k1 = FillStrips.firstSubScanline(max(edge.y, edge.w), samples: samples)
                    n += max(0, min(k1, hi) - max(k0, lo))
                }
                most = max(most, n)
            }
        }
        maxCrossings = most
    }

    /// The strips (relative to `first`, within `0..<count`) an edge's rows
    /// touch. (Clipped y lies in [0, 32768], so the unchecked magic-number
    /// conversion and a shift do; this runs twice per edge.)
    @inline(__always)
    static func stripRange(_ e: SIMD4<Float>, first: Int, count: Int) -> (Int, Int) {
        let top = Lanes.floorInt(min(e.y, e.w)), end = Lanes.ceilInt(max(e.y, e.w))
        return (max(0, top &>> FillStrips.stripShift &- first), min(count &- 1, (end &- 1) &>> FillStrips.stripShift &- first))
    }

    /// The strips (absolute indices) holding rows `rows`.
    static func covering(_ rows: Range<Int>) -> Range<Int> {
        rows.isEmpty ? 0..<0 : rows.lowerBound >> stripShift ..< ((rows.upperBound - 1) >> stripShift) + 1
    }

    /// How a fill's strips are shared among `threads` threads, for every
    /// schedule (the openmp one sizes its team by the same count): one band
    /// of strips per thread, because each band flattens the path again.
    /// (Tried: four or two bands per thread, for shapes whose rows cost
    /// unevenly -- the blob's halves differ by ~25% -- but the extra
    /// set-ups cost more.)
    static func bands(_ strips: Range<Int>, threads: Int) -> RowBands {
        RowBands(items: strips.count, threads: threads, perThread: 1)
    }

    /// log2(rows).
    static let stripShift = Int(RASTER_OMP_FILL_STRIP_SHIFT)

    /// The edges of strip `first + i`.
    @inline(__always)
    func edges(of i: Int) -> Range<Int> { Int(offsets[i])..<Int(offsets[i + 1]) }
}

/// A band's strip work: its edges and their buckets, what every schedule's
/// per-strip stage (accumulate or sample) reads.
struct FillStripWork {
    let edges: FillEdges
    let strips: FillStrips

    /// Edge `j` of the bucket lists (`strips.edges(of:)` gives a strip's js).
    @inline(__always)
    func edge(_ j: Int) -> SIMD4<Float> { edges.edges[Int(strips.indices[j])] }
}
