/// Errors of the harness and its command-line front end, each one line that
/// names what was wrong and what would have been accepted (docs/contract.md §10).
public enum HarnessError: Error, Equatable, CustomStringConvertible, Sendable {
    case invalidArgument(name: String, value: String, accepted: String)
    /// A report that does not parse; `line` counts physical lines from 1,
    /// `column` (when known) characters within it from 1.
    case malformedReport(path: String, line: Int, column: Int? = nil, reason: String)
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidArgument(name, value, accepted):
            return "invalid \(name): \(value) (accepted: \(accepted))"
        case let .malformedReport(path, line, column, reason):
            return "\(path):\(line):\(column.map { "\($0):" } ?? "") \(reason)"
        case let .io(path, reason):
            return "\(path): \(reason)"
        }
    }
}
