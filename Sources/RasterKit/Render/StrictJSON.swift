import Foundation

/// A strict JSON reader (RFC 8259) for the files a user hands the suite (job
/// and wisdom files). Foundation's readers accept an object with the same key
/// twice and keep one of the values silently (a later, invalid value was
/// ignored), give no position for a syntax error, and build whatever tree
/// the input describes (a 16 MB job grew to gigabytes). This one refuses a
/// duplicate key with its path, names the line and column of a syntax
/// error, and counts values and nesting against `Limits` while it reads, so
/// an oversized document is refused before it is built.
///
/// Numbers are converted by `Double(String)` (strtod), which is correctly
/// rounded: a job emitted by `render --emit-job` reads back to the very same
/// Doubles.
public enum StrictJSON {
    /// How much one document may hold.
    public struct Limits: Sendable, Equatable {
        /// The most values (objects, arrays, strings, numbers, literals).
        public var maxValues: Int
        /// The deepest nesting of arrays and objects (the reader recurses).
        public var maxDepth: Int

        public init(maxValues: Int, maxDepth: Int = 256) {
            self.maxValues = maxValues; self.maxDepth = maxDepth
        }
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not JSON: 1-based line and column (in characters).
        case syntax(line: Int, column: Int, reason: String)
        /// The second occurrence of a key, named by its path (`ops[2].color`).
        case duplicateKey(path: String, line: Int, column: Int)
        /// More values or deeper nesting than `Limits` allows.
        case tooLarge(line: Int, column: Int, reason: String)

        public var description: String {
            switch self {
            case let .syntax(line, column, reason): return "\(line):\(column): not valid JSON (\(reason))"
            case let .duplicateKey(path, line, column): return "\(path): duplicate key (again at \(line):\(column))"
            case let .tooLarge(line, column, reason): return "\(line):\(column): \(reason)"
            }
        }
    }

    /// Throws unless `data` is one JSON value within `limits` with no
    /// duplicate key. For files then decoded by `JSONDecoder`.
    public static func validate(_ data: Data, limits: Limits) throws(Failure) {
        _ = try parse(data, limits: limits)
    }

    static func parse(_ data: Data, limits: Limits) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            return Result { () throws(Failure) -> JSONValue in
                reader.skipSpace()
                let value = try reader.value(depth: 0)
                reader.skipSpace()
                guard reader.pos == reader.bytes.count else { throw reader.syntax("unexpected text after the document") }
                return value
            }
        }
        return try result.get()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: Limits
        var pos = 0
        var values = 0
        /// Where the reader is (keys and indices), turned into a path only
        /// for a duplicate key: most documents have none.
        var trail: [Step] = []

        enum Step { case key(String), index(Int) }

        func path(_ key: String) -> String {
            var out = ""
            for step in trail {
                switch step {
                case let .key(k): out += out.isEmpty ? k : ".\(k)"
                case let .index(i): out += "[\(i)]"
                }
            }
            return out.isEmpty ? key : "\(out).\(key)"
        }

        init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) { self.bytes = bytes; self.limits = limits }

        /// Line and column of byte `at`, counted when an error needs them
        /// (UTF-8 continuation bytes do not start a column).
        func position(_ at: Int) -> (line: Int, column: Int) {
            var line = 1, column = 1
            for i in 0..<min(at, bytes.count) {
                if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            }
            return (line, column)
        }

        func syntax(_ reason: String, at: Int? = nil) -> Failure {
            let p = position(at ?? pos)
            return .syntax(line: p.line, column: p.column, reason: reason)
        }

        /// What is at the current position, for an error.
        var found: String {
            guard pos < bytes.count else { return "the end of the file" }
            let b = bytes[pos]
            if b >= 0x20 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
            return "byte 0x\(String(b, radix: 16, uppercase: true))"
        }

        mutating func skipSpace() {
            while pos < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[pos]) { pos += 1 }
        }

        mutating func count() throws(Failure) {
            values += 1
            guard values <= limits.maxValues else {
                let p = position(pos)
                throw .tooLarge(line: p.line, column: p.column, reason: "more than \(limits.maxValues) values")
            }
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard pos < bytes.count else { throw syntax("expected a value, found the end of the file") }
            try count()
            switch bytes[pos] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw syntax("expected a value, found \(found)")
            }
        }

        mutating func nest(_ depth: Int) throws(Failure) {
            guard depth <= limits.maxDepth else {
                let p = position(pos)
                throw .tooLarge(line: p.line, column: p.column, reason: "more than \(limits.maxDepth) levels of nesting")
            }
        }

        mutating func object(depth: Int) throws(Failure) -> JSONValue {
            try nest(depth)
            pos += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
                    throw syntax("expected a key in quotes, found \(found)")
                }
                let keyStart = pos
                let key = try string()
                if members[key] != nil {
                    let p = position(keyStart)
                    throw .duplicateKey(path: path(key), line: p.line, column: p.column)
                }
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw syntax("expected ':' after a key, found \(found)") }
                pos += 1
                skipSpace()
                trail.append(.key(key))
                members[key] = try value(depth: depth)
                trail.removeLast()
                skipSpace()
                guard pos < bytes.count else { throw syntax("expected ',' or '}', found the end of the file") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
                throw syntax("expected ',' or '}', found \(found)")
            }
        }

        mutating func array(depth: Int) throws(Failure) -> JSONValue {
            try nest(depth)
            pos += 1
            var items: [JSONValue] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                trail.append(.index(items.count))
                items.append(try value(depth: depth))
                trail.removeLast()
                skipSpace()
                guard pos < bytes.count else { throw syntax("expected ',' or ']', found the end of the file") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
                throw syntax("expected ',' or ']', found \(found)")
            }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let n = word.utf8CodeUnitCount
            guard pos + n <= bytes.count,
                  (0..<n).allSatisfy({ bytes[pos + $0] == word.utf8Start[$0] }) else {
                throw syntax("expected a value, found \(found)")
            }
            pos += n
        }

        mutating func number() throws(Failure) -> Double {
            let start = pos
            func digits() -> Int {
                let s = pos
                while pos < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[pos]) { pos += 1 }
                return pos - s
            }
            if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            let intStart = pos
            let n = digits()
            guard n > 0 else { throw syntax("expected a digit, found \(found)") }
            guard !(n > 1 && bytes[intStart] == UInt8(ascii: "0")) else {
                throw syntax("a number may not start with 0", at: intStart)
            }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
                pos += 1
                guard digits() > 0 else { throw syntax("expected a digit after '.', found \(found)") }
            }
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
                pos += 1
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
                guard digits() > 0 else { throw syntax("expected an exponent, found \(found)") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
            // Beyond Double's range strtod gives +-inf; the reader of the
            // value says it is not finite, with its path.
            guard let d = Double(text) else { throw syntax("'\(text)' is not a number", at: start) }
            return d
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard pos + 4 <= bytes.count else { throw syntax("expected 4 hex digits after \\u") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[pos]
                let d: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
                default: throw syntax("expected 4 hex digits after \\u, found \(found)")
                }
                v = v << 4 | UInt32(d)
                pos += 1
            }
            return v
        }

        mutating func string() throws(Failure) -> String {
            pos += 1
            var out: [UInt8] = []
            var runStart = pos
            while true {
                guard pos < bytes.count else { throw syntax("unterminated string") }
                let b = bytes[pos]
                if b == UInt8(ascii: "\"") { break }
                if b < 0x20 { throw syntax("a control character (byte 0x\(String(b, radix: 16, uppercase: true))) in a string; write it escaped") }
                if b != UInt8(ascii: "\\") { pos += 1; continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                let escape = pos
                pos += 1
                guard pos < bytes.count else { throw syntax("unterminated string") }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                            throw syntax("an unpaired surrogate \\u escape", at: escape)
                        }
                        pos += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw syntax("an unpaired surrogate \\u escape", at: escape) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = UnicodeScalar(scalar) else { throw syntax("an unpaired surrogate \\u escape", at: escape) }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    throw syntax("unknown escape '\\\(Character(UnicodeScalar(e)))'", at: escape)
                }
                runStart = pos
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
            guard let s = String(validating: out, as: UTF8.self) else { throw syntax("a string that is not UTF-8") }
            pos += 1
            return s
        }
    }
}
