import RasterKit
/// A confidence interval for the ratio of two medians, by a two-level
/// (hierarchical) bootstrap: rounds are resampled first, then the samples
/// within each drawn round (Davison and Hinkley's scheme for clustered
/// data). The round is the unit of replication because timings taken in
/// one process share that process's luck (placement, clock, neighbours,
/// memory layout) and are not independent of each other; resampling the
/// samples alone would give an interval as narrow as one process's jitter,
/// which is what made the old Mann-Whitney verdicts call noise "slower".
///
/// The statistic is the one a report row shows: the median of the round
/// medians. Percentile intervals; the generator is seeded, so the same
/// data always give the same interval.
public struct RatioInterval: Sendable, Equatable {
    /// new / base of the rows' statistic (median of round medians).
    public var ratio: Double
    public var lower: Double
    public var upper: Double
    /// e.g. 0.95.
    public var confidence: Double
    /// Replicates (rounds) a side: an interval from one round a side only
    /// knows that process's jitter.
    public var baseRounds: Int
    public var newRounds: Int
    /// Rounds were resampled pairwise (A/B rounds measured next to each other).
    public var paired: Bool

    public init(ratio: Double, lower: Double, upper: Double, confidence: Double, baseRounds: Int, newRounds: Int, paired: Bool) {
        self.ratio = ratio; self.lower = lower; self.upper = upper; self.confidence = confidence
        self.baseRounds = baseRounds; self.newRounds = newRounds; self.paired = paired
    }
}

public enum Bootstrap {
    public static let defaultResamples = 1000
    public static let defaultConfidence = 0.95

    /// Samples grouped by round, rounds in ascending id; a row without
    /// round ids is one round. Nil when the row has no raw samples.
    public static func rounds(of row: ReportRow) -> [[Double]]? {
        guard !row.samplesMs.isEmpty else { return nil }
        guard let ids = row.sampleRounds, ids.count == row.samplesMs.count else { return [row.samplesMs] }
        var groups: [Int: [Double]] = [:]
        for (id, x) in zip(ids, row.samplesMs) { groups[id, default: []].append(x) }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// The row's statistic: the median of its round medians.
    public static func statistic(_ rounds: [[Double]]) -> Double {
        median(rounds.map { median($0) })
    }

    /// The interval for statistic(new) / statistic(base). `paired` draws
    /// the same round indices on both sides (rounds measured side by side,
    /// as `ab` does, so shared drift cancels); it needs as many rounds a side.
    public static func ratioOfMedians(base: [[Double]], new: [[Double]], paired: Bool = false,
                                      resamples: Int = defaultResamples, confidence: Double = defaultConfidence,
                                      seed: UInt64 = 0x5EED_B007) -> RatioInterval {
        precondition(!base.isEmpty && !new.isEmpty && base.allSatisfy { !$0.isEmpty } && new.allSatisfy { !$0.isEmpty })
        precondition(resamples > 0 && confidence > 0 && confidence < 1)
        let paired = paired && base.count == new.count
        var g = SeededGenerator(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        // Every buffer is allocated once, outside the resampling loop, and
        // each side's rounds are laid out flat, so the loop touches no
        // reference count: a `compare` of a million rows runs it a billion
        // times. The draws are in the order they always were (round picks
        // of both sides, then the samples of base's picks, then new's), so
        // the intervals are unchanged.
        let sideA = FlatRounds(base), sideB = FlatRounds(new)
        let buffer = UnsafeMutablePointer<Double>.allocate(capacity: max(sideA.longest, sideB.longest) + max(base.count, new.count))
        defer { buffer.deallocate() }
        let scratch = buffer, medians = buffer + max(sideA.longest, sideB.longest)
        let picks = UnsafeMutablePointer<Int>.allocate(capacity: base.count + new.count)
        defer { picks.deallocate() }
        let pa = picks, pb = picks + base.count
        func resampledStatistic(_ side: FlatRounds, picks: UnsafeMutablePointer<Int>) -> Double {
            side.values.withUnsafeBufferPointer { values in
                for j in 0..<side.count {
                    let r = picks[j]
                    let start = side.starts[r], n = side.starts[r + 1] - start
                    for i in 0..<n { scratch[i] = values[start + g.below(n)] }
                    medians[j] = median(UnsafeMutableBufferPointer(start: scratch, count: n))
                }
            }
            return median(UnsafeMutableBufferPointer(start: medians, count: side.count))
        }
        for _ in 0..<resamples {
            for i in 0..<base.count { pa[i] = g.below(base.count) }
            for i in 0..<new.count { pb[i] = paired ? pa[i] : g.below(new.count) }
            let a = resampledStatistic(sideA, picks: pa)
            let b = resampledStatistic(sideB, picks: pb)
            if a > 0 { ratios.append(b / a) }
        }
        ratios.sort()
        let tail = (1 - confidence) / 2
        let a = statistic(base), b = statistic(new)
        return RatioInterval(ratio: a > 0 ? b / a : .nan,
                             lower: ratios.isEmpty ? .nan : Summary.percentile(sorted: ratios, tail),
                             upper: ratios.isEmpty ? .nan : Summary.percentile(sorted: ratios, 1 - tail),
                             confidence: confidence, baseRounds: base.count, newRounds: new.count, paired: paired)
    }

    static func median(_ x: [Double]) -> Double { var c = x; return median(&c) }

    /// Median by sorting in place (rounds hold at most a few hundred samples).
    static func median(_ x: inout [Double]) -> Double {
        x.withUnsafeMutableBufferPointer { median($0) }
    }

    /// Sorts `x` in place; insertion sort up to 32 values (a round's few
    /// samples, a row's few round medians), where the standard library's
    /// merge sort costs more in set-up than in comparisons.
    static func median(_ x: UnsafeMutableBufferPointer<Double>) -> Double {
        var x = x
        if x.count <= 32 {
            for i in x.indices.dropFirst() {
                let v = x[i]
                var j = i
                while j > 0 && x[j - 1] > v { x[j] = x[j - 1]; j -= 1 }
                x[j] = v
            }
        } else {
            x.sort()
        }
        let n = x.count
        return n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2
    }
}

/// The verdict rule (docs/measurement.md §3): `faster` or `slower` only when the
/// whole interval lies beyond the noise threshold, `~` when it lies wholly
/// within it, `?` otherwise, and `?` whenever a side has fewer rounds than
/// `minRounds`: with one round (one process) the interval cannot see the
/// run-to-run noise, which is the largest on a shared host.
public struct VerdictRule: Sendable {
    /// Relative change that counts as noise: 0.02 = 2%. A ratio r is within
    /// it when 1/(1+t) <= r <= 1+t (symmetric in log: 2% slower and "2%
    /// faster" are the same distance from 1).
    public var threshold: Double
    public var minRounds: Int

    public static let defaultThreshold = 0.02
    /// With two rounds a percentile bootstrap has three possible
    /// statistics a side; three is the fewest that can say anything.
    public static let defaultMinRounds = 3

    public init(threshold: Double = defaultThreshold, minRounds: Int = defaultMinRounds) {
        self.threshold = threshold; self.minRounds = minRounds
    }

    public func verdict(_ ci: RatioInterval) -> Comparison.Verdict {
        guard ci.lower.isFinite, ci.upper.isFinite else { return .unknown }
        if ci.baseRounds < minRounds || ci.newRounds < minRounds { return .unknown }
        let hi = 1 + threshold, lo = 1 / (1 + threshold)
        if ci.lower > hi { return .slower }
        if ci.upper < lo { return .faster }
        if ci.lower >= lo && ci.upper <= hi { return .same }
        return .unknown
    }

    /// A `slower` whose whole interval lies beyond +`percent`%.
    public static func isRegression(_ ci: RatioInterval?, verdict: Comparison.Verdict, above percent: Double) -> Bool {
        guard verdict == .slower, let ci else { return false }
        return ci.lower > 1 + percent / 100
    }
}

/// One side's rounds in one array: round r's samples are
/// values[starts[r] ..< starts[r + 1]].
struct FlatRounds {
    let values: [Double]
    let starts: [Int]
    let longest: Int
    var count: Int { starts.count - 1 }

    init(_ rounds: [[Double]]) {
        values = rounds.flatMap { $0 }
        var s = [0]
        for r in rounds { s.append(s.last! + r.count) }
        starts = s
        longest = rounds.map(\.count).max() ?? 0
    }
}
