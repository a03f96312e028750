/// An animated background (docs/contract.md §5): a generator of jobs, one per
/// frame. A frame is a pure function of (scene, options, canvas, seed, frame
/// index): all randomness comes from one `SeededGenerator` seeded with
/// `options.seed`, drawn in the order the scene's doc comment states.
///
/// Scenes are classes because some of them (mesh's fireflies, liquid's
/// anchor sets) evolve step by step from frame 0: they keep the last state
/// they reached and replay forward, so rendering frames in order costs one
/// step a frame while any frame can still be asked for directly (an earlier
/// frame replays from the start). The result never depends on the order
/// frames were asked in.
public protocol Scene: AnyObject {
    /// Who the scene is and what it accepts.
    static var info: SceneInfo { get }
    /// Validates `options` against `info` (unknown style, mode or theme are
    /// errors naming the option and the accepted values).
    init(options: SceneOptions, canvas: SceneCanvas) throws
    var options: SceneOptions { get }
    var canvas: SceneCanvas { get }
    /// The job for frame `frame` (>= 0; frames beyond the cycle continue the
    /// animation: cyclic scenes wrap, the others keep going).
    func job(frame: Int) throws -> Job
}

/// What `list` prints about a scene and what its options accept.
public struct SceneInfo: Sendable {
    public let name: String
    public let summary: String
    /// The article or library the scene reproduces.
    public let source: String
    /// Frames after which the scene repeats exactly (`repeats`), or the span
    /// over which the suite times one that never repeats exactly.
    public let cycle: Int
    public let repeats: Bool
    /// Accepted values; the first of each is the default. Empty: the option
    /// does not apply (a value other than the default is refused).
    public let styles: [SceneStyle]
    public let modes: [SceneMode]
    public let themes: [SceneTheme]
    /// Whether the scene draws random numbers (seed 2 differs from seed 1).
    public let usesSeed: Bool
    /// The kernels its frames run (for `list` and the suite's variants).
    public let kernels: [String]
    /// The kernel variants worth timing for this scene (`--variant` texts,
    /// "@0.5" for a render scale; "exact" first); the suite adds the exact
    /// kernels at the reduced render scales.
    public let variants: [String]

    /// The options the scene accepts as the command line spells them
    /// (plural option name, accepted values; the first is the default).
    public var choices: [(option: String, values: [String])] {
        [("styles", styles.map(\.rawValue)), ("modes", modes.map(\.rawValue)), ("themes", themes.map(\.rawValue))]
    }
}

/// A scene option's values; the raw value is the command-line spelling.
public protocol SceneChoice: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {}

/// `--style`: which renderer a scene reproduces.
public enum SceneStyle: String, SceneChoice {
    case ios, contest
}

/// `--mode`: an accessibility setting the scene honours.
public enum SceneMode: String, SceneChoice {
    case standard
    case reduceTransparency = "reduce-transparency"
    case differentiateWithoutColor = "differentiate-without-color"
}

/// `--theme`: the system appearance.
public enum SceneTheme: String, SceneChoice {
    case light, dark
}

/// The user's choices for a scene (`render --seed --theme --mode --style`).
/// nil means the scene's default.
public struct SceneOptions: Sendable, Hashable {
    public var seed: UInt64
    public var style: SceneStyle?
    public var mode: SceneMode?
    public var theme: SceneTheme?

    public static let defaultSeed: UInt64 = 1

    public init(seed: UInt64 = SceneOptions.defaultSeed, style: SceneStyle? = nil, mode: SceneMode? = nil,
                theme: SceneTheme? = nil) {
        self.seed = seed; self.style = style; self.mode = mode; self.theme = theme
    }

    /// The options as the command line spells them, parsed once for the
    /// scene `info` (a value it does not accept is an error naming the
    /// option and the accepted values).
    public init(seed: UInt64 = SceneOptions.defaultSeed, style: String?, mode: String?, theme: String?,
                for info: SceneInfo) throws {
        self.init(seed: seed,
                  style: try Self.parse(style, option: "style", accepted: info.styles, scene: info.name),
                  mode: try Self.parse(mode, option: "mode", accepted: info.modes, scene: info.name),
                  theme: try Self.parse(theme, option: "theme", accepted: info.themes, scene: info.name))
    }

    static func parse<C: SceneChoice>(_ spelling: String?, option: String, accepted: [C], scene: String) throws -> C? {
        guard let spelling else { return nil }
        guard let value = accepted.first(where: { $0.rawValue == spelling }) else {
            throw refusal(spelling, option: option, accepted: accepted, scene: scene)
        }
        return value
    }

    /// The value of one option, checked against what the scene accepts (a
    /// library caller may pass a value another scene accepts).
    static func resolve<C: SceneChoice>(_ value: C?, option: String, accepted: [C], scene: String) throws -> C? {
        guard let value else { return accepted.first }
        guard accepted.contains(value) else { throw refusal(value.rawValue, option: option, accepted: accepted, scene: scene) }
        return value
    }

    static func refusal<C: SceneChoice>(_ spelling: String, option: String, accepted: [C], scene: String) -> RasterError {
        RasterError.invalidArgument(
            name: "\(option) for scene \(scene)", value: "'\(RasterError.escaped(spelling))'",
            accepted: accepted.isEmpty ? "none (the scene has no \(option)s)" : accepted.map(\.rawValue).joined(separator: ", "))
    }

    /// The resolved (style, mode, theme) for `info`; nil where the scene has
    /// no such option.
    func resolved(for info: SceneInfo) throws -> (style: SceneStyle?, mode: SceneMode?, theme: SceneTheme?) {
        (try Self.resolve(style, option: "style", accepted: info.styles, scene: info.name),
         try Self.resolve(mode, option: "mode", accepted: info.modes, scene: info.name),
         try Self.resolve(theme, option: "theme", accepted: info.themes, scene: info.name))
    }
}

/// The frame a scene paints: its size in pixels, the pixels per point
/// (lengths in pt are multiplied by it) and the refresh rate (t = frame / fps).
public struct SceneCanvas: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let scale: Double
    public let fps: Double

    public init(width: Int, height: Int, scale: Double, fps: Double) throws {
        try Image.validate(width: width, height: height, name: "frame size")
        guard scale.isFinite, scale > 0, scale <= 16 else {
            throw RasterError.invalidArgument(name: "scale", value: "\(scale)", accepted: "0 < scale <= 16 px per pt")
        }
        guard fps.isFinite, fps >= 1, fps <= 1000 else {
            throw RasterError.invalidArgument(name: "fps", value: "\(fps)", accepted: "1...1000")
        }
        self.width = width; self.height = height; self.scale = scale; self.fps = fps
    }

    /// The frame in points.
    public var widthPt: Double { Double(width) / scale }
    public var heightPt: Double { Double(height) / scale }

    /// Seconds at frame `frame`.
    public func time(_ frame: Int) -> Double { Double(frame) / fps }
}

/// Every scene by name.
public enum SceneCatalog {
    public static let all: [any Scene.Type] = [
        TelegramScene.self, AuroraScene.self, LiquidScene.self, MeshScene.self, MorphScene.self,
    ]

    public static var names: [String] { all.map { $0.info.name } }

    public static func named(_ name: String) throws -> any Scene.Type {
        guard let s = all.first(where: { $0.info.name == name }) else {
            throw RasterError.invalidArgument(name: "scene", value: "'\(RasterError.escaped(name))'", accepted: names.joined(separator: ", "))
        }
        return s
    }

    public static func make(_ name: String, options: SceneOptions = SceneOptions(), canvas: SceneCanvas) throws -> any Scene {
        try named(name).init(options: options, canvas: canvas)
    }
}

extension Scene {
    /// `count` frame indices spread evenly over the cycle or span (the
    /// suite's samples, the contact sheet).
    public static func spreadFrames(_ count: Int) -> [Int] {
        let n = max(1, min(count, info.cycle))
        return (0..<n).map { $0 * info.cycle / n }
    }
}
