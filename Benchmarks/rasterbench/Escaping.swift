import RasterKit

extension Console {
    /// What the user typed, escaped and truncated for a one-line error.
    static func escaped(_ text: String, limit: Int = 60) -> String { RasterError.escaped(text, limit: limit) }
}
