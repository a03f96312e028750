import Foundation
import Plot

/// Inline SVG written as Plot nodes, so the page has one writer and one
/// escaping rule. Plot escapes text but not attribute values, so every value
/// goes through `attr`.
typealias SVGNode = Node<HTML.BodyContext>

enum SVG {
    static func element(_ name: String, _ attributes: [(String, String)], _ children: [SVGNode] = []) -> SVGNode {
        .element(named: name, nodes: attributes.map { .attribute(named: $0.0, value: attr($0.1), ignoreIfValueIsEmpty: false) } + children)
    }

    static func svg(width: Double, height: Double, label: String, _ children: [SVGNode]) -> SVGNode {
        element("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("class", "chart"), ("role", "img"), ("aria-label", label),
                        ("viewBox", "0 0 \(n(width)) \(n(height))"), ("width", n(width)), ("height", n(height))],
                [element("title", [], [.text(label)])] + children)
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, cls: String, stroke: String? = nil) -> SVGNode {
        element("line", [("x1", n(x1)), ("y1", n(y1)), ("x2", n(x2)), ("y2", n(y2)), ("class", cls)]
                + (stroke.map { [("stroke", $0)] } ?? []))
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, cls: String = "bar", tip: String? = nil) -> SVGNode {
        element("rect", [("x", n(x)), ("y", n(y)), ("width", n(max(0, w))), ("height", n(max(0, h))), ("fill", fill), ("class", cls)],
                tip.map { [element("title", [], [.text($0)])] } ?? [])
    }

    static func circle(_ x: Double, _ y: Double, r: Double, fill: String, cls: String = "dot", tip: String? = nil) -> SVGNode {
        element("circle", [("cx", n(x)), ("cy", n(y)), ("r", n(r)), ("fill", fill), ("class", cls)],
                tip.map { [element("title", [], [.text($0)])] } ?? [])
    }

    static func polyline(_ points: [(Double, Double)], stroke: String, cls: String = "series") -> SVGNode {
        element("polyline", [("points", points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")),
                             ("stroke", stroke), ("fill", "none"), ("class", cls)])
    }

    static func path(_ d: String, fill: String, cls: String) -> SVGNode {
        element("path", [("d", d), ("fill", fill), ("class", cls)])
    }

    enum Anchor: String { case start, middle, end }

    static func text(_ s: String, _ x: Double, _ y: Double, anchor: Anchor = .start, cls: String = "lbl", rotate: Bool = false) -> SVGNode {
        var a = [("x", n(x)), ("y", n(y)), ("text-anchor", anchor.rawValue), ("class", cls)]
        if rotate { a.append(("transform", "rotate(-90 \(n(x)) \(n(y)))")) }
        return element("text", a, [.text(s)])
    }

    static func group(_ cls: String, _ children: [SVGNode]) -> SVGNode { element("g", [("class", cls)], children) }

    /// Two decimals are finer than a pixel and keep the page small.
    static func n(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        // Far beyond any drawing (and within Int): a coordinate never traps the conversion below.
        let r = (min(max(v, -1e9), 1e9) * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(format: "%.2f", r)
    }

    static func attr(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}
