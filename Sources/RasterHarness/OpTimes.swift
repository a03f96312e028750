import Foundation
import RasterKit

/// Per-op times of a job (`bench --per-op`): each label's time summed within
/// a frame (a job may hold several fills), then the median over frames.
public struct OpTimes {
    private var order: [String] = []
    private var perFrame: [String: [Double]] = [:]
    private var frame: [String: Double] = [:]

    public init() {}

    /// Starts a frame: what `add` sums from here belongs to it.
    public mutating func beginFrame() { frame = [:] }

    /// `nanoseconds` spent in an op called `label` during the current frame.
    public mutating func add(_ label: String, nanoseconds: UInt64) {
        if perFrame[label] == nil && frame[label] == nil { order.append(label) }
        frame[label, default: 0] += Double(nanoseconds) * 1e-6
    }

    /// Ends the frame: each label's sum becomes one sample.
    public mutating func endFrame() {
        for (label, ms) in frame { perFrame[label, default: []].append(ms) }
        frame = [:]
    }

    /// Each label's median per-frame time in ms, in order of first appearance.
    public var medians: [(label: String, ms: Double)] {
        order.compactMap { label in perFrame[label].map { (label, Summary($0).median) } }
    }

    /// Renders `frames` frames of `prepared` with the renderer's op timer on
    /// and returns the per-op medians.
    public static func measure(_ renderer: Renderer, _ prepared: PreparedJob, into canvas: Image,
                               frames: Int) throws -> [(label: String, ms: Double)] {
        final class Box { var times = OpTimes() }
        let box = Box()
        renderer.opTimer = { label, ns in box.times.add(label, nanoseconds: ns) }
        defer { renderer.opTimer = nil }
        for _ in 0..<frames {
            box.times.beginFrame()
            try renderer.render(prepared, into: canvas)
            box.times.endFrame()
        }
        return box.times.medians
    }
}
