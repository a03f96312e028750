/// Every failure RasterKit reports, each with a one-line description that
/// names the offending argument and what would have been accepted.
///
/// Backends throw `.unsupported` rather than falling back to another backend:
/// a benchmark that silently measured something else would be a lie.
public enum RasterError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An argument outside its accepted range: `name` is what the user typed
    /// (a flag, a JSON path), `accepted` describes the valid range.
    case invalidArgument(name: String, value: String, accepted: String)
    /// A backend that does not implement a kernel or a variant.
    case unsupported(backend: String, kernel: String, variant: String)
    /// A file that could not be read or written.
    case io(path: String, reason: String)
    /// A job document that does not decode; `path` is the JSON path.
    case malformedJob(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidArgument(name, value, accepted):
            return "invalid \(name): \(value) (accepted: \(accepted))"
        case let .unsupported(backend, kernel, variant):
            return "backend '\(backend)' does not implement \(kernel) variant '\(variant)'"
        case let .io(path, reason):
            return "\(path): \(reason)"
        case let .malformedJob(path, reason):
            return "job \(path.isEmpty ? "(top level)" : path): \(reason)"
        }
    }
}

extension RasterError {
    /// What the user wrote, fit for a one-line error (docs/contract.md §10):
    /// control characters escaped (\n, \t, \u{..}) and the whole cut to
    /// `limit` characters with an ellipsis. Control characters are C0, DEL
    /// and C1 (U+009B is a one-character CSI on many terminals), and the
    /// bidirectional overrides and isolates, which reorder what follows them.
    public static func escaped(_ text: String, limit: Int = 60) -> String {
        var out = ""
        for (i, ch) in text.unicodeScalars.enumerated() {
            if i == limit { out += "..."; break }
            switch ch {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isControl(ch) { out += "\\u{\(String(ch.value, radix: 16))}" } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }

    /// Whether `ch` changes what a terminal shows instead of being shown.
    public static func isControl(_ ch: Unicode.Scalar) -> Bool {
        switch ch.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
