import RasterKit
/// Rounds (docs/measurement.md §3): the selected workloads measured K times over,
/// each round in a new seeded random order, after Abedi and Brecht's
/// randomised multiple interleaved trials. A slow drift of the host (a
/// neighbour starting a build, the CPU clock settling) then lands on every
/// workload in turn instead of on whichever ran late, and each round is one
/// replicate of the whole measurement: what `compare` resamples.

// Orders and bootstraps draw from RasterKit's SeededGenerator (SplitMix64):
// its stream is fixed by its seed on every platform, so both replay exactly.

public enum RoundOrder {
    /// The order of round `round` (1-based): a Fisher-Yates shuffle of
    /// 0..<count from a generator seeded by (seed, round), so any round of a
    /// run can be replayed from the seed the run printed.
    public static func permutation(count: Int, seed: UInt64, round: Int) -> [Int] {
        var g = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: round) &* 0xD1B5_4A32_D192_ED03))
        var order = Array(0..<count)
        if count > 1 {
            for i in stride(from: count - 1, to: 0, by: -1) { order.swapAt(i, g.below(i + 1)) }
        }
        return order
    }
}

public enum RoundMerge {
    /// One row per workload from the rows of several rounds (`rounds[r]`
    /// holds round `ids[r]`'s rows; rows match on their key). A merged row
    /// keeps every sample with its round, reports the median of the round
    /// medians as `median_ms` (so one slow round moves it little), the
    /// round spread, and the percentiles, MAD and extremes of all samples
    /// pooled. Throughput follows the new median. A workload that failed in
    /// any round is reported by its first failing row. Rows keep the order
    /// in which their keys first appear.
    public static func merge(_ rounds: [[ReportRow]], ids: [Int]) -> [ReportRow] {
        precondition(rounds.count == ids.count)
        var order: [MeasurementKey] = []
        var groups: [MeasurementKey: [(Int, ReportRow)]] = [:]
        for (rows, id) in zip(rounds, ids) {
            var seen = Set<MeasurementKey>()
            for row in rows where seen.insert(row.key).inserted {
                if groups[row.key] == nil { order.append(row.key) }
                groups[row.key, default: []].append((id, row))
            }
        }
        return order.map { merge(groups[$0]!) }
    }

    /// Merges one workload's rows, each with its round id.
    public static func merge(_ group: [(round: Int, row: ReportRow)]) -> ReportRow {
        if let failed = group.first(where: { !$0.row.isOK }) { return failed.row }
        let withSamples = group.filter { !$0.row.samplesMs.isEmpty }
        guard var merged = group.first?.row, withSamples.count == group.count else {
            // Rows without raw samples cannot be pooled; keep the first as it was.
            return group[0].row
        }
        let roundMedians = withSamples.map { Summary($0.row.samplesMs).median }
        let all = withSamples.flatMap(\.row.samplesMs)
        let pooled = Summary(all)
        let median = Summary(roundMedians).median
        let oldMedian = merged.medianMs ?? median
        merged.samplesMs = all
        merged.sampleRounds = withSamples.flatMap { Array(repeating: $0.round, count: $0.row.samplesMs.count) }
        merged.samples = all.count
        merged.rounds = group.count
        merged.medianMs = median
        merged.roundSpread = median > 0 ? (roundMedians.max()! - roundMedians.min()!) / median : nil
        merged.p95Ms = pooled.p95; merged.p99Ms = pooled.p99
        merged.minMs = pooled.min; merged.maxMs = pooled.max
        merged.madMs = pooled.mad; merged.meanMs = pooled.mean; merged.outliers = pooled.outliers
        if median > 0 && oldMedian > 0 {
            let k = oldMedian / median
            merged.mpixPerS = merged.mpixPerS.map { $0 * k }
            merged.gbPerS = merged.gbPerS.map { $0 * k }
            merged.bwFraction = merged.bwFraction.map { $0 * k }
            merged.limitShare = merged.limitShare.map { $0 * k }
        }
        if merged.fitsBudget != nil, let budget = merged.budgetMs { merged.fitsBudget = pooled.p95 <= budget }
        // The busiest moment any round saw: a row is as trustworthy as its worst round.
        merged.loadAverage = group.compactMap(\.row.loadAverage).max()
        // Quality does not depend on the round; take it from whichever round measured it.
        if let q = group.first(where: { $0.row.psnrDb != nil || $0.row.maxErr != nil })?.row {
            merged.psnrDb = q.psnrDb; merged.maxErr = q.maxErr; merged.qualityOn = q.qualityOn
        }
        return merged
    }

    /// Rows of a single run marked as round 1 (a row that already carries
    /// rounds is left alone).
    public static func asOneRound(_ rows: [ReportRow]) -> [ReportRow] {
        rows.map { r in
            guard r.isOK, r.rounds == nil, !r.samplesMs.isEmpty else { return r }
            var r = r
            r.rounds = 1; r.roundSpread = 0
            r.sampleRounds = Array(repeating: 1, count: r.samplesMs.count)
            return r
        }
    }
}

extension SuiteRunner {
    /// `run --rounds K`: K rounds over `workloads`, each in the order
    /// `RoundOrder.permutation(count:seed:round:)` gives, then one row per
    /// workload (RoundMerge), in the workloads' own order. One round keeps
    /// the plan's order (the quick look, as before rounds existed).
    /// Quality is measured after the timing, once per workload, in plan
    /// order: the reference cache holds two images, and a shuffled order
    /// would recompute an expensive reference at nearly every step.
    public func run(_ workloads: [Workload], rounds: Int, seed: UInt64,
                    progress: (RunProgress) -> Void = { _ in }) -> [ReportRow] {
        guard rounds > 1 else { return RoundMerge.asOneRound(run(workloads, progress: progress)) }
        let start = MonotonicClock.now()
        let total = rounds * workloads.count
        var perRound: [[ReportRow]] = []
        for round in 1...rounds {
            var rows = [ReportRow?](repeating: nil, count: workloads.count)
            for (step, i) in RoundOrder.permutation(count: workloads.count, seed: seed, round: round).enumerated() {
                progress(RunProgress(index: (round - 1) * workloads.count + step + 1, total: total,
                                     label: "round \(round)/\(rounds): \(workloads[i].label)",
                                     elapsed: MonotonicClock.seconds(since: start)))
                rows[i] = measure(workloads[i], withQuality: false)
            }
            perRound.append(rows.map { $0! })
        }
        var merged = (0..<workloads.count).map { i in
            RoundMerge.merge((1...rounds).map { (round: $0, row: perRound[$0 - 1][i]) })
        }
        for (i, w) in workloads.enumerated() where merged[i].isOK && w.reference != nil {
            do {
                applyQuality(&merged[i], w, try w.make())
            } catch {
                merged[i].note = [merged[i].note, "quality not measured: \(error)"].filter { !$0.isEmpty }.joined(separator: "; ")
            }
        }
        SuiteRunner.fillSpeedups(&merged)
        return merged
    }
}

/// `ab`'s order: A B in odd rounds, B A in even ones (A B B A A B ...), so
/// that a linear drift over two rounds favours neither side.
public enum ABSchedule {
    public enum Side: String, Sendable { case base = "A", new = "B" }

    public static func order(rounds: Int) -> [(round: Int, side: Side)] {
        guard rounds > 0 else { return [] }
        return (1...rounds).flatMap { r in
            r % 2 == 1 ? [(r, Side.base), (r, Side.new)] : [(r, Side.new), (r, Side.base)]
        }
    }
}
