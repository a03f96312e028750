import Foundation

/// SVG path data (SVG 1.1 section 8.3 / SVG 2 "d" attribute) to a `Path`.
///
/// Accepts `M L H V C S Q T A Z` in upper case (absolute) and lower case
/// (relative to the current point), implicit repetition of a command's
/// arguments (after `M`/`m` the repeats are `L`/`l`), numbers with signs,
/// fractions and exponents written without separators where unambiguous
/// (`M1-2.5.5` is 1, -2.5, 0.5) and arc flags without separators
/// (`a1 1 0 01 5 5`). `H`/`V` become lines, `S`/`T` reflect the previous
/// control point as SVG specifies, and elliptical arcs become cubics.
///
/// Errors are `RasterError.invalidArgument` naming the 1-based character
/// position of the offending character, so a user can find it in a long
/// string.
public enum PathParser {
    public static func parse(_ data: String, name: String = "path") throws -> Path {
        var parser = Scanner(bytes: Array(data.utf8), name: name)
        return try parser.run()
    }

    /// The largest arc piece turned into one cubic. A cubic through the
    /// ends of a quarter circle with tangent-length 4/3 tan(a/4) is off by
    /// 2.7e-4 of the radius; at an eighth (pi/4) by 4.2e-6, i.e. under
    /// 0.01 px for radii up to about 2000 px, below what any variant resolves.
    static let maxArcPiece = Double.pi / 4

    static let accepted = "SVG path data: commands M L H V C S Q T A Z (absolute or relative) with numbers"
}

extension PathParser {
    struct Scanner {
        let bytes: [UInt8]
        let name: String
        var i = 0
        var path = Path()
        /// The current point and the current sub-path's start.
        var current = Point(0, 0)
        var start = Point(0, 0)
        /// The second control of the previous C/S and the control of the
        /// previous Q/T, for S and T's reflection; nil after any other command.
        var lastCubic: Point?
        var lastQuad: Point?

        init(bytes: [UInt8], name: String) { self.bytes = bytes; self.name = name }

        mutating func run() throws -> Path {
            skipSpace()
            guard i < bytes.count else {
                throw RasterError.invalidArgument(name: name, value: "empty path data", accepted: PathParser.accepted)
            }
            guard bytes[i] == UInt8(ascii: "M") || bytes[i] == UInt8(ascii: "m") else {
                throw error("path data must start with M or m, found \(quoted(i))", at: i)
            }
            var command: UInt8 = 0
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                let c = bytes[i]
                if Scanner.isCommand(c) {
                    command = c
                    i += 1
                    if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
                        closePath()
                        continue
                    }
                    // SVG's grammar puts only white space between a command
                    // and its first number: "M,1 2" is an error, as in browsers.
                    skipSpace()
                    if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                        throw error("a comma cannot follow a command letter", at: i)
                    }
                    try arguments(for: command)
                } else if Scanner.startsNumber(c), command != 0,
                          command != UInt8(ascii: "Z"), command != UInt8(ascii: "z") {
                    // Implicit repetition; a comma may separate argument sets.
                    try arguments(for: command)
                } else {
                    throw error("unexpected \(quoted(i))", at: i)
                }
                // Repeats of M are lines (SVG 8.3.2).
                if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            }
            return path
        }

        // MARK: commands

        mutating func arguments(for command: UInt8) throws {
            let relative = command >= UInt8(ascii: "a")
            let base = relative ? current : Point(0, 0)
            switch command | 0x20 { // lower-cased
            case UInt8(ascii: "m"):
                let p = try point(base)
                path.move(to: p)
                current = p; start = p
                lastCubic = nil; lastQuad = nil
            case UInt8(ascii: "l"):
                lineTo(try point(base))
            case UInt8(ascii: "h"):
                let x = try number() + (relative ? current.x : 0)
                lineTo(Point(x, current.y))
            case UInt8(ascii: "v"):
                let y = try number() + (relative ? current.y : 0)
                lineTo(Point(current.x, y))
            case UInt8(ascii: "c"):
                let c1 = try point(base), c2 = try point(base), p = try point(base)
                cubicTo(c1, c2, p)
            case UInt8(ascii: "s"):
                let c1 = lastCubic.map { current * 2 - $0 } ?? current
                let c2 = try point(base), p = try point(base)
                cubicTo(c1, c2, p)
            case UInt8(ascii: "q"):
                let c = try point(base), p = try point(base)
                quadTo(c, p)
            case UInt8(ascii: "t"):
                let c = lastQuad.map { current * 2 - $0 } ?? current
                quadTo(c, try point(base))
            case UInt8(ascii: "a"):
                let rx = try number(), ry = try number(), rotation = try number()
                let large = try flag(), sweep = try flag()
                let p = try point(base)
                arcTo(p, rx: rx, ry: ry, rotationDegrees: rotation, large: large, sweep: sweep)
                // The arc's cubics are ours, not the user's: an S or T after
                // an A reflects nothing (SVG: only after C/c/S/s, Q/q/T/t).
                lastCubic = nil; lastQuad = nil
            default:
                throw error("unknown command \(quoted(i - 1))", at: i - 1)
            }
        }

        mutating func lineTo(_ p: Point) {
            path.line(to: p)
            current = p
            lastCubic = nil; lastQuad = nil
        }

        mutating func cubicTo(_ c1: Point, _ c2: Point, _ p: Point) {
            path.cubic(c1: c1, c2: c2, to: p)
            current = p
            lastCubic = c2; lastQuad = nil
        }

        mutating func quadTo(_ c: Point, _ p: Point) {
            path.quad(control: c, to: p)
            current = p
            lastQuad = c; lastCubic = nil
        }

        mutating func closePath() {
            path.close()
            current = start
            lastCubic = nil; lastQuad = nil
        }

        /// SVG's endpoint-parameterised elliptical arc (implementation notes
        /// F.6.5 and F.6.6) as cubics of at most `maxArcPiece` each.
        mutating func arcTo(_ p: Point, rx: Double, ry: Double, rotationDegrees: Double, large: Bool, sweep: Bool) {
            let p0 = current
            if p0 == p { lastCubic = nil; lastQuad = nil; return } // F.6.2: omitted
            var rx = abs(rx), ry = abs(ry)
            if rx == 0 || ry == 0 { lineTo(p); return }           // F.6.2: a line
            // Reduce the rotation first: 1e308 degrees would overflow to an
            // infinite angle (and NaN coordinates) in the conversion below.
            let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
            let cosPhi = cos(phi), sinPhi = sin(phi)
            let hx = (p0.x - p.x) / 2, hy = (p0.y - p.y) / 2
            let x1 = cosPhi * hx + sinPhi * hy
            let y1 = -sinPhi * hx + cosPhi * hy
            // F.6.6: radii too small for the chord are scaled up. lambda is
            // written as squared ratios, not products of squares, so radii
            // like 1e-300 or 1e300 neither overflow nor underflow to 0 * inf.
            var lambda = (x1 / rx) * (x1 / rx) + (y1 / ry) * (y1 / ry)
            let negligible = !lambda.isFinite
            if negligible {
                // Radii negligible against the chord: F.6.6 scales them up
                // uniformly, so only their ratio matters.
                let big = max(rx, ry)
                rx /= big; ry /= big
                lambda = (x1 / rx) * (x1 / rx) + (y1 / ry) * (y1 / ry)
            }
            // An ellipse flat beyond Double's range, or one so large that the
            // arc through both ends is its chord to within 1e-100 px: a line.
            guard lambda.isFinite, lambda > 1e-200 else { lineTo(p); return }
            if lambda > 1 || negligible { let s = lambda.squareRoot(); rx *= s; ry *= s; lambda = 1 }
            // A small arc of a huge ellipse: its centre is far away, and the
            // points computed from it lose |centre| * 2^-52 to cancellation
            // (radii of 1e50 put them at 1e34). Where the arc's bulge (at most
            // h^2 a / (2 b^2), the chord over the flattest curvature) is below
            // 0.01 px it is the chord.
            let h = (hx * hx + hy * hy).squareRoot(), b = min(rx, ry)
            if !large, h / b * h / b * max(rx, ry) / 2 < 0.01 { lineTo(p); return }
            // F.6.5.2's coefficient, (rx^2 ry^2 - rx^2 y1^2 - ry^2 x1^2) /
            // (rx^2 y1^2 + ry^2 x1^2), divided through by rx^2 ry^2.
            var coef = max(0, (1 - lambda) / lambda).squareRoot()
            if large == sweep { coef = -coef }
            let cxp = coef * rx * y1 / ry
            let cyp = -coef * ry * x1 / rx
            let cx = cosPhi * cxp - sinPhi * cyp + (p0.x + p.x) / 2
            let cy = sinPhi * cxp + cosPhi * cyp + (p0.y + p.y) / 2
            let ux = (x1 - cxp) / rx, uy = (y1 - cyp) / ry
            let vx = (-x1 - cxp) / rx, vy = (-y1 - cyp) / ry
            let theta1 = atan2(uy, ux)
            var delta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
            if !sweep && delta > 0 { delta -= 2 * .pi }
            if sweep && delta < 0 { delta += 2 * .pi }
            guard delta.isFinite, cx.isFinite, cy.isFinite else { lineTo(p); return }
            let pieces = max(1, Int((abs(delta) / PathParser.maxArcPiece).rounded(.up)))
            let step = delta / Double(pieces)
            let k = 4.0 / 3.0 * tan(step / 4)
            // Unit circle -> ellipse: scale by the radii, rotate by phi, move to the centre.
            func map(_ x: Double, _ y: Double) -> Point {
                Point(cx + rx * cosPhi * x - ry * sinPhi * y, cy + rx * sinPhi * x + ry * cosPhi * y)
            }
            var a = theta1
            for n in 0..<pieces {
                let b = n == pieces - 1 ? theta1 + delta : a + step
                let ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b)
                let c1 = map(ca - k * sa, sa + k * ca)
                let c2 = map(cb + k * sb, sb - k * cb)
                cubicTo(c1, c2, n == pieces - 1 ? p : map(cb, sb))
                a = b
            }
        }

        // MARK: tokens

        static func isCommand(_ c: UInt8) -> Bool {
            switch c | 0x20 {
            case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "c"),
                 UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "z"):
                return true
            default:
                return false
            }
        }

        static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

        static func startsNumber(_ c: UInt8) -> Bool {
            isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: ",")
        }

        static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }

        mutating func skipSpace() { while i < bytes.count, Scanner.isSpace(bytes[i]) { i += 1 } }

        /// Skips white space with at most one comma in it (SVG's comma-wsp).
        mutating func skipSeparator() {
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1; skipSpace() }
        }

        mutating func point(_ base: Point) throws -> Point {
            let x = try number()
            let y = try number()
            return Point(base.x + x, base.y + y)
        }

        /// One number: sign? (digits ('.' digits?)? | '.' digits) exponent?
        mutating func number() throws -> Double {
            skipSeparator()
            let begin = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            var digits = 0
            while i < bytes.count, Scanner.isDigit(bytes[i]) { i += 1; digits += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                while i < bytes.count, Scanner.isDigit(bytes[i]) { i += 1; digits += 1 }
            }
            guard digits > 0 else {
                i = begin
                throw error("expected a number, found \(quoted(begin))", at: begin)
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                let e = i
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                var expDigits = 0
                while i < bytes.count, Scanner.isDigit(bytes[i]) { i += 1; expDigits += 1 }
                guard expDigits > 0 else { throw error("malformed exponent in number", at: e) }
            }
            let text = String(decoding: bytes[begin..<i], as: UTF8.self)
            guard let v = Double(text), v.isFinite else {
                throw error("number \(text) out of range", at: begin)
            }
            return v
        }

        /// An arc flag: a single 0 or 1, which needs no separator after it.
        mutating func flag() throws -> Bool {
            skipSeparator()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else {
                throw error("expected an arc flag 0 or 1, found \(quoted(i))", at: i)
            }
            i += 1
            return bytes[i - 1] == UInt8(ascii: "1")
        }

        // MARK: errors

        /// The character at byte offset `at`, quoted, or "the end".
        func quoted(_ at: Int) -> String {
            guard at < bytes.count else { return "the end of the data" }
            var end = at + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 } // whole UTF-8 character
            return "'\(String(decoding: bytes[at..<end], as: UTF8.self))'"
        }

        /// An error naming the 1-based character position of byte offset `at`.
        func error(_ what: String, at: Int) -> RasterError {
            // Unicode scalars, not Characters: Swift's Character joins "\r\n"
            // into one, so a CRLF-separated path would be miscounted.
            let position = String(decoding: bytes[0..<min(at, bytes.count)], as: UTF8.self).unicodeScalars.count + 1
            return RasterError.invalidArgument(name: name, value: "\(what) at character \(position)", accepted: PathParser.accepted)
        }
    }
}
