import Foundation
import RasterKit

/// How every JSON file and JSON answer of the harness is written: sorted
/// keys, pretty-printed, non-finite numbers as the strings "inf", "-inf" and
/// "nan" (a front may hold an exact option whose PSNR is infinite).
///
/// Strings also escape, as \uXXXX, what a terminal would act on instead of
/// showing (`RasterError.isControl`: DEL, C1 controls such as the one-byte
/// CSI U+009B, bidirectional overrides and isolates). JSONEncoder escapes
/// only C0, and `choose --json` and friends print to the terminal; the
/// escaped form decodes to the same string, so files stay equal in meaning.
public enum JSONOutput {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return escapingTerminalControls(try e.encode(value))
    }

    /// `json` with every `RasterError.isControl` scalar above C0 written as
    /// \uXXXX. Such scalars can only occur inside JSON strings (the syntax
    /// is ASCII), where the escape means the same scalar.
    static func escapingTerminalControls(_ json: Data) -> Data {
        let text = String(decoding: json, as: UTF8.self)
        guard text.unicodeScalars.contains(where: { $0.value >= 0x20 && RasterError.isControl($0) }) else { return json }
        var out = String.UnicodeScalarView()
        for ch in text.unicodeScalars {
            if ch.value >= 0x20 && RasterError.isControl(ch) {
                out.append(contentsOf: String(format: "\\u%04X", ch.value).unicodeScalars)
            } else {
                out.append(ch)
            }
        }
        return Data(String(out).utf8)
    }
}
