/// `morph`: a shape morphing through circle, rounded square, star and heart
/// (the shape-morphing article, docs/contract.md §5.5), filled by K4 (nonzero),
/// #FF9500 over #1C1C1E.
///
/// Each shape is a unit-square outline (`MorphShape`) placed in a centred
/// square of side 0.8 min(W, H) and sampled at 100 points evenly spaced by
/// arc length, from the point nearest the square's top-left corner,
/// clockwise. Shape k becomes shape k+1 over 60 frames (ease-in-out), then
/// holds for 30: cycle 4 x 90 = 360 frames. Points move linearly.
///
/// Beyond the article, which leaves it unsolved: each target's samples are
/// shifted cyclically to the start that minimises the summed squared
/// distance to the shape it comes from (`ArcLength.bestShift`), so no
/// transition flips or twists. Shifting a closed polygon's samples changes
/// neither its outline nor its fill, so the loop still closes exactly.
public final class MorphScene: Scene {
    public static let info = SceneInfo(
        name: "morph", summary: "circle -> rounded square -> star -> heart, 100-point polygon (K4)",
        source: "SwiftUI shape-morphing article",
        cycle: 360, repeats: true, styles: [], modes: [], themes: [], usesSeed: false, kernels: ["fill"],
        variants: ["exact", "fill=tol0.25", "fill=ss4"])

    public static let sampleCount = 100
    public static let morphFrames = 60
    public static let holdFrames = 30
    public static let sizeFraction = 0.8
    public static let color = "#FF9500"
    public static let background = "#1C1C1E"

    public let options: SceneOptions
    public let canvas: SceneCanvas
    private let fill: Color
    /// Per transition k: (from, to) samples in pixels, `to` aligned to `from`.
    public let transitions: [(from: [Point], to: [Point])]

    public init(options: SceneOptions, canvas: SceneCanvas) throws {
        self.options = options
        self.canvas = canvas
        _ = try options.resolved(for: Self.info)
        fill = try Color(hex: Self.color)
        let side = Self.sizeFraction * Double(min(canvas.width, canvas.height))
        let origin = Point((Double(canvas.width) - side) / 2, (Double(canvas.height) - side) / 2)
        let samples = MorphShape.allCases.map { shape in
            ArcLength.resample(closed: shape.outline, count: Self.sampleCount, startNearest: Point(0, 0))
                .map { origin + $0 * side }
        }
        var out: [(from: [Point], to: [Point])] = []
        var from = samples[0]
        for k in samples.indices {
            let target = samples[(k + 1) % samples.count]
            let to = ArcLength.shifted(target, by: ArcLength.bestShift(from: from, to: target))
            out.append((from, to))
            // The next transition starts from this shape as drawn (aligned),
            // except that the loop restarts from shape 0 as sampled: the
            // same polygon, so the frames join.
            from = k + 1 < samples.count ? to : samples[0]
        }
        transitions = out
    }

    /// The polygon at `frame`.
    public func polygon(frame: Int) -> [Point] {
        let f = frame % Self.info.cycle
        let per = Self.morphFrames + Self.holdFrames
        let (from, to) = transitions[f / per]
        let local = f % per
        let s = local < Self.morphFrames ? CubicBezierTiming.easeInOut(Double(local) / Double(Self.morphFrames)) : 1
        return zip(from, to).map { mix($0, $1, s) }
    }

    public func job(frame: Int) throws -> Job {
        guard frame >= 0 else { throw RasterError.invalidArgument(name: "frame", value: "\(frame)", accepted: ">= 0") }
        let shape = try PathFill(path: Shapes.polygon(polygon(frame: frame)), rule: .nonzero, color: fill)
        return try Job(width: canvas.width, height: canvas.height, background: try Color(hex: Self.background),
                       ops: [.fill(shape)])
    }
}
