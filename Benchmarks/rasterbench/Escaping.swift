extension Console {
    /// What the user typed, fit for a one-line error (SPEC section 10):
    /// control characters escaped (\n, \t, \u{..}) and the whole cut to
    /// `limit` characters with an ellipsis.
    static func escaped(_ text: String, limit: Int = 60) -> String {
        var out = ""
        for (i, ch) in text.unicodeScalars.enumerated() {
            if i == limit { out += "..."; break }
            switch ch {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if ch.value < 0x20 || ch.value == 0x7F { out += "\\u{\(String(ch.value, radix: 16))}" } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}
