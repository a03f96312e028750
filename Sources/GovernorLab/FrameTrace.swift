import Foundation
import RasterKit

/// A frame-time trace as a function of the level drawn: frame i at level L
/// takes `ms(i, L)`. Synthetic traces are the front's predicted time times a
/// load factor (1: as fast as the front was measured); a recorded trace holds
/// a measured time for every frame at every level.
public struct FrameTrace: Sendable {
    public let name: String
    public let summary: String
    public let frames: Int
    private let table: @Sendable (Int, Int) -> Double

    public init(name: String, summary: String, frames: Int, ms: @escaping @Sendable (Int, Int) -> Double) {
        self.name = name
        self.summary = summary
        self.frames = frames
        table = ms
    }

    public func ms(frame: Int, level: Int) -> Double { table(frame, level) }

    /// Frame times with the level fixed (for the buffering simulation).
    public func times(level: Int) -> [Double] { (0..<frames).map { ms(frame: $0, level: level) } }
}

extension FrameTrace {
    /// A trace whose frame i takes predicted x load(i).
    public static func load(_ name: String, _ summary: String, front: [GovernorLevel], frames: Int,
                            _ load: @escaping @Sendable (Int) -> Double) -> FrameTrace {
        let predicted = front.map(\.predictedMs)
        return FrameTrace(name: name, summary: summary, frames: frames) { i, level in predicted[level] * load(i) }
    }

    /// The governor's synthetic traces: steady load, two steps, one spike,
    /// log-normal noise and a thermal ramp (each summarised below). Most
    /// run 1.25x slower than the front (the front was measured on a faster
    /// device, the case a governor exists for). `fps` (1...1000) sets the
    /// thermal trace's length, a minute of frames.
    public static func synthetic(front: [GovernorLevel], fps: Double = 60, seed: UInt64 = 11) throws -> [FrameTrace] {
        guard fps.isFinite, (1...1000).contains(fps) else {
            throw GovernorError.invalidParameter(name: "fps", value: "\(fps)", accepted: "1...1000")
        }
        let base = 1.25
        // Noise: log-normal, sd 12%, from the project's seeded generator (Box-Muller).
        var rng = SeededGenerator(seed: seed)
        let noise: [Double] = (0..<1200).map { _ in
            let u1 = max(rng.unit(), 1e-12), u2 = rng.unit()
            let z = (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
            return Foundation.exp(0.12 * z - 0.5 * 0.12 * 0.12)
        }
        let minute = Int(60 * fps)
        return [
            load("steady", "constant load, 1.25x the front's times", front: front, frames: 600) { _ in base },
            load("step", "1.0x, then 1.5x from frame 200", front: front, frames: 600) { $0 < 200 ? 1.0 : 1.5 },
            // 1.6x puts level L3 at 4.16 ms, 99.8% of the 4.17 ms budget: kept
            // because a controller that targets the budget's edge gains there.
            load("step1.6", "1.0x, then 1.6x from frame 200", front: front, frames: 600) { $0 < 200 ? 1.0 : 1.6 },
            load("spike", "1.25x with one 4x frame at 300", front: front, frames: 600) { $0 == 300 ? base * 4 : base },
            load("noisy", "1.25x times log-normal noise (sd 12%, seed \(seed))", front: front, frames: 1200) { base * noise[$0] },
            load("thermal", "1.0x rising linearly to 1.3x over a minute (\(minute) frames)", front: front, frames: minute) {
                1.0 + 0.3 * Double($0) / Double(minute - 1)
            },
        ]
    }

    /// A front shaped like aurora's (five levels between 0.8 and 5 ms), used
    /// for the synthetic traces so the tests do not depend on this host.
    public static let syntheticFront: [GovernorLevel] = [
        GovernorLevel(id: 0, label: "L0", predictedMs: 0.8, quality: 31),
        GovernorLevel(id: 1, label: "L1", predictedMs: 1.2, quality: 35),
        GovernorLevel(id: 2, label: "L2", predictedMs: 1.8, quality: 39),
        GovernorLevel(id: 3, label: "L3", predictedMs: 2.6, quality: 43),
        GovernorLevel(id: 4, label: "L4", predictedMs: 3.6, quality: 47),
        GovernorLevel(id: 5, label: "L5", predictedMs: 5.0, quality: 52),
    ]

    /// Budget of the synthetic traces: iPhone 6 class, 60 fps, 25% share.
    public static let syntheticBudgetMs = 1000.0 / 60 * 0.25
}
