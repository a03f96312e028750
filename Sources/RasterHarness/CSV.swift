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
    public static func forEachRecord(_ text: String, path: String = "<csv>", _ body: (Record) throws -> Void) throws {
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quoteLine = 1
        var afterQuote = false // just closed a quoted field
        var atRecordStart = true
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        if let first = scalars.next(), first != "\u{FEFF}" { pending = first } // drop a UTF-8 BOM

        func endRecord() throws {
            fields.append(field)
            try body(Record(line: recordLine, fields: fields))
            fields.removeAll(keepingCapacity: true); field = ""; afterQuote = false; atRecordStart = true
        }

        while let c = pending ?? scalars.next() {
            pending = nil
            if inQuotes {
                if c == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field.unicodeScalars.append("\"") }
                    else { inQuotes = false; afterQuote = true; pending = next }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            if atRecordStart { recordLine = line; atRecordStart = false }
            switch c {
            case ",":
                fields.append(field); field = ""; afterQuote = false
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next } // a lone CR also ends a record
                try endRecord(); line += 1
            case "\n":
                try endRecord(); line += 1
            case "\"":
                guard field.isEmpty && !afterQuote else {
                    throw HarnessError.malformedReport(path: path, line: line, reason: "a double quote inside an unquoted field (RFC 4180 needs the field quoted and the quote doubled)")
                }
                inQuotes = true; quoteLine = line
            default:
                guard !afterQuote else {
                    throw HarnessError.malformedReport(path: path, line: line, reason: "unexpected character '\(c)' after a closing quote")
                }
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes {
            throw HarnessError.malformedReport(path: path, line: quoteLine, reason: "a quoted field is never closed")
        }
        if !atRecordStart { try endRecord() } // last record without a final newline
    }
}
