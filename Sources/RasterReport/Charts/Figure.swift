import Foundation

/// One chart on the page: its SVG, a title, a caption saying how to read
/// it, and the legend (name, colour) drawn under it in HTML.
struct Figure {
    var id: String
    var title: String
    var caption: String
    var svg: SVGNode
    var legend: [(String, String)] = []
    var wide = false
}

/// Stable element ids from free text.
func slug(_ parts: String...) -> String {
    parts.joined(separator: "-").lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        .reduce(into: "") { s, c in if !(c == "-" && s.hasSuffix("-")) { s.append(c) } }
}
