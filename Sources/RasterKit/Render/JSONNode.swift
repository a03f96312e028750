
/// A value inside a decoded JSON document together with its path
/// (`ops[2].stops[0].offset`), so that every decoding error can name the
/// exact value that is wrong. `StrictJSON` plus this walker is smaller
/// than Codable with custom errors, and keeps the accepted range next to
/// each read.
struct JSONNode {
    let value: JSONValue
    let path: String

    func fail(_ reason: String) -> RasterError { .malformedJob(path: path, reason: reason) }

    func object(allowing keys: Set<String>) throws -> [String: JSONValue] {
        guard let dict = value.objectValue else { throw fail("expected an object") }
        if let unknown = dict.keys.sorted().first(where: { !keys.contains($0) }) {
            throw RasterError.malformedJob(
                path: child(unknown).path,
                reason: "unknown key (accepted: \(keys.sorted().joined(separator: ", ")))")
        }
        return dict
    }

    func child(_ key: String) -> JSONNode {
        JSONNode(value: value.objectValue?[key] ?? .null, path: path.isEmpty ? key : "\(path).\(key)")
    }

    /// The member `key`, or nil when absent or null.
    func optional(_ key: String) -> JSONNode? {
        let node = child(key)
        return node.value.isNull ? nil : node
    }

    func required(_ key: String) throws -> JSONNode {
        guard let node = optional(key) else {
            throw RasterError.malformedJob(path: child(key).path, reason: "missing")
        }
        return node
    }

    func array() throws -> [JSONNode] {
        guard let items = value.arrayValue else { throw fail("expected an array") }
        return items.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    func number() throws -> Double {
        let d: Double
        switch value {
        case let .number(x): d = x
        case .bool: throw fail("expected a number, not true/false")
        default: throw fail("expected a number")
        }
        guard d.isFinite else { throw fail("\(d) is not finite") }
        return d
    }

    func number(in range: ClosedRange<Double>, _ accepted: String? = nil) throws -> Double {
        let d = try number()
        guard range.contains(d) else {
            throw fail("\(d) is out of range (accepted: \(accepted ?? "\(range.lowerBound)...\(range.upperBound)"))")
        }
        return d
    }

    func int(in range: ClosedRange<Int>) throws -> Int {
        let d = try number()
        let accepted = "accepted: a whole number in \(range.lowerBound)...\(range.upperBound)"
        guard d == d.rounded() else { throw fail("\(d) is not a whole number (\(accepted))") }
        guard d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            // A whole number as written: 0, not 0.0.
            throw fail("\(abs(d) < 1e15 ? String(Int(d)) : "\(d)") is out of range (\(accepted))")
        }
        return Int(d)
    }

    func string() throws -> String {
        guard let s = value.stringValue else { throw fail("expected a string") }
        return s
    }

    func color() throws -> Color {
        do { return try Color(hex: string()) } catch let e as RasterError {
            if case .invalidArgument = e { throw fail("\(value.shown) is not a colour (accepted: \"#RRGGBB\" or \"#RRGGBBAA\")") }
            throw e
        }
    }

    /// `[x, y]` or `{ "x": .., "y": .. }`.
    func point() throws -> Point {
        if let items = value.arrayValue {
            guard items.count == 2 else { throw fail("expected [x, y]") }
            let nodes = try array()
            return Point(try nodes[0].number(), try nodes[1].number())
        }
        _ = try object(allowing: ["x", "y"])
        return Point(try required("x").number(), try required("y").number())
    }

    func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws -> T where T.RawValue == String {
        let s = try string()
        guard let v = T(rawValue: s) else {
            throw fail("'\(s)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return v
    }
}
