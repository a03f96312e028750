import RasterKit

/// Seed 003's "buffering" (docs/contract.md §11): a producer renders ahead into
/// a ring of B frames while the display consumes one per refresh.
///
/// The model, one refresh period P per frame:
/// - the display shows its first frame at refresh B+1 (time (B+1)P): the
///   ring fills first, which is the latency of B frames that buffering costs;
/// - at each later refresh it shows the next frame if it is finished, or
///   repeats the last one: a missed refresh; frames are never dropped;
/// - the producer renders frames back to back, but frame i may start only
///   when a slot is free: at most B finished frames wait plus the one being
///   drawn, so frame i waits until frame i-B-1 has been shown.
/// With B = 0 this is vsync-locked rendering: frame i starts when frame i-1
/// is shown and misses when it takes longer than P.
public enum BufferSimulator {
    public struct Result: Sendable, Equatable {
        public var buffer: Int
        /// Refreshes at which no new frame was ready.
        public var missed: Int
        /// Refresh index (1-based) at which each frame was shown.
        public var shownAt: [Int]
    }

    /// Longest ring simulated: a deeper one is no frame buffer a display has.
    public static let maxBuffer = 1_000_000
    /// Refresh ticks are counted in a `Double` first; beyond 2^52 refreshes
    /// it no longer holds every integer, so a run that long (a frame time
    /// of 1e308 ms, a period of 1e-300 ms) is refused rather than counted wrong.
    public static let maxTick = Double(1 << 52)

    /// Throws `GovernorError` for a period that is not a finite time > 0, a
    /// buffer outside 0...maxBuffer, a frame time that is not finite and >= 0,
    /// or a run longer than `maxTick` refresh periods.
    public static func simulate(frameMs: [Double], periodMs: Double, buffer: Int) throws -> Result {
        guard periodMs.isFinite, periodMs > 0 else {
            throw GovernorError.invalidParameter(name: "periodMs", value: "\(periodMs)", accepted: "a finite time > 0 ms")
        }
        guard (0...maxBuffer).contains(buffer) else {
            throw GovernorError.invalidParameter(name: "buffer", value: "\(buffer)", accepted: "0...\(maxBuffer) frames")
        }
        var shown: [Int] = []
        shown.reserveCapacity(frameMs.count)
        var finished = 0.0
        var lastTick = buffer // the first frame is due at tick buffer + 1
        for (i, d) in frameMs.enumerated() {
            guard d.isFinite, d >= 0 else { throw GovernorError.invalidFrameTime(d) }
            let release = i - buffer - 1 >= 0 ? Double(shown[i - buffer - 1]) * periodMs : 0
            let start = max(finished, release)
            finished = start + d
            // Earliest refresh after the previous one at which the frame is done
            // (a small epsilon keeps exact multiples of P on time).
            let ready = (finished / periodMs - 1e-9).rounded(.up)
            guard ready <= maxTick, lastTick < Int(maxTick) else {
                throw GovernorError.invalidParameter(
                    name: "frameMs", value: "a run of \(frameMs.count) frames lasting \(finished) ms at a \(periodMs) ms period",
                    accepted: "at most 2^52 refresh periods")
            }
            let tick = max(lastTick + 1, Int(ready))
            shown.append(tick)
            lastTick = tick
        }
        // Frames shown at ticks B+1, B+2, ... with none missed; every extra tick is a miss.
        let missed = frameMs.isEmpty ? 0 : lastTick - buffer - frameMs.count
        return Result(buffer: buffer, missed: missed, shownAt: shown)
    }
}
