import CRasterOMP

/// K4's accumulation stage alone, per backend, for differential tests (a
/// failure then names the stage, not just the image): the fixed-point
/// winding `FillFixed` cells hold after every edge's area differences are
/// added and each row is prefix-summed -- before the fill rule and the
/// composite. Not a fast path: it allocates.
public enum FillStages {
    /// Units per pixel of the windings returned (raster_fill.h's RASTER_OMP_FILL_ONE).
    public static let one = Int(FillFixed.one)

    /// The winding of `edges` -- (x0, y0, x1, y1) with 0 <= x <= width,
    /// 0 <= y <= height, y0 != y1, as `FillEdges` hands them to the
    /// rasterisers -- on a width x height canvas, by `backend`'s own
    /// accumulation: height rows of width + 2 values (the pixels, then the
    /// two guard cells; right of every edge the winding is final), in
    /// units of 1 / `one` pixel, read as signed 32-bit.
    public static func windings(_ edges: [SIMD4<Float>], width: Int, height: Int, backend: BackendKind) throws -> [Int32] {
        guard width > 0, height > 0, width <= 32768, height <= 32768 else {
            throw RasterError.invalidArgument(name: "size", value: "\(width)x\(height)", accepted: "1...32768 each")
        }
        for e in edges where !(e.x >= 0 && e.z >= 0 && e.x <= Float(width) && e.z <= Float(width)
                               && e.y >= 0 && e.w >= 0 && e.y <= Float(height) && e.w <= Float(height) && e.y != e.w) {
            throw RasterError.invalidArgument(name: "edge", value: "\(e)", accepted: "inside the canvas, not horizontal")
        }
        let columns = width + 2
        var out = [Int32](repeating: 0, count: height * columns)
        switch backend {
        case .naive:
            let cells = UnsafeMutablePointer<Int32>.allocate(capacity: height * columns)
            defer { cells.deallocate() }
            cells.update(repeating: 0, count: height * columns)
            let grid = CellGrid(base: cells, rows: 0..<height, cells: 0..<columns)
            for e in edges { NaiveBackend.accumulate(e, into: grid) }
            for y in 0..<height {
                var sum: Int32 = 0
                for x in 0..<columns { sum &+= grid.row(y)[x]; out[y * columns + x] = sum }
            }
        case .simd:
            simdWindings(edges, width: width, height: height, into: &out)
        case .openmp:
            let bytes = raster_omp_fill_windings_bytes(Int32(width))
            let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            defer { memory.deallocate() }
            edges.withUnsafeBytes { e in
                out.withUnsafeMutableBufferPointer { o in
                    raster_omp_fill_windings(e.baseAddress?.assumingMemoryBound(to: Float.self), Int32(edges.count),
                                             Int32(width), Int32(height), memory, o.baseAddress)
                }
            }
        }
        return out
    }

    /// The simd backend's accumulation (`SIMDFillAccumulator`), one band.
    static func simdWindings(_ list: [SIMD4<Float>], width: Int, height: Int, into out: inout [Int32]) {
        let scratch = Scratch()
        let buffer = scratch.buffer(ScratchSlot.fillEdges, count: max(1, list.count), of: SIMD4<Float>.self)
        for (i, e) in list.enumerated() { buffer[i] = e }
        let edges = FillEdges(edges: buffer, count: list.count, minX: 0, minY: 0, maxX: Float(width), maxY: Float(height))
        let stripRange = FillStrips.covering(0..<height)
        let strips = FillStrips(edges, samples: 0, range: stripRange, scratch: scratch)
        let stride = (width + 2 + FillLanes.width - 1) & ~(FillLanes.width - 1)
        let layout = CellLayout(origin: 0, stride: stride, words: (stride / FillLanes.width + 63) / 64, rows: 0..<height)
        let cellCount = FillStrips.rows * stride + SIMDFillAccumulator.cellGuard
        let store = SIMDFillCells(
            layout: layout, cells: scratch.buffer(ScratchSlot.fillCells, count: cellCount, of: UInt32.self),
            bitmap: scratch.buffer(ScratchSlot.fillBitmap, count: FillStrips.rows * layout.words, of: UInt64.self))
        store.bitmap.update(repeating: 0, count: FillStrips.rows * layout.words)
        let accumulator = SIMDFillAccumulator(
            cells: store, lanes: scratch.buffer(ScratchSlot.fillLanes, count: SIMDFillAccumulator.laneVectors, of: Float16Lanes.self))
        let work = FillStripWork(edges: edges, strips: strips)
        let columns = width + 2
        for s in 0..<strips.count {
            store.cells.update(repeating: 0, count: cellCount)
            let top = (strips.first + s) * FillStrips.rows, bottom = min(top + FillStrips.rows, height)
            accumulator.add(work, strip: s, top: top, bottom: bottom)
            for y in top..<bottom {
                var sum: UInt32 = 0
                let row = store.cellRow(y, top: top)
                for x in 0..<columns { sum &+= row[x]; out[y * columns + x] = Int32(bitPattern: sum) }
            }
        }
    }
}

extension CellLayout {
    /// A layout given outright (`FillStages`).
    init(origin: Int, stride: Int, words: Int, rows: Range<Int>) {
        self.origin = origin; self.stride = stride; self.words = words; self.rows = rows
    }
}
