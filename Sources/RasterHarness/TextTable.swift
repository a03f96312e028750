import RasterKit

/// A plain-text table with columns padded to their widest cell; numbers
/// (cells starting with a digit, a sign or '~') are right-aligned.
///
/// Cells are report text (host names, commits, notes...) headed for a
/// terminal: each is rendered `TerminalText.safe`.
public struct TextTable {
    public var header: [String]
    public var rows: [[String]] = []

    public init(_ header: [String]) { self.header = header }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render(indent: String = "") -> String {
        let header = self.header.map(TerminalText.safe)
        let rows = self.rows.map { $0.map(TerminalText.safe) }
        let columns = header.count
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.prefix(columns).enumerated() { widths[i] = max(widths[i], c.count) } }
        func isNumeric(_ s: String) -> Bool {
            guard let f = s.first else { return false }
            return f.isNumber || f == "-" || f == "+" || f == "~" || f == "."
        }
        func line(_ cells: [String], header: Bool) -> String {
            var parts: [String] = []
            for i in 0..<columns {
                let c = i < cells.count ? cells[i] : ""
                let pad = String(repeating: " ", count: widths[i] - c.count)
                parts.append(!header && isNumeric(c) ? pad + c : c + pad)
            }
            return indent + parts.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var out = [line(header, header: true)]
        out.append(indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        out += rows.map { line($0, header: false) }
        return out.joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// Short human forms for tables (the CSV keeps full precision).
public enum Human {
    /// "12.3 ms", "456 us", "1.23 s".
    public static func time(ms: Double) -> String {
        if ms >= 1000 { return NumberFormat.decimal(ms / 1000, significant: 3) + " s" }
        if ms >= 1 { return NumberFormat.decimal(ms, significant: 3) + " ms" }
        return NumberFormat.decimal(ms * 1000, significant: 3) + " us"
    }

    public static func number(_ v: Double, _ significant: Int = 3) -> String {
        NumberFormat.decimal(v, significant: significant)
    }

    public static func percent(_ fraction: Double) -> String {
        NumberFormat.decimal(fraction * 100, significant: 2) + "%"
    }

    public static func signedPercent(_ fraction: Double) -> String {
        let p = fraction * 100
        let s = abs(p) >= 10 ? NumberFormat.decimal(p, significant: 3) : String(format: "%.2f", p)
        return (p > 0 ? "+" : "") + s + "%"
    }
}

/// Text from a report or the command line made fit for a terminal: a
/// control character (an escape sequence that sets the title or clears the
/// screen, a CR that overwrites the line, a bidi override) is shown escaped,
/// as errors show it (`RasterError.escaped`), instead of acting.
public enum TerminalText {
    /// One line: every control character escaped, newlines included.
    public static func safe(_ text: String) -> String {
        text.unicodeScalars.contains(where: RasterError.isControl) ? RasterError.escaped(text, limit: .max) : text
    }

    /// Several lines: each made `safe`, the newlines between them kept.
    public static func safeLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: RasterError.isControl) else { return text }
        // Split on the scalar: "\r\n" is one Character, and its CR must be escaped too.
        return text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { safe(String(String.UnicodeScalarView($0))) }.joined(separator: "\n")
    }
}

