import ArgumentParser
import RasterHarness
import RasterKit

/// Numeric option values read by the suite rather than by argument-parser,
/// whose own text ("The value '-1' is invalid for '--seed <seed>'") names
/// no range. Each reader refuses a value with one line naming the option,
/// the value as typed and the accepted range; every such option is also
/// declared `parsing: .unconditional`, so that "-1" is read as its value
/// rather than as a missing one.
///
/// argument-parser wraps an error thrown by a transform in its own text, so
/// the reader also records the error, and `RasterBench.main` prints that
/// instead of the wrapped text.
enum OptionValue {
    /// The last value refused while the command line was parsed (parsing
    /// runs once, on the main thread, before any command does).
    nonisolated(unsafe) static var refused: String?

    /// `parse`, whose error is recorded for `RasterBench.main`.
    static func recorded<T>(_ parse: @escaping (String) throws -> T) -> (String) throws -> T {
        { text in
            do { return try parse(text) } catch {
                refused = ParameterFlags.text(error)
                throw error
            }
        }
    }

    static func refusal(_ flag: String, _ text: String, _ accepted: String) -> HarnessError {
        .invalidArgument(name: flag, value: "'\(Console.escaped(text))'", accepted: accepted)
    }

    /// A whole number (decimal digits, an optional sign) in `range`.
    static func whole<T: FixedWidthInteger>(_ flag: String, _ range: ClosedRange<T>) -> (String) throws -> T {
        recorded { text in
            guard let v = T(text, radix: 10), range.contains(v) else {
                throw refusal(flag, text, "a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return v
        }
    }

    /// A plain decimal (`DecimalText`) for which `accepts` holds.
    static func decimal(_ flag: String, _ accepted: String, _ accepts: @escaping (Double) -> Bool) -> (String) throws -> Double {
        recorded { text in
            guard let v = DecimalText.parse(text), accepts(v) else { throw refusal(flag, text, accepted) }
            return v
        }
    }

    static let threads = whole("--threads", 1...BackendKind.maxThreads)
    static let seed = whole("--seed", UInt64.min...UInt64.max)
    static let runs = whole("--runs", 1...SamplerSettings.standard.maxSamples)
    static let rounds = whole("--rounds", 1...1000)
    static let scale = decimal("--scale", "1, 0.5 or 0.25") { Renderer.scales.contains($0) }
    static let fps = recorded(parseFPS)
}
