import RasterKit

/// A share, headroom or threshold as typed: a fraction (`0.25`) or a
/// percentage (`25%`). One rule for every such value: a bare number is a
/// fraction. A bare number above 1 is refused with the percentage it most
/// likely meant, since reading `25` as 25% and `1` as 100% made one
/// option mean two things.
public enum FractionText {
    /// The fraction `text` names, if `valid` accepts it; otherwise an
    /// `invalidArgument` naming `name` and `accepted`.
    public static func parse(_ text: String, name: String, accepted: String,
                             valid: (Double) -> Bool) throws -> Double {
        let isPercent = text.hasSuffix("%")
        let bad = HarnessError.invalidArgument(name: name, value: "'\(RasterError.escaped(text))'", accepted: accepted)
        guard let v = DecimalText.parse(isPercent ? text.dropLast() : Substring(text)) else { throw bad }
        if !isPercent && v > 1 {
            throw HarnessError.invalidArgument(name: name, value: "'\(RasterError.escaped(text))'",
                                               accepted: "\(accepted); a bare number is a fraction: did you mean \(text)%?")
        }
        let fraction = isPercent ? v / 100 : v
        guard valid(fraction) else { throw bad }
        return fraction
    }
}
