import Foundation

/// `aurora`: four large translucent circles drifting on slow orbits under a
/// wide blur (the "aurora"/mesh-blur background of SwiftUI articles, docs/contract.md
/// §5.2). K4 fills the circles into a transparent layer, K3 blurs it
/// (sigma 60 pt, transparent edges) and K6 composites it over the background.
///
/// Randomness, in this order: for each circle in drawing order
/// (bottom-trailing, top-trailing, bottom-leading, top-leading) its size
/// ratio in [0.7, 1.4), then its offset (ox, oy), each in [-150, 150) pt.
/// A circle's diameter is D = (H / scale) / ratio pt; its D x D layout box
/// sits in its corner of the frame; its centre is the box's centre plus the
/// offset rotated by start + 360 deg x t / period (clockwise on screen).
/// Span: 3600 frames (60 s at 60 fps); the orbits' periods (50 ... 80 s)
/// make the scene repeat only after their common multiple (2800 s).
///
/// Colours are the article's straight RGBA, with the circles' opacity 0.8
/// folded into alpha, rounded to 8-bit straight components so that a job
/// file (#RRGGBBAA) carries exactly the colours the scene paints.
/// Modes: `standard`; `reduce-transparency` (an opaque linear gradient from
/// the top-leading colour at the top-left to the top-trailing colour at the
/// bottom-right); `differentiate-without-color` (flat grey 0.95 light, 0.2 dark).
public final class AuroraScene: Scene {
    public static let info = SceneInfo(
        name: "aurora", summary: "four translucent circles on orbits, blurred 60 pt, over teal (K4 + K3 + K6)",
        source: "SwiftUI aurora / blurred-circles background article",
        cycle: 3600, repeats: false,
        styles: [], modes: [.standard, .reduceTransparency, .differentiateWithoutColor],
        themes: [.light, .dark], usesSeed: true, kernels: ["fill", "blur", "composite", "linear"],
        variants: ["exact", "blur=iir", "blur=down4", "layer=quarter", "layer=quarter,blur=iir", "blur=iir@0.5", "blur=iir@0.25"])

    public static let background = "#0B777E"
    public static let blurPoints = 60.0
    public static let opacity = 0.8
    public static let ratioRange = 0.7..<1.4
    public static let offsetRange = -150.0..<150.0
    public static let greyLight = 0.95, greyDark = 0.2

    /// Where a circle's layout box sits.
    public enum Corner: String, CaseIterable, Sendable { case topLeading, topTrailing, bottomLeading, bottomTrailing }

    /// One circle as the article defines it.
    public struct Circle: Sendable {
        public let corner: Corner
        /// Degrees at t = 0 and seconds per turn.
        public let startDegrees: Double
        public let period: Double
        /// Straight RGBA in [0, 1], light and dark.
        public let light: SIMD4<Double>
        public let dark: SIMD4<Double>
    }

    /// In drawing order.
    public static let circles: [Circle] = [
        Circle(corner: .bottomTrailing, startDegrees: 0, period: 60,
               light: SIMD4(0.541, 0.733, 0.812, 0.7), dark: SIMD4(0.541, 0.733, 0.812, 0.7)),
        Circle(corner: .topTrailing, startDegrees: 240, period: 50,
               light: SIMD4(0.196, 0.796, 0.329, 0.5), dark: SIMD4(0.408, 0.698, 0.420, 0.61)),
        Circle(corner: .bottomLeading, startDegrees: 120, period: 80,
               light: SIMD4(0.196, 0.749, 0.486, 0.55), dark: SIMD4(0.525, 0.859, 0.655, 0.45)),
        // The article writes the dark alpha as 80.0; a colour's opacity is clamped to 1.
        Circle(corner: .topLeading, startDegrees: 180, period: 70,
               light: SIMD4(0.039, 0.388, 0.502, 0.81), dark: SIMD4(0.000, 0.176, 0.216, 1.0)),
    ]

    public let options: SceneOptions
    public let canvas: SceneCanvas
    public let mode: SceneMode
    public let theme: SceneTheme
    /// Per circle: (ratio, offset in pt), drawn at init.
    public let draws: [(ratio: Double, offset: Point)]

    public init(options: SceneOptions, canvas: SceneCanvas) throws {
        self.options = options
        self.canvas = canvas
        let r = try options.resolved(for: Self.info)
        // Never nil: the scene lists modes and themes, the first the default.
        mode = r.mode ?? .standard
        theme = r.theme ?? .light
        var rng = SeededGenerator(seed: options.seed)
        draws = Self.circles.map { _ in
            let ratio = rng.uniform(Self.ratioRange)
            let ox = rng.uniform(Self.offsetRange), oy = rng.uniform(Self.offsetRange)
            return (ratio, Point(ox, oy))
        }
    }

    /// A straight [0, 1] colour, alpha clamped to 1 and multiplied by
    /// `alphaScale`, rounded to 8-bit straight components, premultiplied.
    static func color(_ c: SIMD4<Double>, alphaScale: Double = 1) -> Color {
        func byte(_ v: Double) -> UInt8 { UInt8((min(1, max(0, v)) * 255).rounded()) }
        return Color(straightR: byte(c.x), g: byte(c.y), b: byte(c.z), a: byte(min(1, c.w) * alphaScale))
    }

    func straight(_ c: Circle) -> SIMD4<Double> { theme == .dark ? c.dark : c.light }

    /// The circle's centre and radius in pixels at time t.
    public func geometry(_ index: Int, time t: Double) -> (center: Point, radius: Double) {
        let c = Self.circles[index]
        let (ratio, offset) = draws[index]
        let wPt = canvas.widthPt, hPt = canvas.heightPt
        let d = hPt / ratio
        let boxX: Double = (c.corner == .topLeading || c.corner == .bottomLeading) ? 0 : wPt - d
        let boxY: Double = (c.corner == .topLeading || c.corner == .topTrailing) ? 0 : hPt - d
        let angle = (c.startDegrees + 360 * t / c.period) * Double.pi / 180
        let rotated = Point(offset.x * cos(angle) - offset.y * sin(angle), offset.x * sin(angle) + offset.y * cos(angle))
        let centre = Point(boxX + d / 2, boxY + d / 2) + rotated
        return (centre * canvas.scale, d / 2 * canvas.scale)
    }

    public func job(frame: Int) throws -> Job {
        guard frame >= 0 else { throw RasterError.invalidArgument(name: "frame", value: "\(frame)", accepted: ">= 0") }
        let w = canvas.width, h = canvas.height
        switch mode {
        case .reduceTransparency:
            let from = Self.color(straight(Self.circles[3]) * SIMD4(1, 1, 1, 0) + SIMD4(0, 0, 0, 1))
            let to = Self.color(straight(Self.circles[1]) * SIMD4(1, 1, 1, 0) + SIMD4(0, 0, 0, 1))
            let g = try Gradient(shape: .linear(start: Point(0, 0), end: Point(Double(w), Double(h))),
                                 stops: [.init(offset: 0, color: from), .init(offset: 1, color: to)])
            return try Job(width: w, height: h, background: from, ops: [.gradient(g)])
        case .differentiateWithoutColor:
            let v = theme == .dark ? Self.greyDark : Self.greyLight
            return try Job(width: w, height: h, background: Self.color(SIMD4(v, v, v, 1)), ops: [])
        case .standard:
            let t = canvas.time(frame)
            let fills = try Self.circles.indices.map { i -> JobOp in
                let (centre, radius) = geometry(i, time: t)
                return .fill(try PathFill(path: Shapes.circle(center: centre, radius: radius), rule: .nonzero,
                                          color: Self.color(straight(Self.circles[i]), alphaScale: Self.opacity)))
            }
            let blur = try GaussianBlur(sigma: Self.blurPoints * canvas.scale, edge: .transparent)
            return try Job(width: w, height: h, background: try Color(hex: Self.background),
                           ops: [.layer(opacity: 1, ops: fills + [.blur(blur)])])
        }
    }
}
