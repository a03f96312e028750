/// Which curved parts of a path may be flattened coarsely: the path's curves
/// cut into nearly straight pieces, each marked lone (no other piece within
/// a pixel of it) or crowded. `Flattener` flattens a lone piece to the
/// coarse tolerance and a crowded one to the fine tolerance.
///
/// Why this keeps a pixel's coverage error bounded (the exact variant's
/// argument; numbers in 8-bit units, one unit = 1/255 of coverage):
///
/// - A chord within t of its arc moves the coverage of a pixel by the area
///   between chord and arc inside that pixel (pixels to the right see only
///   the chord's end points, which lie on the arc). Where the path's tangent
///   stays within phi/2 of one direction u, arc and chords are graphs over
///   u, at most t / cos(phi/2) apart across u, and a pixel is at most sqrt 2
///   long along u: the error is at most sqrt(2) t / cos(phi/2). Errors of
///   several curves through one pixel add.
/// - A piece is cut until its tangent cone (the directions of its control
///   legs, which span every tangent) is at most `maxTurn` wide, and two
///   pieces are neighbours when one ends where the next starts with
///   tangents at most `maxTurn` apart. A piece is lone when its pixel box
///   (the pixels its control box reaches; chords and arc stay inside it)
///   meets no other piece's except its neighbours'. So in a pixel a lone
///   piece touches, the only curve pieces are it and its two neighbours,
///   whose tangents turn by phi <= 5 `maxTurn` = 40.5 degrees together: the
///   pixel's error is at most sqrt(2) / cos(20.3 deg) t = 1.51 t px, 1.37
///   units at t = 1/280 (`FillVariant.loneTolerance`).
/// - Every other pixel is touched by crowded pieces only (fine tolerance,
///   1/1024: 0.35 units a curve, as before) and straight lines (no error).
/// So a lone curve costs at most the 1.4 units four crowded curves crossing
/// one pixel already may; the bound of 2 holds after rounding with the
/// reference's own same-signed error (its chords sag to the same side).
///
/// Deterministic and independent of banding: the pieces and marks depend on
/// the path alone (not on the rows a thread flattens), so every band
/// flattens a curve into the same chords.
///
/// A class whose arrays keep their capacity: a fill plans its path into the
/// one kept in its scratch (`Scratch.object`, slot `fillCurvePieces`), so a
/// steady stream of frames allocates nothing here.
final class CurvePieces {
    /// The widest tangent cone of a piece and the widest turn between
    /// neighbours, as a cosine: cos(8.1 degrees).
    static let maxTurnCosine = 0.99
    /// Halvings of one curve before its pieces count as crowded regardless
    /// (a cusp never narrows its cone): at most 2^8 pieces a curve.
    static let maxDepth = 8
    /// Above this many pieces the whole path is flattened finely: the
    /// crowding test would cost more than it saves.
    static let maxPieces = 1 << 14  // (the sort key below holds indices below 2^16)

    /// The pieces and the working arrays that keep their capacity.
    private var list = PieceList()

    /// Control points, four per piece, in path order.
    var points: [Point] { list.points }
    /// Per piece: flatten coarsely.
    var lone: [Bool] { list.lone }
    /// Per curve element of the path, in order: how many pieces it has.
    var counts: [Int32] { list.counts }

    /// No pieces yet: `plan` a path into it.
    init() {}

    /// The pieces of `path`; nil when it has no curve or too many pieces
    /// (then everything is flattened finely).
    convenience init?(_ path: Path) {
        self.init()
        if !plan(path) { return nil }
    }

    /// Cuts and marks `path`'s curves, replacing what was planned before;
    /// false when the path has no curve or too many pieces (then everything
    /// is flattened finely).
    func plan(_ path: Path) -> Bool {
        // The list is moved out of the object while it is planned and moved
        // back after (no copy: its arrays have one owner at a time). Appending
        // to a class's stored arrays from the recursive `cut` made every
        // append a dynamic exclusivity check (swift_beginAccess), ~4% of a
        // lone blob's fill in a profile.
        var planned = PieceList()
        swap(&planned, &list)
        defer { swap(&planned, &list) }
        return planned.plan(path)
    }

    var pieceCount: Int { list.lone.count }

    /// Control points of piece `i`.
    @inline(__always)
    func piece(_ i: Int) -> (Point, Point, Point, Point) { list.piece(i) }

    /// Sorts `keys` ascending in place: a heap sort, as the standard
    /// library's sort takes a temporary buffer (a malloc per frame).
    static func heapSort(_ keys: UnsafeMutableBufferPointer<Int>) {
        func sift(_ root: Int, _ end: Int) {
            var parent = root
            while true {
                var child = 2 * parent + 1
                if child >= end { return }
                if child + 1 < end && keys[child + 1] > keys[child] { child += 1 }
                if keys[parent] >= keys[child] { return }
                keys.swapAt(parent, child)
                parent = child
            }
        }
        let n = keys.count
        for root in stride(from: n / 2 - 1, through: 0, by: -1) { sift(root, n) }
        for end in stride(from: n - 1, to: 0, by: -1) {
            keys.swapAt(0, end)
            sift(0, end)
        }
    }

    /// Whether the non-zero legs a, b, c pairwise differ by at most the
    /// turn limit (then their cone, which holds every tangent, does).
    static func narrow(_ a: Point, _ b: Point, _ c: Point) -> Bool {
        let zero = Point(0, 0)
        return (a == zero || b == zero || close(a, b))
            && (a == zero || c == zero || close(a, c))
            && (b == zero || c == zero || close(b, c))
    }

    /// Whether non-zero a and b point within the turn limit of each other.
    @inline(__always)
    static func close(_ a: Point, _ b: Point) -> Bool {
        let d = a.dot(b), k = maxTurnCosine
        return d > 0 && d * d >= k * k * a.dot(a) * b.dot(b)
    }

    /// The tangent direction at a cubic's start / end: its first / last
    /// non-zero leg (nil for a point).
    static func firstLeg(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> Point? {
        p1 != p0 ? p1 - p0 : p2 != p0 ? p2 - p0 : p3 != p0 ? p3 - p0 : nil
    }

    static func lastLeg(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> Point? {
        p3 != p2 ? p3 - p2 : p3 != p1 ? p3 - p1 : p3 != p0 ? p3 - p0 : nil
    }
}

/// `CurvePieces`' arrays while a path is cut into pieces (the class moves
/// them in and out, keeping their capacity): a struct, so the recursive
/// `cut` appends through one exclusive access instead of a checked access
/// to a class property per append.
private struct PieceList {
    /// Control points, four per piece, in path order.
    var points: [Point] = []
    /// Per piece: flatten coarsely.
    var lone: [Bool] = []
    /// Per curve element of the path, in order: how many pieces it has.
    var counts: [Int32] = []
    /// Per piece: the index of the neighbour it runs into, or -1.
    var next: [Int32] = []
    /// Per piece: its cone exceeds `CurvePieces.maxTurnCosine` even at `maxDepth`.
    var bent: [Bool] = []
    /// `markLone`'s sort keys, boxes and marks, kept for their capacity.
    var order: [Int] = []
    var boxes: [SIMD4<Double>] = []
    var crowded: [Bool] = []

    /// Cuts `path`'s curves into pieces and joins neighbours, replacing
    /// what the arrays held; false when it has no curve or too many pieces.
    mutating func plan(_ path: Path) -> Bool {
        points.removeAll(keepingCapacity: true); lone.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true); next.removeAll(keepingCapacity: true)
        bent.removeAll(keepingCapacity: true)
        var start = Point(0, 0), current = Point(0, 0)
        var first = 0  // first piece of the current run (a move or close starts a new one)
        // Room for eight pieces a curve (the blob's cubics take eight)
        // without regrowing the arrays on the first frame.
        let room = min(8 * path.elements.count, 4096)
        points.reserveCapacity(4 * room); lone.reserveCapacity(room); bent.reserveCapacity(room)
        next.reserveCapacity(room); counts.reserveCapacity(path.elements.count)
        for e in path.elements {
            switch e {
            case let .move(p):
                closeRun(from: first); first = lone.count
                start = p; current = p
            case let .line(p):
                current = p
            case let .quad(c, p):
                let before = lone.count
                cut(current, current + (c - current) * (2.0 / 3.0), p + (c - p) * (2.0 / 3.0), p, depth: 0)
                counts.append(Int32(lone.count - before))
                current = p
            case let .cubic(c1, c2, p):
                let before = lone.count
                cut(current, c1, c2, p, depth: 0)
                counts.append(Int32(lone.count - before))
                current = p
            case .close:
                closeRun(from: first); first = lone.count
                current = start
            }
            if lone.count > CurvePieces.maxPieces { return false }
        }
        closeRun(from: first)
        if lone.count == 0 { return false }
        markLone()
        return true
    }

    /// Control points of piece `i`.
    @inline(__always)
    func piece(_ i: Int) -> (Point, Point, Point, Point) {
        (points[4 * i], points[4 * i + 1], points[4 * i + 2], points[4 * i + 3])
    }

    /// Halves the cubic (de Casteljau) until its tangent cone is narrow.
    mutating func cut(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, depth: Int) {
        let narrow = CurvePieces.narrow(p1 - p0, p2 - p1, p3 - p2)
        if narrow || depth >= CurvePieces.maxDepth {
            // Joined to the piece before when it ends here and turns little
            // (a bent piece joins nothing: its turn is not bounded).
            if narrow, let last = lone.indices.last, !bent[last], points[4 * last + 3] == p0,
               let a = CurvePieces.lastLeg(points[4 * last], points[4 * last + 1], points[4 * last + 2], points[4 * last + 3]),
               let b = CurvePieces.firstLeg(p0, p1, p2, p3), CurvePieces.close(a, b) {
                next[last] = Int32(lone.count)
            }
            points.append(p0); points.append(p1); points.append(p2); points.append(p3)
            lone.append(false); bent.append(!narrow); next.append(-1)
            return
        }
        let a = (p0 + p1) * 0.5, b = (p1 + p2) * 0.5, c = (p2 + p3) * 0.5
        let ab = (a + b) * 0.5, bc = (b + c) * 0.5
        let mid = (ab + bc) * 0.5
        cut(p0, a, ab, mid, depth: depth + 1)
        cut(mid, bc, c, p3, depth: depth + 1)
    }

    /// Ends a run of pieces (a sub-path up to a move or close): its last
    /// piece joins its first when the outline closes smoothly there. A
    /// joint across a move or close is never taken, so such pieces are
    /// tested against each other like any two.
    mutating func closeRun(from first: Int) {
        // A run's first piece may have been joined to the previous run's
        // last by `cut`: only pieces of one run are neighbours.
        if first > 0, first < lone.count, next[first - 1] == Int32(first) { next[first - 1] = -1 }
        guard let last = lone.indices.last, last > first, !bent[first], !bent[last] else { return }
        let (f0, f1, f2, f3) = piece(first), (l0, l1, l2, l3) = piece(last)
        if l3 == f0, let a = CurvePieces.lastLeg(l0, l1, l2, l3), let b = CurvePieces.firstLeg(f0, f1, f2, f3),
           CurvePieces.close(a, b) {
            next[last] = Int32(first)
        }
    }

    /// Marks lone every piece whose pixel box meets only its neighbours'.
    /// Boxes sorted by top row, each compared with those starting within
    /// its rows; past a budget of comparisons (a path whose curves share
    /// rows everywhere) every piece stays crowded.
    mutating func markLone() {
        let n = lone.count
        // Pixel boxes (x0, x1, y0, y1: first and last pixel column and row)
        // in order of (top row, index), sorted as one Int key per piece --
        // a plain Int sort, not a closure comparing through arrays (which
        // was a visible share of a fill's set-up). Rows are within +-1e8
        // (27 bits), indices below `maxPieces` + 2^8 (15 bits).
        order.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let (p0, p1, p2, p3) = piece(i)
            order.append((Int(min(min(p0.y, p1.y), min(p2.y, p3.y)).rounded(.down)) << 16) | i)
        }
        order.withUnsafeMutableBufferPointer { CurvePieces.heapSort($0) }
        boxes.removeAll(keepingCapacity: true)
        for a in 0..<n {
            let (p0, p1, p2, p3) = piece(order[a] & 0xFFFF)
            boxes.append(SIMD4(min(min(p0.x, p1.x), min(p2.x, p3.x)), max(max(p0.x, p1.x), max(p2.x, p3.x)),
                               min(min(p0.y, p1.y), min(p2.y, p3.y)), max(max(p0.y, p1.y), max(p2.y, p3.y)))
                .rounded(.down))
        }
        crowded.removeAll(keepingCapacity: true)
        crowded.append(contentsOf: bent)
        var budget = 64 * n + 4096
        let (order, next) = (self.order, self.next)
        crowded.withUnsafeMutableBufferPointer { crowded in boxes.withUnsafeBufferPointer { boxes in
            for a in 0..<n {
                let i = order[a] & 0xFFFF, bi = boxes[a]
                for b in (a + 1)..<n {
                    let bj = boxes[b]
                    if bj.z > bi.w { break }
                    budget -= 1
                    if budget < 0 { return }
                    let j = order[b] & 0xFFFF
                    if bj.x <= bi.y && bi.x <= bj.y && next[i] != Int32(j) && next[j] != Int32(i) {
                        crowded[i] = true; crowded[j] = true
                    }
                }
            }
        } }
        if budget < 0 { return }  // all stay crowded
        for i in 0..<n { lone[i] = !crowded[i] }
    }
}
