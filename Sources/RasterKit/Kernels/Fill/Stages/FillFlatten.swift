/// Receives the straight segments of a flattened path.
///
/// A generic parameter rather than a closure so that the flattener is
/// specialised for each sink (no indirect call per segment).
public protocol LineSink {
    mutating func line(from a: Point, to b: Point)
    /// `n` segments of the cubic p0..p3 at uniform parameter steps. The
    /// default evaluates the points; a sink that only counts overrides it.
    mutating func uniformCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, segments n: Int)
}

extension LineSink {
    @inline(__always)
    public mutating func uniformCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, segments n: Int) {
        // Power basis: B(t) = ((a t + b) t + c) t + p0, evaluated directly at
        // each t = k/n (no forward differencing, so no error accumulates).
        let a = p3 - p0 + (p1 - p2) * 3
        let b = (p0 - p1 * 2 + p2) * 3
        let c = (p1 - p0) * 3
        let step = 1 / Double(n)
        var previous = p0
        for k in 1..<max(n, 1) {
            let t = Double(k) * step
            let p = Point(((a.x * t + b.x) * t + c.x) * t + p0.x, ((a.y * t + b.y) * t + c.y) * t + p0.y)
            line(from: previous, to: p)
            previous = p
        }
        line(from: previous, to: p3)
    }
}

/// Adaptive flattening: curves become chords no farther than `tolerance`
/// pixels from the curve, with the number of chords set by each curve's
/// flatness rather than a fixed step count.
///
/// The chord count of a piece comes from Wang's formula: uniform steps of
/// 1/n in t keep a polynomial curve within max|B''| / (8 n^2) of its chords,
/// and for a cubic |B''| <= 6 M with M the larger second difference of the
/// control points, so n = ceil(sqrt(3 M / (4 tol))) (a quadratic is raised
/// to a cubic first). A piece needing more than `maxUniform` chords is split
/// in half (de Casteljau) and each half decides again, so chords concentrate
/// where the curvature is. Every sub-path is closed implicitly (filling
/// needs closed outlines).
///
/// `visible` culls without error: a piece whose control box lies wholly
/// above, below, left or right of the rectangle is replaced by its chord.
/// For pixels inside the rectangle that changes nothing: above/below/right
/// a piece covers no visible pixel, and left of it a piece only adds winding
/// to the pixels on its right, which depends on its end points alone (a
/// horizontal ray crosses any path from a to b with the same signed count).
/// So curves reaching 1e7 px off the canvas cost a handful of chords, not
/// millions.
///
/// With a coarser `loneTolerance`, curves are first cut into nearly
/// straight pieces (`CurvePieces`, FillCrowding.swift, which gives the
/// accuracy argument): a piece no other piece comes within a pixel of is
/// flattened to `loneTolerance`, every other piece to `tolerance`. The
/// pieces depend on the path alone, so every band gets the same chords.
public struct Flattener {
    public let tolerance: Double
    public let visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// The tolerance of lone pieces, when `pieces` marks them.
    let loneTolerance: Double
    /// The pieces of the path this flattener was made for (nil: every curve
    /// at `tolerance`).
    let pieces: CurvePieces?
    /// That path: another path given to `flatten` is flattened at
    /// `tolerance` throughout (safe, never coarser than asked).
    let plannedPath: Path?

    /// Chords per piece above which the piece is split (adaptivity) -- small
    /// enough to follow curvature, large enough that splitting stays rare.
    static let maxUniform = 16
    /// Splitting depth limit: each split quarters M, so 24 levels take any
    /// curve within +-`Path.maxCoordinate` down to a few chords.
    static let maxDepth = 24
    /// Hard cap on chords per piece (only reachable at the depth limit).
    static let maxChords = 1 << 16

    public init(tolerance: Double, visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)? = nil) {
        precondition(tolerance > 0 && tolerance.isFinite)
        self.tolerance = tolerance
        self.visible = visible
        self.loneTolerance = tolerance
        self.pieces = nil
        self.plannedPath = nil
    }

    /// A flattener for `path` alone: curves crowded by others at
    /// `tolerance`, lone ones at `loneTolerance` (see `CurvePieces`).
    public init(tolerance: Double, loneTolerance: Double, for path: Path,
                visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)? = nil) {
        self.init(tolerance: tolerance, loneTolerance: loneTolerance, for: path,
                  pieces: loneTolerance > tolerance ? CurvePieces(path) : nil, visible: visible)
    }

    /// A flattener for `path` with its pieces already planned (`pieces`
    /// holds `path`'s plan, or is nil to flatten every curve at `tolerance`).
    init(tolerance: Double, loneTolerance: Double, for path: Path, pieces: CurvePieces?,
         visible: (minX: Double, minY: Double, maxX: Double, maxY: Double)?) {
        precondition(tolerance > 0 && tolerance.isFinite && loneTolerance >= tolerance && loneTolerance.isFinite)
        self.tolerance = tolerance
        self.visible = visible
        self.loneTolerance = loneTolerance
        self.pieces = pieces
        self.plannedPath = path
    }

    /// Flattens `path` into `sink`, sub-path by sub-path, in path order.
    public func flatten<S: LineSink>(_ path: Path, into sink: inout S) {
        var start = Point(0, 0), current = Point(0, 0)
        var curve = 0, piece = 0  // the next curve element and its first piece in `pieces`
        // (Array equality is a pointer check when both share storage, as
        // `FillEdges` passes them.)
        let pieces = path == plannedPath ? self.pieces : nil
        for e in path.elements {
            switch e {
            case let .move(p):
                if current != start { sink.line(from: current, to: start) } // implicit close
                start = p; current = p
            case let .line(p):
                sink.line(from: current, to: p)
                current = p
            case let .quad(c, p):
                if let pieces {
                    flattenPieces(pieces, curve: curve, from: &piece, into: &sink); curve += 1
                } else {
                    // Degree elevation: the same curve as a cubic (as `CurvePieces` does).
                    let c1 = current + (c - current) * (2.0 / 3.0)
                    let c2 = p + (c - p) * (2.0 / 3.0)
                    cubic(current, c1, c2, p, tolerance: tolerance, depth: 0, into: &sink)
                }
                current = p
            case let .cubic(c1, c2, p):
                if let pieces {
                    flattenPieces(pieces, curve: curve, from: &piece, into: &sink); curve += 1
                } else {
                    cubic(current, c1, c2, p, tolerance: tolerance, depth: 0, into: &sink)
                }
                current = p
            case .close:
                if current != start { sink.line(from: current, to: start) }
                current = start
            }
        }
        if current != start { sink.line(from: current, to: start) }
    }

    /// Curve element `curve`'s pieces, each at its own tolerance.
    @inline(__always)
    func flattenPieces<S: LineSink>(_ pieces: CurvePieces, curve: Int, from piece: inout Int, into sink: inout S) {
        for _ in 0..<Int(pieces.counts[curve]) {
            let (p0, p1, p2, p3) = pieces.piece(piece)
            cubic(p0, p1, p2, p3, tolerance: pieces.lone[piece] ? loneTolerance : tolerance, depth: 0, into: &sink)
            piece += 1
        }
    }

    /// The number of segments `flatten` emits, without evaluating curves.
    public func segmentCount(_ path: Path) -> Int {
        var counter = SegmentCounter()
        flatten(path, into: &counter)
        return counter.count
    }

    /// Wang's chord count for the cubic p0..p3 at this tolerance.
    @inline(__always)
    func chords(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double) -> Int {
        let d1 = p0 - p1 * 2 + p2, d2 = p1 - p2 * 2 + p3
        let m = max(d1.dot(d1), d2.dot(d2)).squareRoot()
        let n = (0.75 * m / tolerance).squareRoot().rounded(.up)
        // Written so that NaN (unreachable: paths are checked finite and
        // within +-1e8) takes the first branch instead of trapping in Int().
        return !(n >= 1) ? 1 : (n > Double(Flattener.maxChords) ? Flattener.maxChords : Int(n))
    }

    func cubic<S: LineSink>(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double, depth: Int,
                            into sink: inout S) {
        if let v = visible {
            let minX = min(min(p0.x, p1.x), min(p2.x, p3.x)), maxX = max(max(p0.x, p1.x), max(p2.x, p3.x))
            let minY = min(min(p0.y, p1.y), min(p2.y, p3.y)), maxY = max(max(p0.y, p1.y), max(p2.y, p3.y))
            if maxY <= v.minY || minY >= v.maxY || minX >= v.maxX || maxX <= v.minX {
                sink.line(from: p0, to: p3)
                return
            }
        }
        let n = chords(p0, p1, p2, p3, tolerance: tolerance)
        if n <= Flattener.maxUniform || depth >= Flattener.maxDepth {
            sink.uniformCubic(p0, p1, p2, p3, segments: n)
            return
        }
        // de Casteljau at t = 1/2.
        let a = (p0 + p1) * 0.5, b = (p1 + p2) * 0.5, c = (p2 + p3) * 0.5
        let ab = (a + b) * 0.5, bc = (b + c) * 0.5
        let mid = (ab + bc) * 0.5
        cubic(p0, a, ab, mid, tolerance: tolerance, depth: depth + 1, into: &sink)
        cubic(mid, bc, c, p3, tolerance: tolerance, depth: depth + 1, into: &sink)
    }
}

/// Counts segments without computing them.
struct SegmentCounter: LineSink {
    var count = 0
    mutating func line(from a: Point, to b: Point) { count += 1 }
    mutating func uniformCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, segments n: Int) { count += n }
}
