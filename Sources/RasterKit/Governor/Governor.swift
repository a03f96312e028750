/// A runtime governor for apps that cannot measure ahead (docs/contract.md §11):
/// fed each frame's time, it moves along a quality/time front to hold the
/// frame budget.
///
/// The model: every level has a predicted time from the front; this run is
/// `speed` times slower than the front (`speed` is an exponentially weighted
/// mean of measured / predicted over the frames seen, whatever level drew
/// them), so level i is expected to take `predicted[i] * speed`.
///
/// - Step down, at once: after k consecutive frames over budget. It goes
///   straight to the best level predicted to fit with headroom, not one level
///   at a time: the k frames say how much slower the run is (the smallest of
///   their ratios, so one outlier cannot send it to the bottom), and each
///   extra step taken one at a time would cost another k missed frames. That
///   ratio also raises `speed` at once (fast attack, slow release), so the
///   estimate does not invite an immediate step back up.
/// - Step down, early: when `speed` has said for m consecutive frames that
///   the current level no longer fits with half the headroom (the run is
///   drifting towards the budget, e.g. a device heating up), it moves down
///   before frames are missed. Asking for m frames in a row keeps a single
///   spike, which lifts the running mean for a few frames, from costing a
///   level. The gap between
///   "fits with headroom" (needed to go up) and "fits with half of it"
///   (needed to stay) is the hysteresis that keeps a steady load from
///   bouncing between two levels.
/// - Step up, one level, only after a dwell: `dwellFrames` consecutive frames
///   in each of which the next better level is predicted to fit with headroom.
/// - At most one change every m frames, except the step down after k
///   over-budget frames (those k frames are measured at the current level, so
///   even that is never faster than every k frames).
///
/// `record` does arithmetic on stored fields only: no allocation per frame.
public struct Governor: Sendable {
    public let front: [GovernorLevel]
    public let parameters: GovernorParameters

    /// Index into `front` of the level to render the next frame with.
    public private(set) var levelIndex: Int
    /// Running estimate of measured / predicted (1: as fast as the front;
    /// 1 until the first frame, which sets it).
    public private(set) var speed: Double = 1
    /// Level changes so far.
    public private(set) var switches = 0
    /// Frames recorded so far.
    public private(set) var frames = 0

    private var overBudgetStreak = 0
    /// The smallest measured/predicted ratio in the current over-budget streak.
    private var streakMinRatio = Double.infinity
    private var fitStreak = 0
    private var driftStreak = 0
    private var framesSinceChange = 0

    /// - Parameters:
    ///   - front: levels ordered by cost, cheapest first; each dearer level
    ///     must also be better (otherwise it is not on the front).
    ///   - startLevel: where to begin; by default the best level predicted to
    ///     fit with headroom at the front's speed (the cheapest if none does).
    public init(front: [GovernorLevel], parameters: GovernorParameters, startLevel: Int? = nil) throws {
        try parameters.validate()
        guard !front.isEmpty else { throw GovernorError.emptyFront }
        for (i, level) in front.enumerated() {
            guard level.predictedMs.isFinite, level.predictedMs > 0 else {
                throw GovernorError.notAFront(index: i, reason: "has predicted time \(level.predictedMs) ms (needs a finite time > 0)")
            }
            guard !level.quality.isNaN else { throw GovernorError.notAFront(index: i, reason: "has no quality (NaN)") }
            if i > 0 {
                guard level.predictedMs > front[i - 1].predictedMs else {
                    throw GovernorError.notAFront(index: i, reason: "is not dearer than level \(i - 1) (order the front by cost, cheapest first)")
                }
                guard level.quality > front[i - 1].quality else {
                    throw GovernorError.notAFront(index: i, reason: "is no better than the cheaper level \(i - 1)")
                }
            }
        }
        if let startLevel {
            guard front.indices.contains(startLevel) else {
                throw GovernorError.invalidParameter(name: "startLevel", value: "\(startLevel)", accepted: "0...\(front.count - 1)")
            }
        }
        self.front = front
        self.parameters = parameters
        levelIndex = 0
        levelIndex = startLevel ?? bestFitting(speed: 1)
    }

    /// The level the next frame should be rendered with.
    public var level: GovernorLevel { front[levelIndex] }

    /// A level's expected time on this run: its front time scaled by `speed`.
    public func predictedMs(level index: Int) -> Double { front[index].predictedMs * speed }

    /// The best level predicted to fit with headroom at `speed` (level 0 if none).
    func bestFitting(speed: Double) -> Int {
        let target = parameters.targetMs
        var best = 0
        for i in front.indices where front[i].predictedMs * speed <= target { best = i }
        return best
    }

    /// Feed the time of the frame just drawn at `levelIndex`; returns the
    /// level index for the next frame.
    @discardableResult
    public mutating func record(frameMs: Double) throws -> Int {
        guard frameMs.isFinite, frameMs >= 0 else { throw GovernorError.invalidFrameTime(frameMs) }
        let p = parameters
        frames += 1
        framesSinceChange += 1
        let ratio = frameMs / front[levelIndex].predictedMs
        // The first frame sets the estimate: a prior of 1 would take ~10
        // frames to forget and could step a fitting level down meanwhile.
        speed = frames == 1 ? ratio : speed + p.speedSmoothing * (ratio - speed)

        if frameMs > p.budgetMs {
            overBudgetStreak += 1
            streakMinRatio = min(streakMinRatio, ratio)
        } else {
            overBudgetStreak = 0
            streakMinRatio = .infinity
        }

        // Step down at once after k frames over budget.
        if overBudgetStreak >= p.overBudgetFrames, levelIndex > 0 {
            speed = max(speed, streakMinRatio)
            change(to: min(levelIndex - 1, bestFitting(speed: speed)))
            return levelIndex
        }

        let canChange = framesSinceChange >= p.minFramesBetweenChanges
        // Step down early when the current level has not fitted with half the
        // headroom for m frames in a row.
        if levelIndex > 0, predictedMs(level: levelIndex) > p.budgetMs * (1 - p.headroom / 2) {
            driftStreak += 1
        } else {
            driftStreak = 0
        }
        if canChange, driftStreak >= p.minFramesBetweenChanges {
            change(to: min(levelIndex - 1, bestFitting(speed: speed)))
            return levelIndex
        }

        // Step up one level after a dwell in which it would have fitted.
        if levelIndex + 1 < front.count, predictedMs(level: levelIndex + 1) <= p.targetMs {
            fitStreak += 1
        } else {
            fitStreak = 0
        }
        if fitStreak >= p.dwellFrames, canChange {
            change(to: levelIndex + 1)
        }
        return levelIndex
    }

    private mutating func change(to index: Int) {
        if index != levelIndex { switches += 1 }
        levelIndex = index
        framesSinceChange = 0
        fitStreak = 0
        driftStreak = 0
        overBudgetStreak = 0
        streakMinRatio = .infinity
    }
}
