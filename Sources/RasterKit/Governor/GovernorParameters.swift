/// The governor's knobs (docs/contract.md §11). Defaults are those of docs/contract.md §11.
public struct GovernorParameters: Sendable, Equatable {
    /// The frame budget in ms (1000/fps x the background's share).
    public var budgetMs: Double
    /// k: a step down happens at once after this many consecutive frames over budget.
    public var overBudgetFrames: Int = 2
    /// A step up needs this many consecutive frames in which the next better
    /// level is predicted to fit with headroom.
    public var dwellFrames: Int = 30
    /// m: at least this many frames between two changes, except the step
    /// down after k over-budget frames (missing frames is worse than a pop).
    public var minFramesBetweenChanges: Int = 8
    /// Fraction of the budget kept free when judging whether a level fits
    /// (0.1: a level fits when its predicted time is at most 90% of the budget).
    public var headroom: Double = 0.1
    /// Weight of the newest frame in the speed estimate (an exponentially
    /// weighted mean of measured / predicted): 0.1 remembers ~10 frames.
    public var speedSmoothing: Double = 0.1

    public init(budgetMs: Double) { self.budgetMs = budgetMs }

    /// The time a level must be predicted under to count as fitting.
    public var targetMs: Double { budgetMs * (1 - headroom) }

    /// Throws `GovernorError.invalidParameter` for the first bad field.
    public func validate() throws {
        func bad(_ name: String, _ value: Any, _ accepted: String) -> GovernorError {
            .invalidParameter(name: name, value: "\(value)", accepted: accepted)
        }
        guard budgetMs.isFinite, budgetMs > 0 else { throw bad("budgetMs", budgetMs, "a finite time > 0 ms") }
        guard (1...1000).contains(overBudgetFrames) else { throw bad("overBudgetFrames", overBudgetFrames, "1...1000") }
        guard (1...100_000).contains(dwellFrames) else { throw bad("dwellFrames", dwellFrames, "1...100000") }
        guard (1...100_000).contains(minFramesBetweenChanges) else {
            throw bad("minFramesBetweenChanges", minFramesBetweenChanges, "1...100000")
        }
        guard headroom.isFinite, headroom >= 0, headroom < 1 else { throw bad("headroom", headroom, "0 <= headroom < 1") }
        guard speedSmoothing.isFinite, speedSmoothing > 0, speedSmoothing <= 1 else {
            throw bad("speedSmoothing", speedSmoothing, "0 < speedSmoothing <= 1")
        }
    }
}
