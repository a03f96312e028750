/// One option on a quality/time front, as the governor sees it (docs/contract.md
/// §11): what it is predicted to cost, what it gives, and an opaque
/// identity the caller maps back to a renderer configuration.
public struct GovernorLevel: Sendable, Equatable {
    /// The caller's identifier (e.g. an index into its own variant list).
    public var id: Int
    /// A human-readable name ("blur=iir@0.5").
    public var label: String
    /// The measured frame time this option had on the front (p95 or median,
    /// in ms): the governor scales it by its running speed estimate.
    public var predictedMs: Double
    /// Its image quality (PSNR in dB against the reference); higher is better.
    public var quality: Double

    public init(id: Int, label: String, predictedMs: Double, quality: Double) {
        self.id = id
        self.label = label
        self.predictedMs = predictedMs
        self.quality = quality
    }
}

/// Why a governor cannot be built or fed.
public enum GovernorError: Error, Equatable, CustomStringConvertible {
    case invalidParameter(name: String, value: String, accepted: String)
    case emptyFront
    /// Level `index` is not dearer than the one before it (the front must be
    /// ordered by cost, cheapest first), or is no better than it (then it is
    /// not on the front: something cheaper beats it on both).
    case notAFront(index: Int, reason: String)
    /// A frame time that is not a finite, non-negative number of milliseconds.
    case invalidFrameTime(Double)

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, accepted):
            return "invalid governor parameter \(name) = \(value) (accepted: \(accepted))"
        case .emptyFront:
            return "the governor needs at least one level on its front"
        case let .notAFront(index, reason):
            return "governor level \(index) \(reason)"
        case let .invalidFrameTime(ms):
            return "invalid frame time \(ms) ms (expected a finite value >= 0)"
        }
    }
}
