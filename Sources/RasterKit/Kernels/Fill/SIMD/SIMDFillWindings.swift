extension SIMDBackend {
    /// The simd schedule's accumulation alone (`FillStages.windings`): the
    /// edges bucketed into strips (`FillStrips`), each strip's row steps
    /// added by `SIMDFillAccumulator` into one band's cells, and each row
    /// prefix-summed -- the pixels and the two guard cells.
    static func fillWindings(_ list: [SIMD4<Float>], width: Int, height: Int) -> [Int32] {
        let columns = width + 2
        var out = [Int32](repeating: 0, count: height * columns)
        let scratch = Scratch()
        let strips = list.withUnsafeBufferPointer {
            FillStrips($0, samples: 0, range: FillStrips.covering(0..<height), scratch: scratch)
        }
        let layout = CellLayout(cells: 0..<columns, rows: 0..<height)
        let cellCount = FillStrips.rows * layout.stride + SIMDFillAccumulator.cellGuard
        let store = SIMDFillCells(
            layout: layout, cells: scratch.buffer(ScratchSlot.fillCells, count: cellCount, of: UInt32.self),
            bitmap: scratch.buffer(ScratchSlot.fillBitmap, count: FillStrips.rows * layout.words, of: UInt64.self))
        store.bitmap.update(repeating: 0, count: FillStrips.rows * layout.words)
        let accumulator = SIMDFillAccumulator(
            cells: store, lanes: scratch.buffer(ScratchSlot.fillLanes, count: SIMDFillAccumulator.laneVectors, of: Float16Lanes.self))
        var walk = FillStripWalk(strips, scratch: scratch)
        for s in 0..<strips.count {
            store.cells.update(repeating: 0, count: cellCount)
            let top = (strips.first + s) * FillStrips.rows, bottom = min(top + FillStrips.rows, height)
            accumulator.add(&walk, strip: s, top: top, bottom: bottom)
            for y in top..<bottom {
                var sum: UInt32 = 0
                let row = store.cellRow(y, top: top)
                for x in 0..<columns { sum &+= row[x]; out[y * columns + x] = Int32(bitPattern: sum) }
            }
        }
        return out
    }
}
