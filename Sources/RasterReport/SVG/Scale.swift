import Foundation

/// A map from data to pixels, linear or logarithmic, with readable ticks.
///
/// Any finite values make a scale with a bounded number of ticks: a log
/// scale works in exponents (so 1e308 does not round up to infinity nor
/// 5e-324 down to 0), a linear one in multiples of its step (so adding the
/// step to 1e300 does not stall).
struct Scale {
    var lo: Double
    var hi: Double
    var log: Bool
    var from: Double   // pixel of lo
    var to: Double     // pixel of hi
    /// log10 of lo and hi on a log scale.
    var logLo = 0.0, logHi = 1.0

    /// At most this many ticks on an axis.
    static let maxTicks = 24

    /// A scale covering `values` (finite, and positive on a log scale) with a little air.
    static func fit(_ values: [Double], log: Bool, from: Double, to: Double, includeZero: Bool = false) -> Scale {
        let v = values.filter { $0.isFinite && (!log || $0 > 0) }
        var lo = v.min() ?? 1, hi = v.max() ?? 1
        if log {
            // Quarter decades around the data, as exponents.
            var a = floor(log10(lo) * 4) / 4, b = ceil(log10(hi) * 4) / 4
            if b <= a { a -= log10(2); b += log10(2) }
            lo = max(pow(10, a), .leastNonzeroMagnitude); hi = min(pow(10, b), .greatestFiniteMagnitude)
            return Scale(lo: lo, hi: hi, log: true, from: from, to: to, logLo: a, logHi: b)
        }
        if includeZero { lo = min(0, lo); hi = max(0, hi) }
        if hi <= lo {
            // One unit of air, or a tenth of the value where a unit is below its precision.
            var pad = 1.0
            if lo + pad <= lo { pad = abs(lo) / 10 }
            if lo + pad < .greatestFiniteMagnitude { hi = lo + pad } else { lo -= pad }
        }
        let step = niceStep(span(lo, hi) / 5)
        lo = max(floor(lo / step) * step, -.greatestFiniteMagnitude)
        hi = min(ceil(hi / step) * step, .greatestFiniteMagnitude)
        return Scale(lo: lo, hi: hi, log: false, from: from, to: to)
    }

    /// hi - lo, without overflowing to infinity when they are far apart.
    static func span(_ lo: Double, _ hi: Double) -> Double {
        let d = hi - lo
        return d.isFinite ? d : hi / 2 - lo / 2
    }

    func map(_ v: Double) -> Double {
        var t: Double
        if log {
            let lv = v > 0 ? Swift.max(log10(v), logLo - 1) : logLo - 1
            t = (lv - logLo) / (logHi - logLo)
        } else {
            let d = hi - lo
            t = d.isFinite ? (v - lo) / d : (v / 2 - lo / 2) / (hi / 2 - lo / 2)
        }
        // A value off the scale (or not a number) is drawn at its edge, never at an infinite pixel.
        t = t.isNaN ? 0 : Swift.min(Swift.max(t, -1), 2)
        return from + (to - from) * t
    }

    func contains(_ v: Double) -> Bool {
        if log { return v > 0 && log10(v) >= logLo - 1e-9 && log10(v) <= logHi + 1e-9 }
        return v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)
    }

    /// Ticks with labels: powers of ten (and 2, 5 between them when the span is short) on a log scale.
    var ticks: [(Double, String)] {
        var out: [(Double, String)] = []
        if log {
            let decades = logHi - logLo
            let mults: [Double] = decades <= 1.2 ? [1, 2, 5] : decades <= 3 ? [1, 3] : [1]
            // Every power of ten, or every k-th on a scale of hundreds of decades.
            let every = Swift.max(1, Int((decades / Double(Scale.maxTicks)).rounded(.up)))
            var k = Int(floor(logLo))
            while Double(k) <= logHi + 1e-9 && out.count < Scale.maxTicks {
                let p = pow(10, Double(k))
                for m in mults where (m * p).isFinite && contains(m * p) { out.append((m * p, Scale.label(m * p))) }
                k += every
            }
            return out
        }
        let step = Scale.niceStep(Scale.span(lo, hi) / 5)
        // As many decimals as the step needs, so neighbouring ticks never read the same.
        let decimals = max(0, Int(-floor(log10(step))))
        // From lo by whole steps, multiplied rather than summed: a sum stalls once the step is below lo's precision.
        var i = 0.0
        let end = (hi + step * 1e-6).isFinite ? hi + step * 1e-6 : hi
        while lo + i * step <= end && out.count < Scale.maxTicks {
            let v = lo + i * step
            out.append((v, abs(v) >= 10_000 || decimals > 6 ? Scale.label(v) : String(format: "%.\(decimals)f", v)))
            if lo + (i + 1) * step == v { break }
            i += 1
        }
        return out
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let p = pow(10, floor(log10(raw)))
        let f = raw / p
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p
    }

    static func label(_ v: Double) -> String {
        if v == 0 { return "0" }
        let a = abs(v)
        // Beyond billions or below thousandths, a power of ten reads better than its digits.
        if a >= 1e9 || a < 1e-3 { return String(format: "%.3g", v) }
        if a >= 1_000_000 { return trim(v / 1_000_000) + "M" }
        if a >= 10_000 { return trim(v / 1000) + "k" }
        return trim(v)
    }

    static func trim(_ v: Double) -> String {
        let s = String(format: abs(v) >= 100 ? "%.0f" : abs(v) >= 1 ? "%.1f" : abs(v) >= 0.1 ? "%.2f" : "%.3f", v)
        guard s.contains(".") else { return s }
        var t = s
        while t.hasSuffix("0") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
        return t
    }
}
