import Foundation

/// Numbers typed on the command line are plain decimals: `12`, `-0.5`,
/// `2.5e3`. Swift's `Double(String)` also takes hexadecimal (`0x10` is 16),
/// `nan`, `inf` and `infinity`, which nobody means as a frame rate or a
/// percentage, so options parsed by this package go through this instead
/// (docs/contract.md §10: a bad value is an error naming it, not a surprise).
public enum DecimalText {
    /// The value of `text` if it is a finite plain decimal, else nil.
    /// Surrounding spaces are not allowed: a list's items are trimmed by
    /// the list parser, a single value is taken as typed.
    public static func parse(_ text: some StringProtocol) -> Double? {
        var digits = 0, i = text.startIndex
        func skipDigits() { while i < text.endIndex, text[i].isASCII, text[i].isNumber { i = text.index(after: i); digits += 1 } }
        if i < text.endIndex, text[i] == "+" || text[i] == "-" { i = text.index(after: i) }
        skipDigits()
        if i < text.endIndex, text[i] == "." { i = text.index(after: i); skipDigits() }
        guard digits > 0 else { return nil }
        if i < text.endIndex, text[i] == "e" || text[i] == "E" {
            i = text.index(after: i)
            if i < text.endIndex, text[i] == "+" || text[i] == "-" { i = text.index(after: i) }
            let before = digits
            skipDigits()
            guard digits > before else { return nil }
        }
        guard i == text.endIndex, let v = Double(String(text)), v.isFinite else { return nil }
        return v
    }
}
