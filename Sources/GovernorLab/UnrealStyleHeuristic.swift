import RasterKit

/// A reference heuristic modelled on Unreal Engine's dynamic resolution
/// (Engine/Source/Runtime/Engine/Private/DynamicResolution.cpp,
/// FDynamicResolutionHeuristicProxy::RefreshCurrentFrameResolutionFraction,
/// UE 5.x; cvars r.DynamicRes.*), evaluation code only.
///
/// What is modelled, as Unreal does it:
/// - a history of the last 16 frames (HistorySize), browsed newest first,
///   each frame weighted 0.9^k (FrameWeightExponent);
/// - each history frame suggests the cost that would have fitted the
///   target: its own cost scaled by target / measured, where target is the
///   budget less 10% headroom (TargetedHeadRoom); the suggestions' weighted
///   mean is the new cost;
/// - over budget = measured > budget. Browsing stops once 2 consecutive
///   over-budget frames are seen (MaxConsecutiveOverBudgetGPUFrameCount); if
///   every browsed frame was over budget it is a "panic": the new cost
///   applies at once, whatever the change period, and the history is reset
///   (so after a reset a single over-budget frame panics again, as in Unreal);
/// - the first frame after construction is ignored (IgnoreFrameRemainingCount
///   = 1 in ResetInternal: its timing is not trusted);
/// - otherwise a change applies only when at least 8 frames passed since the
///   last one (MinResolutionChangePeriod), and an increase is blended in:
///   new = lerp(current, suggested, 0.9) (IncreaseAmortizationBlendFactor).
///
/// What is simplified:
/// - Unreal scales a continuous resolution fraction with a quadratic cost
///   model; here the state is a continuous affordable cost in the front's
///   units (ms at the front's speed) and the level drawn is the best one
///   whose predicted time is within it: a discrete front quantises the
///   fraction. A "change" is a change of level; the continuous cost is
///   updated whenever a change is allowed.
/// - No CPU-bound detection (game/render thread times), no change-percentage
///   threshold (the levels quantise already), no VSync or dynamic frame-time
///   budget; GPU timings arrive the same frame (in Unreal they land a frame
///   or more later, which only makes it slower to react).
public struct UnrealStyleHeuristic: FrameController {
    public let front: [GovernorLevel]
    public let budgetMs: Double
    public var headroom = 0.1
    public var historySize = 16
    public var frameWeight = 0.9
    public var panicFrames = 2
    public var minChangePeriod = 8
    public var increaseBlend = 0.9

    public private(set) var levelIndex: Int
    /// Affordable cost, in the front's ms.
    public private(set) var cost: Double
    public var name: String { "unreal-style" }

    // Ring of (measured ms, predicted ms of the level drawn), preallocated.
    private var measured: [Double]
    private var drawnCost: [Double]
    private var head = -1
    private var count = 0
    private var framesSinceChange = 0
    private var ignoreFrames = 1

    public init(front: [GovernorLevel], budgetMs: Double, startLevel: Int) throws {
        guard !front.isEmpty else { throw GovernorError.emptyFront }
        guard budgetMs.isFinite, budgetMs > 0 else {
            throw GovernorError.invalidParameter(name: "budgetMs", value: "\(budgetMs)", accepted: "a finite time > 0 ms")
        }
        guard front.indices.contains(startLevel) else {
            throw GovernorError.invalidParameter(name: "startLevel", value: "\(startLevel)", accepted: "0...\(front.count - 1)")
        }
        self.front = front
        self.budgetMs = budgetMs
        levelIndex = startLevel
        cost = front[startLevel].predictedMs
        measured = Array(repeating: 0, count: 16)
        drawnCost = Array(repeating: 0, count: 16)
    }

    func level(forCost c: Double) -> Int {
        var best = 0
        for i in front.indices where front[i].predictedMs <= c { best = i }
        return best
    }

    public mutating func observe(frameMs: Double) throws {
        guard frameMs.isFinite, frameMs >= 0 else { throw GovernorError.invalidFrameTime(frameMs) }
        if ignoreFrames > 0 {
            ignoreFrames -= 1
            framesSinceChange += 1
            return
        }
        head = (head + 1) % historySize
        measured[head] = frameMs
        drawnCost[head] = front[levelIndex].predictedMs
        count = min(count + 1, historySize)

        let target = budgetMs * (1 - headroom)
        var sum = 0.0, totalWeight = 0.0, weight = 1.0
        var consecutiveOver = 0, browsed = 0
        for k in 0..<count {
            let i = (head - k + historySize) % historySize
            if measured[i] > budgetMs { consecutiveOver += 1 } else { consecutiveOver = 0 }
            let suggestion = drawnCost[i] * target / max(measured[i], 1e-9)
            sum += suggestion * weight
            totalWeight += weight
            weight *= frameWeight
            browsed += 1
            if consecutiveOver == panicFrames { break }
        }
        var suggested = sum / totalWeight
        let panic = browsed > 0 && consecutiveOver == browsed
        let canChange = framesSinceChange >= minChangePeriod
        if panic {
            count = 0
        } else if suggested > cost {
            suggested = cost + (suggested - cost) * increaseBlend
        }
        let newLevel = level(forCost: suggested)
        if panic || canChange {
            cost = suggested
            if newLevel != levelIndex || panic {
                levelIndex = newLevel
                framesSinceChange = 0
                return
            }
        }
        framesSinceChange += 1
    }
}
