import Foundation
import RasterKit

/// Two reports, or two backends of one report, row against row: the ratio
/// of medians with a bootstrap confidence interval and a verdict that knows
/// what it cannot tell (docs/measurement.md §3).
///
/// The unit of replication is the round (`run --rounds K`; a report
/// without rounds is one round): `Bootstrap` resamples rounds, then samples
/// within them, and `VerdictRule` calls a row `faster`/`slower` only when
/// the whole interval lies beyond the noise threshold, `~` when it lies
/// wholly inside, `?` otherwise or when a side has too few rounds.
///
/// The Mann-Whitney U test on the pooled samples is still computed
/// (`Pair.pValue`) but no longer printed: it treats every sample of one
/// process as independent, and so calls run-to-run drift significant.
public struct Comparison: Sendable {
    public enum Verdict: String, Sendable, CaseIterable {
        case faster, slower, same = "~", unknown = "?"
    }

    public struct Pair: Sendable {
        public var key: MeasurementKey
        /// The two rows, by index into the reports they came from: a pair
        /// of a million-row comparison is a few words, not two 750-byte
        /// copies of its rows.
        let rows: RowStore
        let baseIndex: Int, newIndex: Int
        public var base: ReportRow { rows.base[baseIndex] }
        public var new: ReportRow { rows.new[newIndex] }
        /// new median / base median (below 1: new is faster).
        public var ratio: Double
        /// The bootstrap interval of the ratio; nil without raw samples.
        public var interval: RatioInterval?
        /// Mann-Whitney U on the pooled samples (secondary, see above).
        public var pValue: Double?
        public var verdict: Verdict
    }

    public var baseName: String
    public var newName: String
    /// Both sides were measured side by side, in interleaved processes
    /// (`ab`): its advice names ab's own options, not ab.
    public var sideBySide = false
    public var rule = VerdictRule()
    public var pairs: [Pair] = []
    public var onlyInBase: [MeasurementKey] = []
    public var onlyInNew: [MeasurementKey] = []
    /// Matched rows that could not be compared (unsupported, error), with why.
    public var skipped: [(MeasurementKey, String)] = []
    /// Keys that appeared more than once in one report (the first was used).
    public var duplicates: [MeasurementKey] = []

    /// Geometric mean of the ratios of every compared pair.
    public var geomean: Double? { geometricMean(pairs.map(\.ratio)) }

    /// `slower` pairs whose whole interval lies beyond +`percent`%.
    public func regressions(above percent: Double) -> [Pair] {
        pairs.filter { VerdictRule.isRegression($0.interval, verdict: $0.verdict, above: percent) }
    }

    public func count(_ v: Verdict) -> Int { pairs.filter { $0.verdict == v }.count }
}

/// The rows a comparison's pairs point into (shared with the caller's
/// arrays, not copied).
final class RowStore: Sendable {
    let base: [ReportRow], new: [ReportRow]
    init(base: [ReportRow], new: [ReportRow]) { self.base = base; self.new = new }
}

public enum Compare {
    /// Significance level of the secondary U test, benchstat's default.
    public static let alpha = 0.05
    /// Below 4 samples a side, the exact U test cannot reach p < 0.05.
    public static let minSamplesForTest = 4

    /// Rows of `new` against the rows of `base` with the same key.
    /// `paired`: round i of one side was measured next to round i of the
    /// other (as `ab` does), so rounds are resampled in pairs.
    public static func reports(base: [ReportRow], new: [ReportRow], baseName: String, newName: String,
                               rule: VerdictRule = VerdictRule(), paired: Bool = false) -> Comparison {
        var c = Comparison(baseName: baseName, newName: newName)
        c.rule = rule
        let store = RowStore(base: base, new: new)
        let (a, dupA) = index(base)
        let (b, dupB) = index(new)
        c.duplicates = dupA + dupB
        c.pairs.reserveCapacity(min(a.count, b.count))
        for key in sorted(a.keys) {
            guard let nb = b[key] else { c.onlyInBase.append(key); continue }
            add(&c, key: key, rows: store, base: a[key]!, new: nb)
        }
        c.onlyInNew = sorted(b.keys.filter { a[$0] == nil })
        measure(&c, paired: paired)
        return c
    }

    /// Inside one report: every row of another backend against the
    /// `baseline` backend's row for the same kernel, variant, size and
    /// parameters (same thread count if the baseline has it, else its only
    /// one). Rounds are paired: both rows were measured in the same rounds.
    public static func backends(_ rows: [ReportRow], baseline: BackendKind, name: String,
                                rule: VerdictRule = VerdictRule()) -> Comparison {
        var c = Comparison(baseName: "\(name) [\(baseline.rawValue)]", newName: "\(name) [other backends]")
        c.rule = rule
        let store = RowStore(base: rows, new: rows)
        let baseIndices = rows.indices.filter { rows[$0].backend == baseline }
        var byKey: [MeasurementKey: Int] = [:]
        var byShape: [MeasurementKey.AnyBackend: [Int]] = [:]
        for i in baseIndices {
            let key = rows[i].key
            if byKey[key] == nil { byKey[key] = i } else { c.duplicates.append(key) }
            byShape[key.anyBackend, default: []].append(i)
        }
        var used = Set<MeasurementKey>()
        for (i, r) in rows.enumerated() where r.backend != baseline {
            var sameThreads = r.key; sameThreads.backend = baseline
            let candidates = byShape[r.key.anyBackend] ?? []
            guard let base = byKey[sameThreads] ?? (candidates.count == 1 ? candidates[0] : nil) else {
                c.onlyInNew.append(r.key); continue
            }
            used.insert(rows[base].key)
            add(&c, key: r.key, rows: store, base: base, new: i)
        }
        c.onlyInBase = sorted(baseIndices.map { rows[$0].key }.filter { !used.contains($0) })
        c.pairs = sorted(c.pairs, by: \.key)
        measure(&c, paired: true)
        return c
    }

    /// The first row of each key (by index) and the keys seen again.
    static func index(_ rows: [ReportRow]) -> ([MeasurementKey: Int], [MeasurementKey]) {
        var out: [MeasurementKey: Int] = [:]
        out.reserveCapacity(rows.count)
        var dups: [MeasurementKey] = []
        for (i, r) in rows.enumerated() {
            let k = r.key
            if out[k] == nil { out[k] = i } else { dups.append(k) }
        }
        return (out, dups)
    }

    /// `items` in their keys' `MeasurementKey` order (by description), each
    /// description built once rather than twice per comparison.
    static func sorted<S: Sequence>(_ items: S, by key: (S.Element) -> MeasurementKey) -> [S.Element] {
        items.map { (key($0).description, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func sorted<S: Sequence>(_ keys: S) -> [MeasurementKey] where S.Element == MeasurementKey { sorted(keys) { $0 } }

    /// Adds the pair, or records why it cannot be compared. Its interval,
    /// U test and verdict come later, from `measure`, for all pairs at once.
    static func add(_ c: inout Comparison, key: MeasurementKey, rows: RowStore, base: Int, new: Int) {
        let a = rows.base[base], b = rows.new[new]
        guard a.isOK, b.isOK, let ma = a.medianMs, let mb = b.medianMs, ma > 0 else {
            let why = !a.isOK ? "\(c.baseName): \(a.status.rawValue)" : !b.isOK ? "\(c.newName): \(b.status.rawValue)" : "no median"
            c.skipped.append((key, why)); return
        }
        c.pairs.append(.init(key: key, rows: rows, baseIndex: base, newIndex: new, ratio: mb / ma,
                             interval: nil, pValue: nil, verdict: .unknown))
    }

    /// Every pair's bootstrap interval, verdict and U test. Rows are
    /// independent and each interval is a function of its row's data alone
    /// (same seed for every row), so they are spread over the cores: the
    /// bootstrap is most of a large comparison's time.
    static func measure(_ c: inout Comparison, paired: Bool) {
        let rule = c.rule
        let n = c.pairs.count
        guard n > 0 else { return }
        let chunks = min(n, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        c.pairs.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let pairs = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                for i in stride(from: k, to: n, by: chunks) { measure(&pairs[i], rule: rule, paired: paired) }
            }
        }
    }

    static func measure(_ pair: inout Comparison.Pair, rule: VerdictRule, paired: Bool) {
        let base = pair.base, new = pair.new
        if let ra = Bootstrap.rounds(of: base), let rb = Bootstrap.rounds(of: new) {
            let ci = Bootstrap.ratioOfMedians(base: ra, new: rb, paired: paired)
            pair.interval = ci
            pair.verdict = rule.verdict(ci)
        }
        if base.samplesMs.count >= minSamplesForTest && new.samplesMs.count >= minSamplesForTest {
            pair.pValue = MannWhitney(base.samplesMs, new.samplesMs).pValue
        }
    }

    /// A note when the two sides were measured on a busy host, or at
    /// different loads: rounds spread drift *within* a run, but a host
    /// that was busier during the whole of one run than of the other shifts
    /// every round of it alike, which no interval over rounds can see.
    /// Side-by-side runs (`ab`) share that state; separate runs do not.
    public static func loadWarning(_ c: Comparison) -> String? {
        // The loads only, not `pairs.map(\.base)`: an array of every row.
        func medianLoad(_ loads: [Double]) -> Double? { loads.isEmpty ? nil : Summary(loads).median }
        guard let a = medianLoad(c.pairs.compactMap(\.base.loadAverage)),
              let b = medianLoad(c.pairs.compactMap(\.new.loadAverage)) else { return nil }
        let cores = max(1, c.pairs.first?.base.hostCores ?? 1)
        let busy = max(a, b) > 0.5 * Double(cores)
        let uneven = abs(a - b) > 0.25 * Double(cores)
        guard busy || uneven else { return nil }
        return "load: median load average \(Human.number(a)) (base) and \(Human.number(b)) (new) on \(cores) cores: "
            + (uneven ? "the host was busier during one run, which shifts all its rounds alike; " : "a busy host; ")
            + (c.sideBySide ? "both sides ran side by side, so it slowed both alike, but it widens the intervals"
                            : "verdicts between separate runs are only as good as the host was steady: prefer `ab` (side by side)")
    }
}
