import Foundation

/// A map from data to pixels, linear or logarithmic, with readable ticks.
struct Scale {
    var lo: Double
    var hi: Double
    var log: Bool
    var from: Double   // pixel of lo
    var to: Double     // pixel of hi

    /// A scale covering `values` (finite, and positive on a log scale) with a little air.
    static func fit(_ values: [Double], log: Bool, from: Double, to: Double, includeZero: Bool = false) -> Scale {
        var v = values.filter { $0.isFinite && (!log || $0 > 0) }
        if v.isEmpty { v = [1] }
        var lo = v.min()!, hi = v.max()!
        if log {
            lo = pow(10, floor(log10(lo) * 4) / 4); hi = pow(10, ceil(log10(hi) * 4) / 4)
            if hi <= lo { lo /= 2; hi *= 2 }
        } else {
            if includeZero { lo = min(0, lo) }
            if hi <= lo { hi = lo + 1 }
            let step = niceStep((hi - lo) / 5)
            lo = floor(lo / step) * step; hi = ceil(hi / step) * step
        }
        return Scale(lo: lo, hi: hi, log: log, from: from, to: to)
    }

    func map(_ v: Double) -> Double {
        let t: Double
        if log { t = (log10(max(v, lo / 10)) - log10(lo)) / (log10(hi) - log10(lo)) } else { t = (v - lo) / (hi - lo) }
        return from + (to - from) * t
    }

    func contains(_ v: Double) -> Bool { v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) }

    /// Ticks with labels: powers of ten (and 2, 5 between them when the span is short) on a log scale.
    var ticks: [(Double, String)] {
        if log {
            let decades = log10(hi) - log10(lo)
            let mults: [Double] = decades <= 1.2 ? [1, 2, 5] : decades <= 3 ? [1, 3] : [1]
            var out: [(Double, String)] = []
            var p = pow(10, floor(log10(lo)))
            while p <= hi * 1.0001 {
                for m in mults where contains(m * p) { out.append((m * p, Scale.label(m * p))) }
                p *= 10
            }
            return out
        }
        let step = Scale.niceStep((hi - lo) / 5)
        var out: [(Double, String)] = []
        var v = lo
        // As many decimals as the step needs, so neighbouring ticks never read the same.
        let decimals = max(0, Int(-floor(log10(step))))
        while v <= hi + step * 1e-6 {
            out.append((v, abs(v) >= 10_000 ? Scale.label(v) : String(format: "%.\(decimals)f", v)))
            v += step
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
