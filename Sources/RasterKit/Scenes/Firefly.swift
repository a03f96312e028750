import Foundation

/// The "fireflies" wander of the mesh-gradient article: a point drifts in a
/// slowly turning random direction, bounded around its rest position.
/// One `step` per frame; every draw comes from the caller's generator, in
/// the order docs/contract.md §5.4 lists (`mesh` scene):
///
/// 1. frequency, an integer in 4...7; if floor(t) mod frequency == 0 the
///    turning direction `clockwise` is redrawn (a coin);
/// 2. an angle offset in [0.001, 0.05], added (clockwise) or subtracted;
/// 3. speed in [0.01, 2]; 4. x and y amplitudes in [0.1, 2];
/// 5. r1, r2 in [0, 0.5]; direction = (cos(angle + r1), sin(angle + r2));
/// the target moves by direction x speed x amplitude (pt), only along the
/// axes it may move on; 6. past `limit` from rest on x, it is clamped there
/// and the angle is redrawn in [0, 2 pi); otherwise likewise on y (one axis
/// a frame, x first, as the article's if/else does).
public struct Firefly: Sendable, Hashable {
    /// Target offset from rest, in pt.
    public private(set) var target = Point(0, 0)
    public private(set) var angle = 0.0
    public private(set) var clockwise: Bool
    public let movesX: Bool
    public let movesY: Bool

    public static let frequencies = 4...7
    public static let offsets = 0.001...0.05
    public static let speeds = 0.01...2.0
    public static let amplitudes = 0.1...2.0
    public static let jitter = 0.0...0.5
    /// How far from rest the target may go (pt).
    public static let limit = 40.0

    /// Draws the initial turning direction.
    public init(movesX: Bool, movesY: Bool, rng: inout SeededGenerator) {
        self.movesX = movesX
        self.movesY = movesY
        clockwise = rng.coin()
    }

    public mutating func step(time t: Double, rng: inout SeededGenerator) {
        let frequency = rng.integer(Firefly.frequencies)
        if Int(t.rounded(.down)) % frequency == 0 { clockwise = rng.coin() }
        let offset = rng.uniform(Firefly.offsets)
        angle += clockwise ? offset : -offset
        let speed = rng.uniform(Firefly.speeds)
        let ampX = rng.uniform(Firefly.amplitudes), ampY = rng.uniform(Firefly.amplitudes)
        let r1 = rng.uniform(Firefly.jitter), r2 = rng.uniform(Firefly.jitter)
        if movesX { target.x += cos(angle + r1) * speed * ampX }
        if movesY { target.y += sin(angle + r2) * speed * ampY }
        if movesX && abs(target.x) > Firefly.limit {
            target.x = min(Firefly.limit, max(-Firefly.limit, target.x))
            angle = rng.uniform(0.0..<(2 * Double.pi))
        } else if movesY && abs(target.y) > Firefly.limit {
            target.y = min(Firefly.limit, max(-Firefly.limit, target.y))
            angle = rng.uniform(0.0..<(2 * Double.pi))
        }
    }
}
