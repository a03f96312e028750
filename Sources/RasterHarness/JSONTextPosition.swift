/// Where things are in a JSON document, so that an error in a JSON report
/// names its line and column: Foundation's decoder on Linux gives neither
/// for a syntax error ("The given data was not valid JSON.") and only a
/// coding path for a bad value.
///
/// Works on the UTF-8 bytes, without recursion (a hostile document may nest
/// deeply); it is run only once a decode has failed.
struct JSONTextPosition {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// One step of a coding path: an object key or an array index.
    enum Step: Equatable { case key(String), index(Int) }

    static func steps(_ path: [any CodingKey]) -> [Step] {
        path.map { k in k.intValue.map(Step.index) ?? .key(k.stringValue) }
    }

    /// "rows[3].medianMs"
    static func text(_ steps: [Step]) -> String {
        var s = ""
        for step in steps {
            switch step {
            case let .key(k): s += (s.isEmpty ? "" : ".") + k
            case let .index(i): s += "[\(i)]"
            }
        }
        return s.isEmpty ? "(top level)" : s
    }

    /// Line and column (from 1; the column counts characters) of a byte offset.
    func lineAndColumn(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    // MARK: Scanning

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
    static let openObject = UInt8(ascii: "{"), closeObject = UInt8(ascii: "}")
    static let openArray = UInt8(ascii: "["), closeArray = UInt8(ascii: "]")

    func skipSpace(_ i: Int) -> Int {
        var i = i
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return i
    }

    /// The offset after the string starting at `i` (a quote), nil if it never ends or holds a raw control character.
    func skipString(_ i: Int) -> Int? {
        var i = i + 1
        while i < bytes.count {
            switch bytes[i] {
            case Self.quote: return i + 1
            case Self.backslash: i += 2
            case 0..<0x20: return nil
            default: i += 1
            }
        }
        return nil
    }

    /// The offset after a number or a literal (true, false, null) at `i`.
    func skipScalar(_ i: Int) -> Int {
        var i = i
        while i < bytes.count, !([Self.comma, Self.closeObject, Self.closeArray, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[i])) { i += 1 }
        return i
    }

    /// The offset after the value at `i`, or nil when it is cut short.
    func skipValue(_ i: Int) -> Int? {
        guard i < bytes.count else { return nil }
        let c = bytes[i]
        if c == Self.quote { return skipString(i) }
        guard c == Self.openObject || c == Self.openArray else { return skipScalar(i) }
        var depth = 0, i = i
        while i < bytes.count {
            switch bytes[i] {
            case Self.quote:
                guard let e = skipString(i) else { return nil }
                i = e; continue
            case Self.openObject, Self.openArray: depth += 1
            case Self.closeObject, Self.closeArray:
                depth -= 1
                if depth == 0 { return i + 1 }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// The offset of the value at `path`, nil when the document has no such value.
    func offset(of path: [Step]) -> Int? {
        var i = skipSpace(0)
        for step in path {
            guard i < bytes.count else { return nil }
            switch step {
            case let .key(name):
                guard bytes[i] == Self.openObject else { return nil }
                i = skipSpace(i + 1)
                var found = false
                while !found {
                    guard i < bytes.count, bytes[i] == Self.quote, let end = skipString(i) else { return nil }
                    let key = bytes[(i + 1)..<(end - 1)]
                    i = skipSpace(end)
                    guard i < bytes.count, bytes[i] == Self.colon else { return nil }
                    i = skipSpace(i + 1)
                    if key.elementsEqual(name.utf8) { found = true; break }
                    guard let next = skipValue(i) else { return nil }
                    i = skipSpace(next)
                    guard i < bytes.count, bytes[i] == Self.comma else { return nil }
                    i = skipSpace(i + 1)
                }
            case let .index(n):
                guard bytes[i] == Self.openArray else { return nil }
                i = skipSpace(i + 1)
                for _ in 0..<n {
                    guard let next = skipValue(i) else { return nil }
                    i = skipSpace(next)
                    guard i < bytes.count, bytes[i] == Self.comma else { return nil }
                    i = skipSpace(i + 1)
                }
                guard i < bytes.count, bytes[i] != Self.closeArray else { return nil }
            }
        }
        return i
    }

    /// The first syntax error: its offset and what is wrong there; nil when
    /// the structure is well formed (the decoder may still refuse, e.g.
    /// invalid UTF-8 or a malformed number, which is then placed at the start).
    func syntaxError() -> (offset: Int, reason: String)? {
        enum Expect { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }
        var stack: [UInt8] = []
        var expect = Expect.value
        var i = 0
        func afterValue() -> Expect { stack.isEmpty ? .end : .commaOrClose }
        func shown(_ c: UInt8) -> String {
            c >= 0x20 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
        }
        while true {
            i = skipSpace(i)
            guard i < bytes.count else {
                return expect == .end ? nil : (i, "the document ends early")
            }
            let c = bytes[i]
            switch expect {
            case .value, .valueOrClose:
                if expect == .valueOrClose && c == Self.closeArray { stack.removeLast(); i += 1; expect = afterValue(); continue }
                switch c {
                case Self.openObject: stack.append(c); i += 1; expect = .keyOrClose
                case Self.openArray: stack.append(c); i += 1; expect = .valueOrClose
                case Self.quote:
                    guard let e = skipString(i) else { return (i, "a string is never closed or holds a control character") }
                    i = e; expect = afterValue()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    i = skipScalar(i); expect = afterValue()
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let end = skipScalar(i)
                    guard ["true", "false", "null"].contains(where: { bytes[i..<end].elementsEqual($0.utf8) }) else {
                        return (i, "unexpected \(shown(c)) where a value should be")
                    }
                    i = end; expect = afterValue()
                default: return (i, "unexpected \(shown(c)) where a value should be")
                }
            case .key, .keyOrClose:
                if expect == .keyOrClose && c == Self.closeObject { stack.removeLast(); i += 1; expect = afterValue(); continue }
                guard c == Self.quote else { return (i, "unexpected \(shown(c)) where a key (a quoted string) should be") }
                guard let e = skipString(i) else { return (i, "a string is never closed or holds a control character") }
                i = e; expect = .colon
            case .colon:
                guard c == Self.colon else { return (i, "unexpected \(shown(c)) where ':' should be") }
                i += 1; expect = .value
            case .commaOrClose:
                guard let open = stack.last else { return (i, "unexpected \(shown(c))") }
                if c == Self.comma { i += 1; expect = open == Self.openObject ? .key : .value; continue }
                guard c == (open == Self.openObject ? Self.closeObject : Self.closeArray) else {
                    return (i, "unexpected \(shown(c)) where ',' or '\(open == Self.openObject ? "}" : "]")' should be")
                }
                stack.removeLast(); i += 1; expect = afterValue()
            case .end:
                return (i, "unexpected \(shown(c)) after the end of the document")
            }
        }
    }
}
