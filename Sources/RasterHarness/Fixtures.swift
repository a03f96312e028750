import RasterKit

/// The inputs the suite renders: realistic for the backgrounds docs/contract.md §5
/// describes, fixed so that reports from different runs time the same work.
public enum Fixtures {
    /// Telegram's default wallpaper colours.
    public static let telegramColors = ["#7FA381", "#FFF5C5", "#336F55", "#FBE37D"]
    /// Telegram's loop of 8 positions (normalised); a frame uses every other one.
    public static let telegramPositions: [(Double, Double)] = [
        (0.80, 0.10), (0.60, 0.20), (0.35, 0.25), (0.25, 0.60),
        (0.20, 0.90), (0.40, 0.80), (0.65, 0.75), (0.75, 0.40),
    ]

    /// Every hex text the fixtures use is in `telegramColors`, which a test
    /// parses; black only if that test fails, never a trap.
    static func color(_ hex: String) -> Color { (try? Color(hex: hex)) ?? Color(straightR: 0, g: 0, b: 0) }

    /// K1 as Telegram draws phase 0: four points, L = width, e = 4 (docs/contract.md §2.1 defaults).
    public static func telegram(width: Int, height: Int) throws -> FreeformGradient {
        let stops = (0..<4).map { i -> FreeformGradient.Stop in
            let (x, y) = telegramPositions[2 * i]
            return FreeformGradient.Stop(position: Point(x * Double(width), y * Double(height)),
                                         color: color(telegramColors[i]))
        }
        return try FreeformGradient(points: stops, influence: Double(width), exponent: 4)
    }

    /// K2 linear: top-leading to bottom-trailing through the four colours
    /// (the aurora scene's reduce-transparency background).
    public static func linear(width: Int, height: Int) throws -> Gradient {
        try Gradient(shape: .linear(start: Point(0, 0), end: Point(Double(width), Double(height))),
                      stops: telegramColors.enumerated().map { Gradient.Stop(offset: Double($0.offset) / 3, color: color($0.element)) })
    }

    /// K2 radial: a glow from the centre, reflected twice across the frame.
    public static func radial(width: Int, height: Int) throws -> Gradient {
        let r = 0.25 * (Double(width * width + height * height)).squareRoot()
        return try Gradient(shape: .radial(center: Point(Double(width) / 2, Double(height) / 2), radius: r),
                             stops: [Gradient.Stop(offset: 0, color: color(telegramColors[1])),
                                     Gradient.Stop(offset: 0.6, color: color(telegramColors[0])),
                                     Gradient.Stop(offset: 1, color: color(telegramColors[2]))],
                             extend: .reflect)
    }

    /// The aurora scene's circle layer, what its blur works on: four circles
    /// at opacity 0.8 on transparent, one per quadrant, diameter
    /// height / ratio (ratio in [0.7, 1.4)), hard edges. Hard-edged content
    /// is what separates the blur variants' quality; a smooth gradient would
    /// rate them all alike.
    public static func auroraLayer(width: Int, height: Int) throws -> Image {
        let image = try Image(width: width, height: height)
        let circles: [(x: Double, y: Double, ratio: Double, hex: String)] = [
            (0.25, 0.25, 0.9, "#FEC496"), (0.75, 0.3, 1.2, "#4F5BD5"),
            (0.3, 0.72, 1.05, "#32CB54"), (0.72, 0.78, 0.8, "#D62976"),
        ]
        for c in circles {
            let p = color(c.hex)
            let px = Color(premultipliedR: p.r * 0.8, g: p.g * 0.8, b: p.b * 0.8, a: p.a * 0.8).rgba8
            let radius = Double(height) / c.ratio / 2 / 2.5
            let cx = c.x * Double(width), cy = c.y * Double(height)
            for y in 0..<height {
                for x in 0..<width {
                    let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                    if dx * dx + dy * dy < radius * radius { image.view[x, y] = px }
                }
            }
        }
        return image
    }

    /// A translucent layer for K6: alpha from 0 to 255 across the frame, so
    /// transparent, translucent and opaque pixels are all present (as in the
    /// aurora scene's blurred circle layer).
    public static func translucentLayer(width: Int, height: Int) throws -> Image {
        let image = try Image(width: width, height: height)
        let g = try Gradient(shape: .linear(start: Point(0, 0), end: Point(Double(width), Double(height))),
                             stops: [Gradient.Stop(offset: 0, color: color("#FEC49600")),
                                     Gradient.Stop(offset: 0.5, color: color("#4F5BD580")),
                                     Gradient.Stop(offset: 1, color: color("#32CB54FF"))])
        try NaiveBackend().gradient(g, into: image.view)
        return image
    }

    /// K5's input: `count` anchors on a wobbly circle, from a fixed seed.
    public static func anchors(count: Int, seed: UInt64 = 1) -> [SIMD2<Float>] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            let angle = 2 * Float.pi * Float(i) / Float(count)
            let radius = 300 + 30 * Float(rng.unit())
            return SIMD2(375 + radius * cosf(angle), 667 + radius * sinf(angle))
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
