#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Mann-Whitney U test (Wilcoxon rank-sum), two-sided: do two sets of
/// timings come from the same distribution?
///
/// It is what benchstat uses, for the same reasons: it assumes nothing about
/// the shape of the distribution (benchmark times are skewed, multi-modal and
/// heavy-tailed), and it works on ranks, so one wild sample cannot decide it.
///
/// The p-value is exact (the distribution of U counted by dynamic
/// programming) when there are no ties and both samples are small enough for
/// the table; otherwise it uses the normal approximation with the tie
/// correction of the variance and a continuity correction.
public struct MannWhitney: Sendable, Equatable {
    /// U of the first sample: the number of (x, y) pairs with x > y, ties counting 1/2.
    public let u: Double
    public let pValue: Double
    /// Whether `pValue` came from the exact distribution.
    public let exact: Bool

    /// Largest sample size for which the exact distribution is tabulated;
    /// beyond it the normal approximation is accurate to well under 1e-3.
    public static let exactLimit = 50

    public init(_ x: [Double], _ y: [Double]) {
        let n1 = x.count, n2 = y.count
        precondition(n1 > 0 && n2 > 0, "Mann-Whitney needs two non-empty samples")
        // Rank the pooled values, ties sharing their average rank.
        var pooled = x.map { ($0, 0) } + y.map { ($0, 1) }
        pooled.sort { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0 // sum of t^3 - t over tie groups
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let average = Double(i + j) / 2 + 1
            for k in i...j { ranks[k] = average }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        var r1 = 0.0
        for (k, p) in pooled.enumerated() where p.1 == 0 { r1 += ranks[k] }
        let u1 = r1 - Double(n1 * (n1 + 1)) / 2
        u = u1
        let uMin = Swift.min(u1, Double(n1 * n2) - u1)

        if tieTerm == 0 && n1 <= MannWhitney.exactLimit && n2 <= MannWhitney.exactLimit {
            let cdf = MannWhitney.exactCDF(n1, n2, atMost: Int(uMin.rounded()))
            pValue = Swift.min(1, 2 * cdf)
            exact = true
        } else {
            let n = Double(n1 + n2)
            let mu = Double(n1 * n2) / 2
            let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
            if variance <= 0 {
                pValue = 1 // every value equal: no evidence of any difference
            } else {
                let z = Swift.max(0, abs(u1 - mu) - 0.5) / variance.squareRoot()
                pValue = Swift.min(1, erfc(z / 2.0.squareRoot()))
            }
            exact = false
        }
    }

    /// P(U <= u) under the null hypothesis for sample sizes m and n without
    /// ties. f(i, j)[u] counts the orderings of i + j values with U = u; the
    /// largest value belongs to the first sample (and then beats all j of the
    /// second) or to the second, so f(i, j)[u] = f(i-1, j)[u - j] + f(i, j-1)[u].
    public static func exactCDF(_ m: Int, _ n: Int, atMost u: Int) -> Double {
        // previous[j] = f(i-1, j), current[j] = f(i, j); counts as Double
        // (C(100, 50) ~ 1e29 is far inside Double's range).
        var previous: [[Double]] = (0...n).map { _ in [1] } // f(0, j) = {U = 0: 1}
        for i in 1...m {
            var current: [[Double]] = [[1]] // f(i, 0) = {U = 0: 1}
            for j in 1...n {
                var f = [Double](repeating: 0, count: i * j + 1)
                let a = previous[j] // f(i-1, j), shifted by j
                for (k, c) in a.enumerated() { f[k + j] += c }
                let b = current[j - 1] // f(i, j-1)
                for (k, c) in b.enumerated() { f[k] += c }
                current.append(f)
            }
            previous = current
        }
        let dist = previous[n]
        let total = dist.reduce(0, +)
        let upTo = Swift.max(-1, Swift.min(u, dist.count - 1))
        return upTo < 0 ? 0 : dist[0...upTo].reduce(0, +) / total
    }
}
