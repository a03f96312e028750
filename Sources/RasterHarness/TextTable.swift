/// A plain-text table with columns padded to their widest cell; numbers
/// (cells starting with a digit, a sign or '~') are right-aligned.
public struct TextTable {
    public var header: [String]
    public var rows: [[String]] = []

    public init(_ header: [String]) { self.header = header }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render(indent: String = "") -> String {
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
