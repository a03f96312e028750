import CRasterOMP

/// K4's edges bucketed into strips of `rows` pixel rows, for the banded
/// rasterisers: each strip owns a small cell buffer (rows x the path's
/// width) that stays in L1/L2 while its edges are accumulated and its rows
/// swept, and each thread takes a contiguous run of strips.
///
/// The buckets are filled as the edges are made: the clipper hands each
/// edge to `StripBucketer`, which appends it to the chain of blocks of the
/// first strip (of the band) it touches (raster_fill.h's
/// RASTER_OMP_FILL_BLOCK_SLOTS gives the layout, which the C schedule reads
/// too). So the path is walked once -- no edge list, no counting pass, no
/// index lists -- as Blend2D's edge builder fills its band lists, and the
/// buckets take memory in proportion to the edges. A band then walks its
/// strips in order (`FillStripWalk`), carrying the edges that reach into
/// the next strip.
///
/// Strips are aligned to absolute multiples of `rows`, so the edges a strip
/// gets -- and every float value computed from them -- are the same
/// whichever band holds it: the image cannot depend on the thread count.
struct FillStrips {
    /// Rows per strip (raster_fill.h's RASTER_OMP_FILL_STRIP_ROWS, which
    /// says why 32; the C schedule's strips are the same).
    static let rows = Int(RASTER_OMP_FILL_STRIP_ROWS)
    /// 16-byte slots per bucket block: a header (next block, edge count)
    /// and `slots - 1` edges.
    static let slots = Int(RASTER_OMP_FILL_BLOCK_SLOTS)

    /// Global index of the first strip (strip s covers rows 32 s ..< 32 s + 32).
    let first: Int
    let count: Int
    /// The blocks, `slots` slots each.
    let blocks: UnsafeMutablePointer<SIMD4<Float>>
    /// First block of strip `first + i`'s bucket (the edges whose first
    /// strip in the band it is), or -1 when it is empty.
    let heads: UnsafeMutablePointer<Int32>
    /// Edges in all the buckets (each once).
    let edgeCount: Int
    /// The most sub-scanline crossings any one strip has (0 unless sampling).
    private(set) var maxCrossings: Int
    /// No edge touches these strips.
    let isEmpty: Bool
    /// Blocks the buckets take (what a later fill's first try holds).
    let blocksUsed: Int

    /// Sub-scanline k samples y = (k + 0.5) / S, so an edge from y0 to y1
    /// (y0 < y1) crosses the sub-scanlines ceil(y0 S - 0.5) ..< ceil(y1 S - 0.5).
    @inline(__always)
    static func firstSubScanline(_ y: Float, samples: Int) -> Int {
        Int((y * Float(samples) - 0.5).rounded(.up))
    }

    /// Calls `body` with each edge of strip `first + i`'s bucket, in path order.
    @inline(__always)
    func forEachEdge(ofStrip i: Int, _ body: (SIMD4<Float>) -> Void) {
        FillStrips.forEachEdge(blocks, from: Int(heads[i]), body)
    }

    /// Calls `body` with each edge of the chain starting at block `head`.
    @inline(__always)
    static func forEachEdge(_ blocks: UnsafeMutablePointer<SIMD4<Float>>, from head: Int,
                            _ body: (SIMD4<Float>) -> Void) {
        var b = head
        while b >= 0 {
            let block = blocks + b &* FillStrips.slots
            let header = UnsafeRawPointer(block).load(as: SIMD2<Int32>.self)
            var k = 1
            while k <= Int(header.y) { body(block[k]); k &+= 1 }
            b = Int(header.x)
        }
    }

    /// Flattens and clips `fill.path` for the strips `range` (absolute
    /// indices) of a `width` x `height` canvas, straight into their buckets;
    /// the buckets live in `scratch` until its next use.
    static func prepare(_ fill: PathFill, variant: FillVariant, width: Int, height: Int, range: Range<Int>,
                        scratch: Scratch) -> FillStrips {
        let rows = range.lowerBound * FillStrips.rows ..< min(range.upperBound * FillStrips.rows, height)
        let flattener = FillEdges.flattener(fill, variant: variant, width: width, rows: rows, scratch: scratch)
        let samples = variant.samplesPerAxis ?? 0
        // Each segment clips into at most three edges (left of 0, inside,
        // right of W), each in one bucket, and each strip leaves at most one
        // block partly empty: the bound cannot overflow.
        return FillEdges.heldFirst(held: scratch.capacity(ScratchSlot.fillEdges, of: SIMD4<Float>.self) / FillStrips.slots,
                                   bound: { FillStrips.blocks(edges: 3 * flattener.segmentCount(fill.path),
                                                              strips: range.count) }) { blocks in
            var clipper = EdgeClipper(out: StripBucketer(range: range, blocks: blocks, scratch: scratch),
                                      width: Double(width), height: Double(height),
                                      rows: (Double(rows.lowerBound), Double(rows.upperBound)))
            flattener.flatten(fill.path, into: &clipper)
            return clipper.out.overflowed ? nil : FillStrips(clipper.out, samples: samples, scratch: scratch)
        }
    }

    /// Blocks that surely hold `edges` edges in `strips` buckets.
    static func blocks(edges: Int, strips: Int) -> Int {
        edges / (FillStrips.slots - 1) + strips + 1
    }

    /// Buckets `edges` (clipped as `EdgeClipper` clips) into the strips
    /// `range` (absolute indices); the parts of edges outside them are
    /// ignored.
    init(_ edges: UnsafeBufferPointer<SIMD4<Float>>, samples: Int, range: Range<Int>, scratch: Scratch) {
        var bucketer = StripBucketer(range: range, blocks: FillStrips.blocks(edges: edges.count, strips: range.count),
                                     scratch: scratch)
        for e in edges { bucketer.add(e) }
        self.init(bucketer, samples: samples, scratch: scratch)
    }

    private init(_ bucketer: StripBucketer, samples: Int, scratch: Scratch) {
        first = bucketer.first
        count = bucketer.count
        blocks = bucketer.blocks
        heads = bucketer.heads
        edgeCount = bucketer.edges
        isEmpty = bucketer.edges == 0
        blocksUsed = bucketer.used
        maxCrossings = 0
        // Crossings per strip, for sizing the supersamplers' lists.
        if samples > 0 {
            var most = 0
            var walk = FillStripWalk(self, scratch: scratch)
            let perStrip = FillStrips.rows * samples
            for s in 0..<count {
                let lo = (first + s) * perStrip, hi = lo + perStrip
                var n = 0
                walk.forEachEdge(ofStrip: s, carryingBelow: (first + s + 1) * FillStrips.rows) { edge in
                    let k0 = FillStrips.firstSubScanline(min(edge.y, edge.w), samples: samples)
                    let k1 = FillStrips.firstSubScanline(max(edge.y, edge.w), samples: samples)
                    n += max(0, min(k1, hi) - max(k0, lo))
                }
                most = max(most, n)
            }
            maxCrossings = most
        }
    }

    /// The strips (relative to `first`, within `0..<count`) an edge's rows
    /// touch. (Clipped y lies in [0, 32768], so the unchecked magic-number
    /// conversion and a shift do; this runs once per edge made.)
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
}

/// `EdgeClipper`'s output for the banded schedules: each edge appended to
/// the bucket of the first strip (of `first ..< first + count`) its rows
/// touch.
struct StripBucketer: ClippedEdges {
    let first: Int, count: Int
    let blocks: UnsafeMutablePointer<SIMD4<Float>>
    let capacity: Int
    let heads: UnsafeMutablePointer<Int32>
    /// Last block of each strip's chain (-1: none yet).
    let tails: UnsafeMutablePointer<Int32>
    var used = 0
    var edges = 0
    var overflowed = false

    /// Empty buckets for the strips `range` in `blocks` blocks of `scratch`.
    init(range: Range<Int>, blocks: Int, scratch: Scratch) {
        first = range.lowerBound
        count = range.count
        capacity = max(1, blocks)
        self.blocks = scratch.buffer(ScratchSlot.fillEdges, count: capacity * FillStrips.slots, of: SIMD4<Float>.self)
        heads = scratch.buffer(ScratchSlot.fillBucketHeads, count: max(1, count), of: Int32.self)
        tails = scratch.buffer(ScratchSlot.fillBucketTails, count: max(1, count), of: Int32.self)
        heads.update(repeating: -1, count: count)
        tails.update(repeating: -1, count: count)
    }

    @inline(__always)
    mutating func add(_ e: SIMD4<Float>) {
        let (a, b) = FillStrips.stripRange(e, first: first, count: count)
        if a <= b { append(e, strip: a) }
    }

    /// Appends `e` to strip `s`'s chain, starting a block when its last is
    /// full. (Wrapping arithmetic: indices are below `capacity` by the
    /// check, and Swift's overflow checks cost a branch per add.)
    @inline(__always)
    private mutating func append(_ e: SIMD4<Float>, strip s: Int) {
        var t = Int(tails[s])
        let raw = UnsafeMutableRawPointer(blocks)
        let blockBytes = FillStrips.slots &* MemoryLayout<SIMD4<Float>>.stride
        var n = t < 0 ? 0 : raw.load(fromByteOffset: t &* blockBytes &+ 4, as: Int32.self)
        if t < 0 || n == Int32(FillStrips.slots &- 1) {
            if used == capacity { overflowed = true; return }
            let next = used
            used &+= 1
            raw.storeBytes(of: SIMD2<Int32>(-1, 0), toByteOffset: next &* blockBytes, as: SIMD2<Int32>.self)
            if t < 0 { heads[s] = Int32(next) } else { raw.storeBytes(of: Int32(next), toByteOffset: t &* blockBytes, as: Int32.self) }
            tails[s] = Int32(next)
            t = next
            n = 0
        }
        blocks[t &* FillStrips.slots &+ 1 &+ Int(n)] = e
        raw.storeBytes(of: n &+ 1, toByteOffset: t &* blockBytes &+ 4, as: Int32.self)
        edges &+= 1
    }
}

/// A band's walk down its strips, first to last. Each edge sits in one
/// bucket, its first strip's (`FillStrips`); strip i's edges are those
/// carried from strip i - 1 that reach below i's top, then its bucket's
/// (Blend2D's active edge list). So a strip gets the edges touching its
/// rows whichever band holds it; only their order depends on where the
/// band begins, and nothing computed from them does: the cells' integer
/// sums are order-free, and a sub-scanline's crossings are sorted by x
/// (equal x bound empty spans, whatever their order).
struct FillStripWalk {
    let strips: FillStrips
    /// Two lists of `capacity` edges: strip i's carried edges, and those
    /// kept for strip i + 1.
    let carry: UnsafeMutablePointer<SIMD4<Float>>
    let capacity: Int
    private var current = 0, carried = 0

    /// A walk from the band's first strip, its lists in `scratch` (slot `fillCarry`).
    init(_ strips: FillStrips, scratch: Scratch) {
        self.strips = strips
        capacity = max(1, strips.edgeCount)
        carry = scratch.buffer(ScratchSlot.fillCarry, count: 2 * capacity, of: SIMD4<Float>.self)
    }

    /// Calls `body` with each edge of strip `i`, the walk's next strip
    /// (the carried ones, then its bucket's).
    @inline(__always)
    func forEachEdge(ofStrip i: Int, _ body: (SIMD4<Float>) -> Void) {
        let list = carry + current &* capacity
        var k = 0
        while k < carried { body(list[k]); k &+= 1 }
        strips.forEachEdge(ofStrip: i, body)
    }

    /// `forEachEdge`, keeping for strip i + 1 the edges that reach below
    /// `bottom` (strip i's last row + 1), and moving the walk on to it.
    @inline(__always)
    mutating func forEachEdge(ofStrip i: Int, carryingBelow bottom: Int, _ body: (SIMD4<Float>) -> Void) {
        let kept = carry + (1 &- current) &* capacity
        let limit = Float(bottom)
        var n = 0
        // Stored always, counted when kept: no branch to mispredict.
        forEachEdge(ofStrip: i) { e in
            body(e)
            kept[n] = e
            n &+= max(e.y, e.w) > limit ? 1 : 0
        }
        current = 1 &- current
        carried = n
    }
}
