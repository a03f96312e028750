extension NaiveBackend {
    /// The naive schedule's accumulation alone (`FillStages.windings`):
    /// one cell per pixel plus the two guard cells, every edge added by
    /// `accumulate`, each row prefix-summed.
    static func fillWindings(_ edges: [SIMD4<Float>], width: Int, height: Int) -> [Int32] {
        let columns = width + 2
        var out = [Int32](repeating: 0, count: height * columns)
        let cells = UnsafeMutablePointer<Int32>.allocate(capacity: height * columns)
        defer { cells.deallocate() }
        cells.update(repeating: 0, count: height * columns)
        let grid = CellGrid(base: cells, rows: 0..<height, cells: 0..<columns)
        for e in edges { accumulate(e, into: grid) }
        for y in 0..<height {
            var sum: Int32 = 0
            for x in 0..<columns { sum &+= grid.row(y)[x]; out[y * columns + x] = sum }
        }
        return out
    }
}
