/// Order statistics of one workload's samples, all in the samples' unit
/// (the harness uses nanoseconds per iteration).
///
/// Everything a verdict rests on is robust to outliers: the median, the
/// percentiles and the median absolute deviation ignore a few samples that a
/// context switch or a page fault inflated, where a mean and a standard
/// deviation would not. The mean is kept for reference only.
///
/// Conventions (pinned by tests):
/// - Percentiles use linear interpolation between closest ranks, Hyndman and
///   Fan's type 7 (R's and NumPy's default): for sorted x[0..<n] and p in
///   [0, 1], h = (n - 1) p, q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
/// - MAD is the *unscaled* median of |x_i - median|. Multiply by 1.4826 for a
///   standard-deviation estimate under normality.
/// - Outliers are counted with Tukey's fences (outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR])
///   and reported, never dropped: the tail is part of a frame-time story.
public struct Summary: Sendable, Equatable, Codable {
    public var count: Int
    public var min: Double
    public var max: Double
    public var mean: Double
    public var median: Double
    public var p95: Double
    public var p99: Double
    public var mad: Double
    public var outliers: Int

    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "Summary needs at least one sample")
        let sorted = samples.sorted()
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
        median = Summary.percentile(sorted: sorted, 0.5)
        p95 = Summary.percentile(sorted: sorted, 0.95)
        p99 = Summary.percentile(sorted: sorted, 0.99)
        let m = median
        mad = Summary.percentile(sorted: sorted.map { Swift.abs($0 - m) }.sorted(), 0.5)
        let q1 = Summary.percentile(sorted: sorted, 0.25), q3 = Summary.percentile(sorted: sorted, 0.75)
        let fence = 1.5 * (q3 - q1)
        outliers = sorted.reduce(0) { $0 + (($1 < q1 - fence || $1 > q3 + fence) ? 1 : 0) }
    }

    /// The type-7 percentile of already sorted values, `p` in [0, 1].
    public static func percentile(sorted x: [Double], _ p: Double) -> Double {
        precondition(!x.isEmpty && (0...1).contains(p))
        let h = Double(x.count - 1) * p
        let lo = Int(h.rounded(.down))
        let hi = Swift.min(lo + 1, x.count - 1)
        return x[lo] + (h - Double(lo)) * (x[hi] - x[lo])
    }

    /// Every value multiplied by `k` (e.g. nanoseconds to milliseconds).
    public func scaled(by k: Double) -> Summary {
        var s = self
        s.min *= k; s.max *= k; s.mean *= k; s.median *= k; s.p95 *= k; s.p99 *= k; s.mad *= k
        return s
    }
}

/// The geometric mean, the only honest average of ratios (benchstat's summary line).
public func geometricMean(_ values: [Double]) -> Double? {
    let positive = values.filter { $0 > 0 && $0.isFinite }
    guard !positive.isEmpty, positive.count == values.count else { return nil }
    return exp(positive.reduce(0) { $0 + log($1) } / Double(positive.count))
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
