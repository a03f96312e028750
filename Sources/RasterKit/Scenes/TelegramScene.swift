/// `telegram`: Telegram's animated four-colour chat background (its iOS
/// client's shipping renderer and the 2021 contest article, docs/contract.md §5.1).
///
/// Four colours sit on a loop of eight positions (unit coordinates, y down).
/// At phase k the four points are at positions k, k+2, k+4, k+6 (mod 8); the
/// phase advances by one every `framesPerPhase` frames, and in between the
/// points travel along straight lines from their phase-k to their phase-k+1
/// positions, eased by CSS's ease-in-out (cubic Bezier (0.42, 0, 0.58, 1)).
/// Cycle: 8 phases x 60 frames = 480 frames. No randomness.
///
/// Styles:
/// - `ios` (default): K1 in unit space with Telegram iOS's swirl s = 0.784
///   (0.35^2 x 6.4), L = 0.92, e = 3.
/// - `contest`: the article's renderer, K1 in pixel space on a W x W square
///   with L = W and e = 4, stretched to W x H, with the easing quantised to
///   `contestSteps` positions per transition. A W x W square stretched to
///   W x H is K1 in unit space with L = 1: at square pixel (u W, v W) the
///   distance over L is |(u, v) - p| exactly, so the job says that.
/// The cheaper sizes are K1's variants (`--variant freeform=fit80`, the
/// frame's aspect in 80 x 80 as Telegram renders it, or `square10`, the
/// contest's W/10 square; `down2` ... `down10`, `lut`).
public final class TelegramScene: Scene {
    public static let info = SceneInfo(
        name: "telegram", summary: "four-colour freeform gradient on an 8-position loop (K1)",
        source: "Telegram iOS GradientBackground; Telegram 2021 contest article",
        cycle: TelegramScene.phases * TelegramScene.framesPerPhase, repeats: true,
        styles: [.ios, .contest], modes: [], themes: [], usesSeed: false, kernels: ["freeform"],
        variants: ["exact", "freeform=fit80", "freeform=square10", "freeform=lut", "freeform=down4", "freeform=down10"])

    /// The four colours, in point order.
    public static let colors = ["#7FA381", "#FFF5C5", "#336F55", "#FBE37D"]
    /// The loop of positions, unit coordinates, y down.
    public static let positions: [Point] = [
        Point(0.80, 0.10), Point(0.60, 0.20), Point(0.35, 0.25), Point(0.25, 0.60),
        Point(0.20, 0.90), Point(0.40, 0.80), Point(0.65, 0.75), Point(0.75, 0.40),
    ]
    public static let phases = 8
    public static let framesPerPhase = 60
    /// The contest's easing curve sampled at 27 positions per transition.
    public static let contestSteps = 27

    /// Telegram iOS: unit space, swirl 0.35^2 x 6.4, influence 0.92, exponent 3.
    public static let iosSwirl = 0.35 * 0.35 * 6.4
    public static let iosInfluence = 0.92
    public static let iosExponent = 3.0
    /// The contest: L = W on a W x W square (1 in unit space), exponent 4.
    public static let contestInfluence = 1.0
    public static let contestExponent = 4.0

    public let options: SceneOptions
    public let canvas: SceneCanvas
    public let style: SceneStyle
    private let palette: [Color]

    public init(options: SceneOptions, canvas: SceneCanvas) throws {
        self.options = options
        self.canvas = canvas
        // Never nil: the scene lists styles, the first the default.
        style = try options.resolved(for: Self.info).style ?? .ios
        palette = try Self.colors.map(Color.init(hex:))
    }

    /// The eased progress through the current transition, in [0, 1].
    func progress(frame: Int) -> (phase: Int, s: Double) {
        let f = frame % Self.info.cycle
        let phase = f / Self.framesPerPhase
        let t = Double(f % Self.framesPerPhase) / Double(Self.framesPerPhase)
        if style == .contest {
            // 27 positions from the phase's start to its end inclusive, each
            // held for an equal share of the transition.
            let step = min(Int(t * Double(Self.contestSteps)), Self.contestSteps - 1)
            return (phase, CubicBezierTiming.easeInOut(Double(step) / Double(Self.contestSteps - 1)))
        }
        return (phase, CubicBezierTiming.easeInOut(t))
    }

    /// The four points (unit coordinates) at `frame`.
    public func points(frame: Int) -> [Point] {
        let (k, s) = progress(frame: frame)
        let n = Self.positions.count
        return (0..<4).map { j in
            mix(Self.positions[(k + 2 * j) % n], Self.positions[(k + 2 * j + 1) % n], s)
        }
    }

    public func job(frame: Int) throws -> Job {
        guard frame >= 0 else { throw RasterError.invalidArgument(name: "frame", value: "\(frame)", accepted: ">= 0") }
        let stops = zip(points(frame: frame), palette).map { FreeformGradient.Stop(position: $0, color: $1) }
        let g: FreeformGradient
        if style == .contest {
            g = try FreeformGradient(points: stops, influence: Self.contestInfluence, exponent: Self.contestExponent,
                                     space: .unit)
        } else {
            g = try FreeformGradient(points: stops, influence: Self.iosInfluence, exponent: Self.iosExponent,
                                     space: .unit, swirl: Self.iosSwirl)
        }
        return try Job(width: canvas.width, height: canvas.height, ops: [.freeform(g)])
    }
}
