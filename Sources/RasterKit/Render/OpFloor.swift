import Foundation

/// The least time an op can take on any host: what `TimeBudget` compares
/// with the time left before it lets an op start.
///
/// Why a floor and not an estimate: a time limit that refuses work the
/// host could have finished is a wrong answer, while one that lets an op
/// run somewhat past the limit only stops late. So the floor counts only
/// work no schedule can skip, at a rate no core reaches, and an op whose
/// floor does not fit in the time left is refused before it starts.
///
/// Most ops cost a bounded amount per pixel (gradients, the mesh, resampling,
/// compositing, the O(1) blur variants), so the canvas size limit bounds
/// them. Two do not, and only they have a floor here:
/// - the exact blur, whose taps per pixel grow with sigma (up to 4096): each
///   output pixel of a pass sums at least min(r + 1, n) in-range taps of a
///   line of n pixels, for each of 4 channels, in Float by every backend;
/// - a path fill, whose cost grows with the path: an accumulating
///   rasteriser touches at least one cell per canvas row an edge crosses,
///   and every edge crosses at least the rows between its end points.
/// Every other op's floor is 0: it is bounded, and usually short.
enum OpFloor {
    /// Float multiply-adds one core cannot exceed per second: two FMA units
    /// of 16 lanes (AVX-512) at 4 GHz. A slower core only makes the floor
    /// looser. The floor is far below real times: the exact blur of a
    /// 2000x2000 canvas at sigma 4096 (floor 0.5 s) took 13 s on openmp and
    /// 19 s on simd at 1 thread on this 2-core host while it was busy (load
    /// 10); re-check with `rasterbench render` of a job holding that one op,
    /// `--backend openmp --threads 1`, under `/usr/bin/time`.
    static let multiplyAddsPerCoreSecond = 1.28e11
    /// Edge-row cell updates one core cannot exceed per second: one per
    /// cycle at 4 GHz (each is a few dependent operations in every backend).
    static let cellsPerCoreSecond = 4e9

    /// The floor, in seconds, of `op` drawn on a `width` x `height` target
    /// with `blur`'s variant on `threads` threads (no more than the host's
    /// cores run at once). Layers add their ops' floors.
    static func seconds(_ op: JobOp, width: Int, height: Int, blur: BlurVariant, threads: Int) -> Double {
        let cores = Double(max(1, min(threads, hostCores)))
        return work(op, width: width, height: height, blur: blur).seconds(on: cores)
    }

    private static let hostCores = ProcessInfo.processInfo.activeProcessorCount

    /// Work no schedule can skip, in the two units above.
    struct Work {
        var multiplyAdds = 0.0
        var cells = 0.0

        func seconds(on cores: Double) -> Double {
            (multiplyAdds / OpFloor.multiplyAddsPerCoreSecond + cells / OpFloor.cellsPerCoreSecond) / cores
        }
        static func + (a: Work, b: Work) -> Work {
            Work(multiplyAdds: a.multiplyAdds + b.multiplyAdds, cells: a.cells + b.cells)
        }
    }

    static func work(_ op: JobOp, width: Int, height: Int, blur: BlurVariant) -> Work {
        switch op {
        case let .blur(b) where blur.isExact:
            let w = Double(width), h = Double(height), taps = Double(b.radius) + 1
            return Work(multiplyAdds: w * h * 4 * (min(taps, w) + min(taps, h)))
        case let .fill(f):
            return Work(cells: rowsCrossed(by: f.path, height: height))
        case let .blob(anchors, _):
            // The blob's closed curve passes through its anchors in order.
            let h = Double(height)
            let rows = anchors.indices.reduce(0.0) { sum, i in
                sum + abs(clip(anchors[i].y, h) - clip(anchors[(i + 1) % anchors.count].y, h))
            }
            return Work(cells: rows)
        case let .layer(_, ops):
            return ops.reduce(Work()) { $0 + work($1, width: width, height: height, blur: blur) }
        case let .scaledLayer(w, h, _, ops):
            return ops.reduce(Work()) { $0 + work($1, width: w, height: h, blur: blur) }
        default:
            return Work()
        }
    }

    /// The canvas rows (0...height) crossed by the segments between a
    /// path's end points, each subpath closed: a lower bound on what a
    /// curve crosses, since a curve passes through every height between its
    /// ends.
    static func rowsCrossed(by path: Path, height: Int) -> Double {
        let h = Double(height)
        var rows = 0.0
        var start: Point?, last: Point?
        func edge(to p: Point) {
            if let a = last { rows += abs(clip(p.y, h) - clip(a.y, h)) }
            last = p
        }
        func close() {
            if let s = start { edge(to: s) }
        }
        for element in path.elements {
            switch element {
            case let .move(p):
                close()
                start = p; last = p
            case let .line(p), let .quad(_, p), let .cubic(_, _, p):
                if start == nil { start = p }
                edge(to: p)
            case .close:
                close()
                last = start
            }
        }
        close()
        return rows
    }

    private static func clip(_ y: Double, _ height: Double) -> Double { min(max(y, 0), height) }
}
