import RasterKit

/// What a controller did on a trace.
public struct SimulationResult: Sendable, Equatable {
    public var controller: String
    public var trace: String
    public var frames = 0
    public var overBudget = 0
    /// Mean quality (PSNR, dB) of the levels drawn, over all frames.
    public var meanQuality = 0.0
    public var switches = 0
    /// Frame index of the last level change (-1: none).
    public var lastSwitch = -1
    /// Level index drawn, per frame.
    public var levels: [Int] = []
    /// Frame time drawn, per frame.
    public var times: [Double] = []
}

public enum GovernorSimulator {
    /// Runs `controller` over `trace`: frame i is drawn at the controller's
    /// current level, takes the trace's time for that level, and is fed back.
    public static func run<C: FrameController>(_ controller: inout C, trace: FrameTrace,
                                               front: [GovernorLevel], budgetMs: Double) throws -> SimulationResult {
        var r = SimulationResult(controller: controller.name, trace: trace.name)
        r.levels.reserveCapacity(trace.frames)
        r.times.reserveCapacity(trace.frames)
        var qualitySum = 0.0
        for i in 0..<trace.frames {
            let level = controller.levelIndex
            let ms = trace.ms(frame: i, level: level)
            r.levels.append(level)
            r.times.append(ms)
            qualitySum += front[level].quality
            if ms > budgetMs { r.overBudget += 1 }
            try controller.observe(frameMs: ms)
            if controller.levelIndex != level {
                r.switches += 1
                r.lastSwitch = i
            }
        }
        r.frames = trace.frames
        r.meanQuality = trace.frames > 0 ? qualitySum / Double(trace.frames) : 0
        return r
    }

    /// Governor and Unreal-style reference from the same start level on one trace.
    public static func compare(trace: FrameTrace, front: [GovernorLevel], budgetMs: Double,
                               parameters: GovernorParameters? = nil) throws -> (governor: SimulationResult, reference: SimulationResult) {
        var governor = try Governor(front: front, parameters: parameters ?? GovernorParameters(budgetMs: budgetMs))
        var reference = try UnrealStyleHeuristic(front: front, budgetMs: budgetMs, startLevel: governor.levelIndex)
        return (try run(&governor, trace: trace, front: front, budgetMs: budgetMs),
                try run(&reference, trace: trace, front: front, budgetMs: budgetMs))
    }
}
