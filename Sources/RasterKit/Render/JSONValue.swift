import Foundation

/// A JSON document decoded by `JSONDecoder`, whose number parsing is
/// correctly rounded: Foundation's `JSONSerialization` on Linux is not
/// (0.5582916744382223 reads back as 0.5582916744382225; checked with
/// swift-corelibs-foundation in Swift 6.3), and a job emitted by
/// `render --emit-job` must decode to the very same Doubles so that it
/// renders the same bytes. `any` hands the tree to `JSONNode` in the shapes
/// JSONSerialization would have produced.
enum JSONValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONValue].self) { self = .array(a); return }
        self = .object(try c.decode([String: JSONValue].self))
    }

    var any: Any {
        switch self {
        case .null: return NSNull()
        case let .bool(b): return NSNumber(value: b)
        case let .number(d): return NSNumber(value: d)
        case let .string(s): return s
        case let .array(a): return a.map(\.any)
        case let .object(o): return o.mapValues(\.any)
        }
    }
}
