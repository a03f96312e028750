import Foundation

/// Writes a job as a job file (docs/contract.md §9) that decodes to the same job:
/// what `render --emit-job` prints, so any scene frame can be rendered and
/// timed again without the scene.
///
/// Numbers are written in Swift's shortest round-trip form, so every Double
/// decodes to the same bits; colours as straight `#RRGGBBAA` (scenes build
/// their colours from 8-bit straight components, so the round trip through
/// premultiplication is exact). An `image` op has no file to name and
/// cannot be written.
extension Job {
    public func jsonText() throws -> String {
        let w = JSONWriter()
        try w.object {
            w.key("width"); w.raw("\(width)")
            w.key("height"); w.raw("\(height)")
            w.key("background"); w.string(background.hexString)
            w.key("ops"); try w.ops(ops)
        }
        return w.text + "\n"
    }
}

extension Color {
    /// Straight `#RRGGBBAA`, each component rounded to nearest.
    public var hexString: String {
        func byte(_ v: Double) -> Int { Int(min(255, max(0, v)).rounded()) }
        let a = byte(self.a)
        let k = self.a > 0 ? 255 / self.a : 0
        return String(format: "#%02X%02X%02X%02X", byte(r * k), byte(g * k), byte(b * k), a)
    }
}

extension Path {
    /// SVG path data with absolute commands (`M L Q C Z`).
    public var svgData: String {
        var parts: [String] = []
        func n(_ v: Double) -> String { JSONWriter.number(v) }
        func p(_ q: Point) -> String { "\(n(q.x)) \(n(q.y))" }
        for e in elements {
            switch e {
            case let .move(q): parts.append("M \(p(q))")
            case let .line(q): parts.append("L \(p(q))")
            case let .quad(c, q): parts.append("Q \(p(c)) \(p(q))")
            case let .cubic(c1, c2, q): parts.append("C \(p(c1)) \(p(c2)) \(p(q))")
            case .close: parts.append("Z")
            }
        }
        return parts.joined(separator: " ")
    }
}

/// A minimal JSON writer for job files (ops one per line). A class: its
/// methods nest closures that append to the same text.
final class JSONWriter {
    private(set) var text = ""
    private var first = [true]

    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    private func separate() {
        if !first[first.count - 1] { text += ", " }
        first[first.count - 1] = false
    }

    func object(_ body: () throws -> Void) rethrows {
        separate(); text += "{"; first.append(true)
        try body()
        first.removeLast(); text += "}"
    }

    func array(_ body: () throws -> Void) rethrows {
        separate(); text += "["; first.append(true)
        try body()
        first.removeLast(); text += "]"
    }

    func key(_ k: String) {
        separate(); text += "\"\(k)\": "
        first[first.count - 1] = true // the value follows without a comma
    }

    func raw(_ s: String) { separate(); text += s }
    func number(_ v: Double) { raw(JSONWriter.number(v)) }

    func string(_ s: String) {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04X", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        raw(out + "\"")
    }

    func point(_ p: Point) { array { number(p.x); number(p.y) } }

    func ops(_ ops: [JobOp]) throws {
        // One op per line: a frame's job stays readable in a diff.
        try array {
            for op in ops {
                if !first[first.count - 1] { text += "," }
                first[first.count - 1] = true
                text += "\n  "
                try self.op(op)
            }
        }
    }

    func op(_ op: JobOp) throws {
        try object {
            switch op {
            case let .freeform(g):
                key("op"); string("freeform")
                key("points"); array {
                    for s in g.points {
                        object { key("x"); number(s.position.x); key("y"); number(s.position.y)
                                 key("color"); string(s.color.hexString) }
                    }
                }
                key("influence"); number(g.influence)
                key("exponent"); number(g.exponent)
                key("space"); string(g.space.rawValue)
                if g.swirl != 0 { key("swirl"); number(g.swirl) }
            case let .gradient(g):
                switch g.shape {
                case let .linear(s, t):
                    key("op"); string("linear"); key("start"); point(s); key("end"); point(t)
                case let .radial(c, r):
                    key("op"); string("radial"); key("center"); point(c); key("radius"); number(r)
                }
                key("stops"); array {
                    for s in g.stops { object { key("offset"); number(s.offset); key("color"); string(s.color.hexString) } }
                }
                key("extend"); string(g.extend.rawValue)
            case let .fill(f):
                key("op"); string("fill"); key("path"); string(f.path.svgData)
                key("rule"); string(f.rule.rawValue); key("color"); string(f.color.hexString)
            case let .blob(anchors, color):
                key("op"); string("blob"); key("anchors"); array { for a in anchors { point(a) } }
                key("color"); string(color.hexString)
            case let .mesh(m):
                key("op"); string("mesh"); key("columns"); raw("\(m.columns)"); key("rows"); raw("\(m.rows)")
                key("points"); array { for p in m.positions { point(p) } }
                key("colors"); array { for c in m.colors { string(c.hexString) } }
            case .image:
                throw RasterError.invalidArgument(name: "job", value: "an image op",
                                                  accepted: "ops a job file can hold without a file (image ops name their file)")
            case let .blur(b):
                key("op"); string("blur"); key("sigma"); number(b.sigma); key("edge"); string(b.edge.rawValue)
            case let .layer(opacity, ops):
                key("op"); string("layer"); key("opacity"); number(opacity); key("ops"); try self.ops(ops)
            case let .scaledLayer(w, h, opacity, ops):
                key("op"); string("layer"); key("opacity"); number(opacity)
                key("size"); array { raw("\(w)"); raw("\(h)") }
                key("ops"); try self.ops(ops)
            }
        }
    }
}
