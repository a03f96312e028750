import Foundation
import RasterHarness
import RasterKit

/// The libraries name a refused value by its parameter (`maxMemory`,
/// `share`, `style for scene aurora`); the command line names the option
/// the user typed. This is the one place that knows which option sets
/// which parameter: an error's name is mapped by its first word, and an
/// I/O reason that mentions a budget parameter ("under maxMemory 512 MiB")
/// names its option instead.
enum ParameterFlags {
    /// Parameters of the harness and report libraries (Budget, SamplerSettings,
    /// SweepKind, DeviceProfile, ChooseRules, Suite, WorkloadSelection, HTMLReport).
    static let harness = ["fps": "--fps", "share": "--share", "minSamples": "--runs", "sweep": "--sweep", "profile": "--profile",
                          "wisdomRows": "--save", "kernels": "--kernels", "scenes": "--scenes", "variants": "--variants",
                          "filter": "--filter", "output": "--output (-o)"]
    /// RasterKit parameters: the render's memory and time budgets, the
    /// scene options, the report's output file.
    static let raster = ["maxMemory": "--max-memory", "maxSeconds": "--max-seconds", "style": "--style", "mode": "--mode",
                         "theme": "--theme", "output": "--output (-o)"]

    static func flagged(_ error: HarnessError) -> HarnessError {
        guard case let .invalidArgument(name, value, accepted) = error else { return error }
        return .invalidArgument(name: mapped(name, harness), value: value, accepted: accepted)
    }

    static func flagged(_ error: RasterError) -> RasterError {
        switch error {
        case let .invalidArgument(name, value, accepted):
            return .invalidArgument(name: mapped(name, raster), value: value, accepted: accepted)
        case let .io(path, reason):
            return .io(path: path, reason: mentions(reason, raster))
        default:
            return error
        }
    }

    /// Any error's one-line text, parameters named as options.
    static func text(_ error: Error) -> String {
        if let e = error as? HarnessError { return "\(flagged(e))" }
        if let e = error as? RasterError { return "\(flagged(e))" }
        return "\(error)"
    }

    /// `name` with its first word replaced by its option, if it has one.
    static func mapped(_ name: String, _ table: [String: String]) -> String {
        let head = name.prefix { $0 != " " }
        guard let flag = table[String(head)] else { return name }
        return flag + name.dropFirst(head.count)
    }

    /// `text` with each budget parameter mentioned as a word ("under
    /// maxMemory 512 MiB") replaced by its option.
    static func mentions(_ text: String, _ table: [String: String]) -> String {
        var out = text
        for parameter in ["maxMemory", "maxSeconds"] {
            guard let flag = table[parameter] else { continue }
            out = out.replacingOccurrences(of: "under \(parameter) ", with: "under \(flag) ")
        }
        return out
    }
}
