/// Sorts one sub-scanline's edge crossings (x, winding direction) by x, in
/// place and without allocating: the standard library's `sort` is a merge
/// sort that takes a temporary buffer (hundreds of mallocs per supersampled
/// frame, measured), and a steady-state frame must allocate nothing.
///
/// Lists are short (a few crossings per shape), so insertion sort handles
/// them; long ones (a field of many shapes) fall to an in-place heap sort.
/// Equal x values may come out in any order: the span between them is
/// empty, so no sample depends on it.
enum CrossingSort {
    /// Below this, insertion sort's few moves beat the heap's bookkeeping.
    static let insertionLimit = 24

    static func byX(_ a: UnsafeMutableBufferPointer<SIMD2<Float>>) {
        let n = a.count
        if n <= insertionLimit {
            if n < 2 { return }
            for i in 1..<n {
                let v = a[i]
                var j = i
                while j > 0 && a[j - 1].x > v.x { a[j] = a[j - 1]; j -= 1 }
                a[j] = v
            }
            return
        }
        // Heap sort: build a max-heap on x, then pop the largest to the end.
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end && a[child].x < a[child + 1].x { child += 1 }
                if a[root].x >= a[child].x { return }
                a.swapAt(root, child)
                root = child
            }
        }
        for start in stride(from: n / 2 - 1, through: 0, by: -1) { siftDown(start, n) }
        for end in stride(from: n - 1, to: 0, by: -1) {
            a.swapAt(0, end)
            siftDown(0, end)
        }
    }
}
