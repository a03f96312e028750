import RasterHarness
import RasterKit

/// The libraries name a refused value by its parameter (`maxMemory`,
/// `share`); the command line names the option the user typed. This is
/// the one place that knows which option sets which parameter.
enum ParameterFlags {
    /// HarnessError parameters (Budget, SamplerSettings, SweepKind, DeviceProfile, ChooseRules).
    static let harness = ["fps": "--fps", "share": "--share", "minSamples": "--runs", "sweep": "--sweep", "profile": "--profile",
                          "wisdomRows": "--save"]
    /// RasterError parameters (the render's memory and time budgets).
    static let raster = ["maxMemory": "--max-memory", "maxSeconds": "--max-seconds"]

    static func flagged(_ error: HarnessError) -> HarnessError {
        guard case let .invalidArgument(name, value, accepted) = error, let flag = harness[name] else { return error }
        return .invalidArgument(name: flag, value: value, accepted: accepted)
    }

    /// Any error's one-line text, parameters named as options.
    static func text(_ error: Error) -> String {
        if let e = error as? HarnessError { return "\(flagged(e))" }
        if let e = error as? RasterError { return "\(flagged(e))" }
        return "\(error)"
    }

    static func flagged(_ error: RasterError) -> RasterError {
        guard case let .invalidArgument(name, value, accepted) = error, let flag = raster[name] else { return error }
        return .invalidArgument(name: flag, value: value, accepted: accepted)
    }
}
