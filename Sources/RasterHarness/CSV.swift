/// RFC 4180 comma-separated values: one quoting function for writing, one
/// parser for reading that knows which physical line each record starts on
/// (so a malformed report is rejected with its line number).
///
/// Records end in CRLF as the RFC says; the reader also accepts bare LF. A
/// field is quoted when it holds a comma, a double quote, CR or LF, or
/// leading/trailing spaces (which some readers trim); quotes inside are doubled.
public enum CSV {
    public static let recordSeparator = "\r\n"

    public static func quote(_ field: String) -> String {
        let needsQuotes = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || field.first == " " || field.last == " "
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    public static func record(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",")
    }

    /// One parsed record and the physical line (from 1) it starts on.
    public struct Record: Equatable, Sendable {
        public var line: Int
        public var fields: [String]
    }

    /// Parses a whole document. Throws `.malformedReport` naming the line of
    /// an unterminated quoted field or of a stray character after a closing quote.
    public static func parse(_ text: String, path: String = "<csv>") throws -> [Record] {
        var records: [Record] = []
        try forEachRecord(text, path: path) { records.append($0) }
        return records
    }

    /// Parses a document record by record, handing each to `body` as soon as
    /// it ends, so a reader that keeps only what it needs from each record
    /// (a report of a million rows) never holds all the fields at once.
    ///
    /// Works on the text's UTF-8 bytes: the delimiters are ASCII, and no
    /// byte of a multi-byte UTF-8 sequence is ASCII, so a field is a byte
    /// range (a quoted one is copied to undouble its quotes). About 4x
    /// faster than walking Unicode scalars and appending them one by one.
    public static func forEachRecord(_ text: String, path: String = "<csv>", _ body: (Record) throws -> Void) throws {
        var text = text
        try text.withUTF8 { try forEachRecord(bytes: $0, path: path, body) }
    }

    static func forEachRecord(bytes: UnsafeBufferPointer<UInt8>, path: String, _ body: (Record) throws -> Void) throws {
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let n = bytes.count
        var i = 0
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 } // drop a UTF-8 BOM
        var fields: [String] = []
        var line = 1
        var recordLine = 1
        var atRecordStart = true
        var fieldStart = i        // an unquoted field is bytes[fieldStart ..< end]
        var quoted: [UInt8] = []  // a quoted field, its quotes undoubled
        var isQuoted = false
        var afterQuote = false    // just closed a quoted field

        func field(end: Int) -> String {
            isQuoted ? String(decoding: quoted, as: UTF8.self)
                : String(decoding: UnsafeBufferPointer(rebasing: bytes[fieldStart..<end]), as: UTF8.self)
        }
        func nextField() { fieldStart = i; isQuoted = false; afterQuote = false }
        func endRecord() throws {
            try body(Record(line: recordLine, fields: fields))
            fields.removeAll(keepingCapacity: true)
            nextField()
            atRecordStart = true
        }

        while i < n {
            let c = bytes[i]
            if atRecordStart { recordLine = line; atRecordStart = false }
            switch c {
            case comma:
                fields.append(field(end: i))
                i += 1
                nextField()
            case cr, lf:
                fields.append(field(end: i))
                i += 1
                if c == cr && i < n && bytes[i] == lf { i += 1 } // CRLF; a lone CR also ends a record
                try endRecord()
                line += 1
            case quote:
                guard i == fieldStart && !isQuoted else {
                    throw HarnessError.malformedReport(path: path, line: line, reason: "a double quote inside an unquoted field (RFC 4180 needs the field quoted and the quote doubled)")
                }
                let quoteLine = line
                isQuoted = true
                quoted.removeAll(keepingCapacity: true)
                i += 1
                while true {
                    guard i < n else {
                        throw HarnessError.malformedReport(path: path, line: quoteLine, reason: "a quoted field is never closed")
                    }
                    let q = bytes[i]
                    if q == quote {
                        if i + 1 < n && bytes[i + 1] == quote { quoted.append(quote); i += 2; continue }
                        i += 1
                        afterQuote = true
                        break
                    }
                    if q == lf { line += 1 }
                    quoted.append(q)
                    i += 1
                }
            default:
                guard !afterQuote else {
                    let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<min(n, i + 4)]), as: UTF8.self).unicodeScalars.first!
                    throw HarnessError.malformedReport(path: path, line: line, reason: "unexpected character '\(scalar)' after a closing quote")
                }
                i += 1
            }
        }
        if !atRecordStart { // last record without a final newline
            fields.append(field(end: n))
            try endRecord()
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (ASCII checked eight bytes at a
    /// time; the rest through the standard library's UTF-8 parser).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        }
        var iterator = UnsafeBufferPointer(rebasing: bytes[i...]).makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
