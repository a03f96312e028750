import ArgumentParser

/// One exit status per kind of failure, so a script can tell a typo in its
/// command line from a refused value and from a check that found something
/// (`rasterbench --help` lists them).
enum ExitStatus {
    /// A value, file or report was refused, or an operation on one failed
    /// (a file that cannot be read or written, a child process that failed).
    static let badInput: Int32 = 1
    /// The command line's shape: an unknown command or option, a missing
    /// argument or option value, options that do not go together.
    static let usage: Int32 = 2
    /// The command ran and its check failed: `verify` found a kernel outside
    /// its bound, `compare`/`ab --fail-above` found a slower row.
    static let checkFailed: Int32 = 3

    /// argument-parser's errors are usage errors, except a value its own
    /// conversion refused ("The value 'x' is invalid for '--contend
    /// <contend>'"): that is a bad value like any other.
    static func forParserMessage(_ message: String) -> Int32 {
        message.hasPrefix("The value '") && message.contains("' is invalid for") ? badInput : usage
    }

    static let help = "Exit status: 0 success, \(badInput) bad input (a value, file or report refused, or a file that cannot be read or written), "
        + "\(usage) usage (unknown command or option, missing argument or value), "
        + "\(checkFailed) a check failed (verify, compare/ab --fail-above)."
}

/// A command line whose parts do not go together (a job file and --scene):
/// its shape, like argument-parser's own refusals, exits with `usage`.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
