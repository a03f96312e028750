/// What a comparison could have told apart, for rows it could not call:
/// the change its data resolve (half the interval's width) and the rounds
/// that would resolve the noise threshold, and rows whose rounds ran at
/// two speeds (another process held a core during some of them).

extension RatioInterval {
    /// Half the interval's width, as a fraction of the base (0.05 = ±5%):
    /// a change smaller than this cannot be told from noise with these data.
    public var halfWidth: Double { (upper - lower) / 2 }

    /// Rounds a side that would narrow the interval to ±`resolution`: the
    /// interval shrinks as one over the square root of the rounds, so
    /// n × (halfWidth / resolution)², and never fewer than `minRounds`.
    /// `atLeast` is true when the interval came from fewer than `minRounds`
    /// rounds: it then knows only one process's jitter, not the run-to-run
    /// noise, and the figure is a floor.
    public func roundsNeeded(for resolution: Double, minRounds: Int) -> (rounds: Int, atLeast: Bool)? {
        guard halfWidth.isFinite, resolution > 0 else { return nil }
        let n = min(baseRounds, newRounds)
        let scaled = Double(n) * (halfWidth / resolution) * (halfWidth / resolution)
        let rounds = scaled.isFinite && scaled < 1e6 ? Int(scaled.rounded(.up)) : 1_000_000
        return (max(minRounds, rounds), n < minRounds)
    }
}

/// Rounds of one row that ran at two speeds: their medians split by a jump
/// of at least `gap` between neighbours, with the rounds on either side of
/// the jump not overlapping (the middle half of their samples apart).
public struct BimodalRounds: Sendable, Equatable {
    /// The round ids in the smaller group (the odd ones out).
    public var odd: [Int]
    /// Median of the slower group's round medians over the faster group's.
    public var factor: Double
    /// The odd rounds are the slower ones.
    public var oddAreSlower: Bool

    /// A jump of 20% between round medians: far more than the few percent
    /// rounds of a steady host differ by, and less than a 2-thread row
    /// losing a core (about 2x).
    public static let gap = 1.2

    /// The split of a row's rounds, nil when they run at one speed.
    public static func find(_ row: ReportRow, gap: Double = gap) -> BimodalRounds? {
        guard let rounds = Bootstrap.rounds(of: row), rounds.count >= 2 else { return nil }
        let ids = row.sampleRounds.map { Array(Set($0)).sorted() } ?? [1]
        guard ids.count == rounds.count else { return nil }
        var order = rounds.indices.map { (id: ids[$0], samples: $0, median: Bootstrap.median(rounds[$0])) }
        order.sort { $0.median < $1.median }
        var best = 0, bestRatio = 1.0
        for i in 0..<(order.count - 1) where order[i].median > 0 {
            let r = order[i + 1].median / order[i].median
            if r > bestRatio { bestRatio = r; best = i }
        }
        guard bestRatio >= gap else { return nil }
        // The rounds beside the jump must not overlap in their middle halves.
        let fastRound = rounds[order[best].samples].sorted(), slowRound = rounds[order[best + 1].samples].sorted()
        guard Summary.percentile(sorted: fastRound, 0.75) < Summary.percentile(sorted: slowRound, 0.25) else { return nil }
        let fast = order[...best], slow = order[(best + 1)...]
        let factor = Bootstrap.median(slow.map(\.median)) / Bootstrap.median(fast.map(\.median))
        let slowerOdd = slow.count <= fast.count
        return BimodalRounds(odd: (slowerOdd ? Array(slow) : Array(fast)).map(\.id).sorted(), factor: factor, oddAreSlower: slowerOdd)
    }

    /// "round 3 at 1.9x the others' time", "rounds 1, 2 at 0.52x ...".
    public var text: String {
        let list = odd.map(String.init).joined(separator: ", ")
        let x = oddAreSlower ? factor : 1 / factor
        return "round\(odd.count == 1 ? "" : "s") \(list) at \(Human.number(x))x the others' time"
    }
}
