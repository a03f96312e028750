import RasterKit

/// Evaluation code, not library API: the governor and the Unreal-style
/// reference behind one interface, so the simulator runs both on the same
/// traces. Lives in the `GovernorLab` target, which only the tests and the
/// rasterbench executable link.
public protocol FrameController {
    var name: String { get }
    /// Index into the front of the level the next frame is drawn with.
    var levelIndex: Int { get }
    /// Feed the time of the frame just drawn at `levelIndex`.
    mutating func observe(frameMs: Double) throws
}

extension Governor: FrameController {
    public var name: String { "governor" }
    public mutating func observe(frameMs: Double) throws { try record(frameMs: frameMs) }
}
