import Foundation
import RasterKit
import RasterReference

/// The least memory traffic and arithmetic one run of a workload needs:
/// what its `limit_ms` is made of. Every kernel's count is here and nowhere
/// else, each with its reason.
///
/// Both are floors of the *maths*, not counts of what a backend does: the
/// bytes every schedule must move at least, and the floating-point
/// operations the cheapest formulation of the kernel needs (a multiply-add
/// counts two, a divide or square root one, as the probe's peak counts
/// them). A limit built from them can therefore only be below the measured
/// time; a row where it is not means a count here is wrong, and the run
/// says so (`RowBuilder`).
///
/// Traffic counts bytes read plus bytes written, as `CopyBandwidth` does.
/// An image kernel writes at least the pixels it changes (4 bytes each) and
/// reads what it blends with; nothing counts reads a cache would absorb.
public struct WorkFloor: Sendable, Equatable {
    public var bytes: Double
    public var flops: Double

    public init(bytes: Double = 0, flops: Double = 0) {
        self.bytes = bytes
        self.flops = flops
    }

    public static func + (a: WorkFloor, b: WorkFloor) -> WorkFloor {
        WorkFloor(bytes: a.bytes + b.bytes, flops: a.flops + b.flops)
    }

    /// Arithmetic intensity, operations per byte (0 when nothing moves).
    public var intensity: Double { bytes > 0 ? flops / bytes : 0 }
}

public enum KernelWork {
    /// A pixel's worth of traffic: written once.
    static let pixelBytes = 4.0

    /// K1 on `width` x `height` with `variant`. Distances in units of L, so
    /// per point and pixel the cheapest evaluation needs: d^2 / L^2 as a
    /// column table's x part (shared by every row) plus the row's y part
    /// (1), its square root (1), the fall-off 1 - d/L (1), the clamp (1),
    /// the power m^e by squaring (ceil(log2 e) multiplies; the `lut`
    /// variant's table read counts 1 instead of root and power) and the
    /// weight sum (1). Colours are blended as one point's colour plus the
    /// others' weighted differences from it, so every point but one adds a
    /// multiply-add per channel (2 each; 3 channels when every point has
    /// the same alpha, which is then the blend's alpha, else 4); per pixel
    /// the division by the weight sum (1) and a multiply-add per channel.
    /// Grid variants evaluate their grid and up-sample: bilinear per
    /// channel, two multiply-adds (16 per pixel). Traffic: the frame
    /// written once.
    public static func freeform(_ g: FreeformGradient, variant: FreeformVariant, width: Int, height: Int) -> WorkFloor {
        let e = g.integerExponent.map { Double($0) } ?? g.exponent
        let power = variant == .lut ? 1 : max(1, e.log2Ceiling)
        let root = variant == .lut ? 0.0 : 1
        let alpha = g.points[0].color.simd.w
        let channels: Double = g.points.allSatisfy { $0.color.simd.w == alpha } ? 3 : 4
        let points = Double(g.points.count)
        let perPixel = (1 + root + 1 + 1 + power + 1) * points + 2 * channels * (points - 1) + 1 + 2 * channels
        let frame = Double(width) * Double(height)
        let evaluated: Double
        let upsample: Double
        switch variant {
        case .full, .lut:
            evaluated = frame; upsample = 0
        case .down2, .down4, .down8, .down10:
            let n = variant.downscale
            evaluated = Double((width + n - 1) / n) * Double((height + n - 1) / n); upsample = 16
        case .fit80:
            let s = FreeformGrid.fitted(width: width, height: height, box: FreeformGrid.fitBox)
            evaluated = Double(s.width * s.height); upsample = 16
        case .square10:
            let s = FreeformGrid.square(width: width, divisor: FreeformGrid.squareDivisor)
            evaluated = Double(s.width * s.height); upsample = 16
        }
        return WorkFloor(bytes: pixelBytes * frame, flops: evaluated * perPixel + frame * upsample)
    }

    /// K2. Along a row the colour is affine between two stop crossings, so
    /// the cheapest linear gradient adds a step per channel per pixel (4);
    /// a radial one also needs the distance: a discriminant by forward
    /// differences (2) and its square root (1), then the same 4 adds.
    /// The `lut` variant reads the colour from a table instead: a linear
    /// one steps its position (1), a radial one also takes the distance
    /// (3 more). Traffic: the frame written once (the suite's gradient
    /// replaces it; painted source-over a translucent one also reads it).
    public static func gradient(_ g: Gradient, variant: GradientVariant = .exact, width: Int, height: Int,
                                over: Bool = false) -> WorkFloor {
        let frame = Double(width) * Double(height)
        let colour = variant == .lut ? 1.0 : 4
        let perPixel: Double
        switch g.shape {
        case .linear: perPixel = colour
        case .radial: perPixel = colour + 3
        }
        let bytes = (over && !g.isOpaque ? 2 : 1) * pixelBytes * frame
        return WorkFloor(bytes: bytes, flops: perPixel * frame)
    }

    /// K3 in place on `width` x `height`. Traffic: each pixel read once and
    /// written once (a schedule that keeps the intermediate pass in cache
    /// moves no more). Arithmetic per channel and pass: the exact blur sums
    /// the taps inside the line, pairing the symmetric ones (one add per
    /// pair, one multiply-add per distinct weight); the O(1) variants do a
    /// fixed amount per pixel: box3 three running sums per axis (an add and
    /// a subtract each), iir a third-order recursion each way (three
    /// multiply-adds), down2/down4 their up-sampling's bilinear (two
    /// multiply-adds per channel).
    public static func blur(_ b: GaussianBlur, variant: BlurVariant, width: Int, height: Int) -> WorkFloor {
        let w = Double(width), h = Double(height), frame = w * h
        let bytes = 2 * pixelBytes * frame
        let perChannel: Double
        switch variant {
        case .exact:
            let r = Double(b.radius)
            // A row of n pixels has at most n - 1 taps on each side inside it.
            func pass(_ n: Double) -> Double { let side = min(r, n - 1); return side + 2 * (side + 1) }
            perChannel = pass(w) + pass(h)
        case .box3: perChannel = 2 * 3 * 2
        case .iir: perChannel = 2 * 2 * 3 * 2
        case .down2, .down4: perChannel = 2 * 2
        }
        return WorkFloor(bytes: bytes, flops: 4 * perChannel * frame)
    }

    /// K4 filling `fill` on a `width` x `height` target. Traffic: every
    /// pixel whose centre is inside the path is written (an opaque colour)
    /// or read and written (a translucent one); a pixel whose centre is
    /// inside has non-zero coverage under any anti-aliasing, so the count
    /// is a floor (`InteriorCount`). Arithmetic: each canvas row an edge
    /// crosses needs at least the edge's x there (a multiply-add) and its
    /// cell's area and cover (4); a translucent colour also blends (4
    /// multiply-adds) per written pixel.
    public static func fill(_ fill: PathFill, width: Int, height: Int) -> WorkFloor {
        let counted = InteriorCount.count(fill.path, rule: fill.rule, width: width, height: height)
        let opaque = fill.color.isOpaque
        let bytes = (opaque ? 1 : 2) * pixelBytes * counted.pixels
        let flops = 6 * counted.edgeRows + (opaque ? 0 : 8 * counted.pixels)
        return WorkFloor(bytes: bytes, flops: flops)
    }

    /// K5 on `anchors` anchors: 8 bytes read and 16 written per anchor. Per
    /// anchor: the chord to each neighbour (4), their lengths (2 squares
    /// as multiply-adds, 2 roots: 6), the tangent scale (1 divide) and two
    /// control points (4 multiply-adds, 8).
    public static func controlPoints(anchors: Int) -> WorkFloor {
        WorkFloor(bytes: 24 * Double(anchors), flops: 19 * Double(anchors))
    }

    /// K6: source and destination read, destination written (12 bytes a
    /// pixel); per channel one multiply-add (8 per pixel).
    public static func composite(width: Int, height: Int) -> WorkFloor {
        let frame = Double(width) * Double(height)
        return WorkFloor(bytes: 12 * frame, flops: 8 * frame)
    }

    /// K7 on a `width` x `height` target with `variant`. Traffic: the
    /// pixels inside the mesh's outline (its border vertices joined by
    /// straight lines, which is the outline of every mesh the suite and the
    /// scenes draw) written once. Arithmetic per pixel: `exact` evaluates
    /// the bicubic colour at the pixel's (u, v): the cubic basis in u and
    /// in v (8 values, 8 multiply-adds, 16) and per channel 16 products
    /// summed (16 multiply-adds, 128), with (u, v) stepped along the row
    /// (2); its Newton step is left out, as only steep cells take it.
    /// `coarse` interpolates colours linearly across triangles: a step per
    /// channel (4).
    public static func mesh(_ m: MeshGradient, variant: MeshVariant, width: Int, height: Int) -> WorkFloor {
        var outline = Path()
        let c = m.columns, r = m.rows
        let border = (0..<c).map { $0 } + (1..<r).map { $0 * c + c - 1 }
            + (0..<(c - 1)).reversed().map { (r - 1) * c + $0 } + (1..<(r - 1)).reversed().map { $0 * c }
        for (k, i) in border.enumerated() {
            k == 0 ? outline.move(to: m.positions[i]) : outline.line(to: m.positions[i])
        }
        outline.close()
        let pixels = InteriorCount.count(outline, rule: .nonzero, width: width, height: height).pixels
        return WorkFloor(bytes: pixelBytes * pixels, flops: (variant == .exact ? 146 : 4) * pixels)
    }

    /// A scene frame as `renderer` draws it: the canvas cleared to the
    /// background, every op, and for a reduced render scale the resampling
    /// to the full frame (the small frame read, the full one written, a
    /// bilinear per channel). `clearing: false` leaves the clear out (what
    /// `bench` times as "ops" when the frame is drawn at full size).
    public static func frame(_ prepared: PreparedJob, variants: VariantSelection, clearing: Bool = true) -> WorkFloor {
        let job = prepared.job
        var work = (clearing ? clear(width: job.width, height: job.height) : WorkFloor())
            + ops(job.ops, width: job.width, height: job.height, variants: variants)
        if job.width != prepared.width || job.height != prepared.height {
            work = work + resample(from: job.width, job.height, to: prepared.width, prepared.height)
        }
        return work
    }

    static func clear(width: Int, height: Int) -> WorkFloor {
        WorkFloor(bytes: pixelBytes * Double(width) * Double(height))
    }

    static func resample(from sw: Int, _ sh: Int, to width: Int, _ height: Int) -> WorkFloor {
        let frame = Double(width) * Double(height)
        return WorkFloor(bytes: pixelBytes * (Double(sw) * Double(sh) + frame), flops: 16 * frame)
    }

    static func ops(_ ops: [JobOp], width: Int, height: Int, variants: VariantSelection) -> WorkFloor {
        ops.reduce(WorkFloor()) { sum, op in
            switch op {
            case let .freeform(g):
                return sum + freeform(g, variant: variants.freeform, width: width, height: height)
            case let .gradient(g):
                return sum + gradient(g, variant: variants.variant(for: g), width: width, height: height, over: true)
            case let .fill(f):
                return sum + fill(f, width: width, height: height)
            case let .blob(anchors, color):
                let controls = Reference.controlPoints(anchors)
                guard let path = try? ControlPoints.closedPath(anchors: anchors, controls: controls),
                      let f = try? PathFill(path: path, rule: .nonzero, color: color) else { return sum }
                return sum + controlPoints(anchors: anchors.count) + fill(f, width: width, height: height)
            case let .mesh(m):
                return sum + mesh(m, variant: variants.mesh, width: width, height: height)
            case .image:
                return sum + composite(width: width, height: height)
            case let .blur(b):
                return sum + blur(b, variant: variants.blur, width: width, height: height)
            case let .layer(_, inner):
                return sum + clear(width: width, height: height)
                    + self.ops(inner, width: width, height: height, variants: variants)
                    + composite(width: width, height: height)
            case let .scaledLayer(w, h, _, inner):
                return sum + clear(width: w, height: h) + self.ops(inner, width: w, height: h, variants: variants)
                    + resample(from: w, h, to: width, height) + composite(width: width, height: height)
            }
        }
    }
}

extension Double {
    /// ceil(log2(self)) for self >= 1: multiplies to raise to this power by squaring.
    fileprivate var log2Ceiling: Double { Foundation.log2(Swift.max(self, 1)).rounded(.up) }
}
