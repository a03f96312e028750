/// `mesh`: SwiftUI's animated `MeshGradient` (the fireflies article's
/// wander driving a 3 x 3 mesh, docs/contract.md §5.4), drawn by K7.
///
/// At rest the vertices sit at 0, 1/2 and 1 of the frame. Corners stay put;
/// each edge midpoint moves along its edge only; the centre moves freely, so
/// the mesh always covers the frame (K7 keeps a border through collinear
/// vertices straight). Each moving point, in row-major order, has a
/// `Firefly` target (its clockwise coin drawn at start, in that order) that
/// wanders once per frame, and the drawn point follows its target as a
/// `Spring.mesh` integrated with a fixed step of 1/fps. Frame 0 is at rest;
/// frame f has taken f steps. Span: 600 frames.
public final class MeshScene: Scene {
    public static let info = SceneInfo(
        name: "mesh", summary: "3x3 mesh gradient, vertices wandering on springs (K7)",
        source: "SwiftUI MeshGradient; fireflies article's wander",
        cycle: 600, repeats: false, styles: [], modes: [], themes: [], usesSeed: true, kernels: ["mesh"],
        variants: ["exact", "mesh=coarse"])

    public static let columns = 3, rows = 3
    /// Row-major.
    public static let colors = ["#FF3B30", "#AF52DE", "#5856D6",
                                "#FF9500", "#FFFFFF", "#007AFF",
                                "#FFCC00", "#34C759", "#00C7BE"]

    public let options: SceneOptions
    public let canvas: SceneCanvas
    private let palette: [Color]

    /// Row-major indices of the moving vertices and the axes each may use.
    public static let moving: [(index: Int, x: Bool, y: Bool)] = [
        (1, true, false), (3, false, true), (4, true, true), (5, false, true), (7, true, false),
    ]

    /// The simulation at `frame`: fireflies, spring positions and velocities (pt).
    private struct State {
        var frame = 0
        var rng: SeededGenerator
        var flies: [Firefly]
        var position: [Point]
        var velocity: [Point]
    }
    private var state: State
    private let initial: State

    public init(options: SceneOptions, canvas: SceneCanvas) throws {
        self.options = options
        self.canvas = canvas
        _ = try options.resolved(for: Self.info)
        palette = try Self.colors.map(Color.init(hex:))
        var rng = SeededGenerator(seed: options.seed)
        let flies = Self.moving.map { Firefly(movesX: $0.x, movesY: $0.y, rng: &rng) }
        let zero = [Point](repeating: Point(0, 0), count: flies.count)
        initial = State(rng: rng, flies: flies, position: zero, velocity: zero)
        state = initial
    }

    /// Advances the simulation to `frame` (replaying from 0 if it is behind).
    private func advance(to frame: Int) {
        // A local copy: the steps below touch several of its fields at once,
        // which Swift's exclusivity rules allow on a local, not on a class's property.
        var s = frame < state.frame ? initial : state
        let dt = 1 / canvas.fps
        while s.frame < frame {
            s.frame += 1
            let t = canvas.time(s.frame)
            for k in s.flies.indices {
                s.flies[k].step(time: t, rng: &s.rng)
                Spring.mesh.step(position: &s.position[k], velocity: &s.velocity[k], target: s.flies[k].target, dt: dt)
            }
        }
        state = s
    }

    /// The moving vertices' displacements from rest (pt) at `frame`, and
    /// their targets: for tests of the wander's limits.
    public func displacements(frame: Int) -> (drawn: [Point], targets: [Point]) {
        advance(to: frame)
        return (state.position, state.flies.map(\.target))
    }

    /// The nine vertex positions in pixels at `frame`.
    public func vertices(frame: Int) -> [Point] {
        advance(to: frame)
        let w = Double(canvas.width), h = Double(canvas.height)
        var points = (0..<(Self.columns * Self.rows)).map { i in
            Point(w * Double(i % Self.columns) / 2, h * Double(i / Self.columns) / 2)
        }
        for (k, m) in Self.moving.enumerated() {
            let d = state.position[k] * canvas.scale
            points[m.index] = points[m.index] + Point(m.x ? d.x : 0, m.y ? d.y : 0)
        }
        return points
    }

    public func job(frame: Int) throws -> Job {
        guard frame >= 0 else { throw RasterError.invalidArgument(name: "frame", value: "\(frame)", accepted: ">= 0") }
        let mesh = try MeshGradient(columns: Self.columns, rows: Self.rows, positions: vertices(frame: frame),
                                    colors: palette)
        return try Job(width: canvas.width, height: canvas.height, background: try Color(hex: "#000000"),
                       ops: [.mesh(mesh)])
    }
}
