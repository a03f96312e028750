import Foundation

/// `liquid`: the Liquid package's "layered liquid" example (docs/contract.md §5.3):
/// three blobs centred in the frame, #007AFF, drawn largest first, each a
/// closed cubic through anchors on its circle (K5's tangent control points,
/// then K4, nonzero), the anchors' angles drifting from one random set to the
/// next every `period` seconds.
///
/// Randomness: an anchor set of n is one offset in [0, pi/n], then
/// angle_i = (i + u_i) 2 pi / n + offset, u_i in [0, 1), for i = 0 ... n-1.
/// At t = 0 each blob, in drawing order, draws its set and its next set; at
/// each period's end the angles have reached the next set, which becomes
/// the current one, and each blob (in order) draws a new next set. In
/// between, each angle moves linearly. Span: 360 frames (one period at 60
/// fps); the scene never repeats.
///
/// The background is white (the example's light canvas): the blobs are
/// translucent, and a transparent background would make a frame's look
/// depend on the viewer.
public final class LiquidScene: Scene {
    public static let info = SceneInfo(
        name: "liquid", summary: "three layered blobs drifting between random anchor sets (K5 + K4)",
        source: "Liquid (Swift package) layered example",
        cycle: 360, repeats: false, styles: [], modes: [], themes: [], usesSeed: true,
        kernels: ["controlpoints", "fill"],
        variants: ["exact", "fill=tol0.25", "fill=ss4"])

    public static let color = "#007AFF"
    public static let background = "#FFFFFF"
    /// Seconds for the angles to reach the next set.
    public static let period = 6.0

    public struct Blob: Sendable {
        public let diameter: Double
        public let opacity: Double
        public let anchors: Int
    }

    /// Largest first (drawing order).
    public static let blobs = [
        Blob(diameter: 240, opacity: 0.3, anchors: 8),
        Blob(diameter: 220, opacity: 0.6, anchors: 8),
        Blob(diameter: 200, opacity: 1.0, anchors: 5),
    ]

    public let options: SceneOptions
    public let canvas: SceneCanvas
    private let colors: [Color]

    /// The sets drawn so far: `sets[p][b]` is blob b's set at the start of
    /// period p (p = 0 and 1 drawn at init; more drawn on demand, in order,
    /// so a frame depends only on its index).
    private var sets: [[[Double]]]
    private var rng: SeededGenerator

    public init(options: SceneOptions, canvas: SceneCanvas) throws {
        self.options = options
        self.canvas = canvas
        _ = try options.resolved(for: Self.info)
        let base = try Color(hex: Self.color)
        colors = Self.blobs.map { b in
            let a = UInt8((b.opacity * 255).rounded())
            let s = base.rgba8
            return Color(straightR: s.r, g: s.g, b: s.b, a: a)
        }
        rng = SeededGenerator(seed: options.seed)
        var first: [[Double]] = [], second: [[Double]] = []
        for b in Self.blobs {
            first.append(Self.drawSet(b.anchors, &rng))
            second.append(Self.drawSet(b.anchors, &rng))
        }
        sets = [first, second]
    }

    static func drawSet(_ n: Int, _ rng: inout SeededGenerator) -> [Double] {
        let step = 2 * Double.pi / Double(n)
        let offset = rng.uniform(0...(Double.pi / Double(n)))
        return (0..<n).map { i in (Double(i) + rng.uniform(0.0..<1.0)) * step + offset }
    }

    /// Blob b's anchor angles at time t.
    public func angles(blob b: Int, time t: Double) -> [Double] {
        let p = Int((t / Self.period).rounded(.down))
        while sets.count < p + 2 {
            sets.append(Self.blobs.map { Self.drawSet($0.anchors, &rng) })
        }
        let s = t / Self.period - Double(p)
        return zip(sets[p][b], sets[p + 1][b]).map { mix($0, $1, s) }
    }

    public func anchors(blob b: Int, time t: Double) -> [Point] {
        let c = Point(Double(canvas.width) / 2, Double(canvas.height) / 2)
        let r = Self.blobs[b].diameter / 2 * canvas.scale
        return angles(blob: b, time: t).map { c + Point(cos($0), sin($0)) * r }
    }

    public func job(frame: Int) throws -> Job {
        guard frame >= 0 else { throw RasterError.invalidArgument(name: "frame", value: "\(frame)", accepted: ">= 0") }
        let t = canvas.time(frame)
        let ops = Self.blobs.indices.map { JobOp.blob(anchors: anchors(blob: $0, time: t), color: colors[$0]) }
        return try Job(width: canvas.width, height: canvas.height, background: try Color(hex: Self.background), ops: ops)
    }
}
