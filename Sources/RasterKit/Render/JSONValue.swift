/// A JSON document as `StrictJSON` reads it. Numbers are Doubles read by
/// `Double(String)`, which is correctly rounded (Foundation's
/// `JSONSerialization` on Linux is not: 0.5582916744382223 read back as
/// 0.5582916744382225 with swift-corelibs-foundation in Swift 6.3), so a
/// job emitted by `render --emit-job` decodes to the very same Doubles and
/// renders the same bytes.
enum JSONValue {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    var objectValue: [String: JSONValue]? { if case let .object(o) = self { return o }; return nil }
    var arrayValue: [JSONValue]? { if case let .array(a) = self { return a }; return nil }
    var stringValue: String? { if case let .string(s) = self { return s }; return nil }
    var isNull: Bool { if case .null = self { return true }; return false }

    /// The value as the user wrote it, short, for an error message.
    var shown: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return "\(b)"
        case let .number(d): return "\(d)"
        case let .string(s): return RasterError.escaped(s)
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
