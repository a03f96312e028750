/// Two reports, or two backends of one report, row against row: the ratio
/// of medians with a bootstrap confidence interval and a verdict that knows
/// what it cannot tell (SPEC section 7, "Verdicts").
///
/// The unit of replication is the round (`run --rounds K`; a report
/// without rounds is one round): `Bootstrap` resamples rounds, then samples
/// within them, and `VerdictRule` calls a row `faster`/`slower` only when
/// the whole interval lies beyond the noise threshold, `~` when it lies
/// wholly inside, `?` otherwise or when a side has too few rounds.
///
/// The Mann-Whitney U test on the pooled samples is still computed and
/// shown (column `p(U)`), for reference only: it treats every sample of one
/// process as independent, and so calls run-to-run drift significant.
public struct Comparison: Sendable {
    public enum Verdict: String, Sendable, CaseIterable {
        case faster, slower, same = "~", unknown = "?"
    }

    public struct Pair: Sendable {
        public var key: RowKey
        public var base: ReportRow
        public var new: ReportRow
        /// new median / base median (below 1: new is faster).
        public var ratio: Double
        /// The bootstrap interval of the ratio; nil without raw samples.
        public var interval: RatioInterval?
        /// Mann-Whitney U on the pooled samples (secondary, see above).
        public var pValue: Double?
        public var verdict: Verdict

        public var deltaPercent: Double { (ratio - 1) * 100 }
    }

    public var baseName: String
    public var newName: String
    public var rule = VerdictRule()
    public var pairs: [Pair] = []
    public var onlyInBase: [RowKey] = []
    public var onlyInNew: [RowKey] = []
    /// Matched rows that could not be compared (unsupported, error), with why.
    public var skipped: [(RowKey, String)] = []
    /// Keys that appeared more than once in one report (the first was used).
    public var duplicates: [RowKey] = []

    /// Geometric mean of the ratios of every compared pair.
    public var geomean: Double? { geometricMean(pairs.map(\.ratio)) }

    /// `slower` pairs whose whole interval lies beyond +`percent`%.
    public func regressions(above percent: Double) -> [Pair] {
        pairs.filter { VerdictRule.isRegression($0.interval, verdict: $0.verdict, above: percent) }
    }

    public func count(_ v: Verdict) -> Int { pairs.filter { $0.verdict == v }.count }
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
        let (a, dupA) = index(base, by: \.key)
        let (b, dupB) = index(new, by: \.key)
        c.duplicates = dupA + dupB
        for key in a.keys.sorted() {
            guard let nb = b[key] else { c.onlyInBase.append(key); continue }
            add(&c, key: key, base: a[key]!, new: nb, paired: paired)
        }
        c.onlyInNew = b.keys.filter { a[$0] == nil }.sorted()
        c.pairs.sort { $0.key < $1.key }
        return c
    }

    /// Inside one report: every row of another backend against the
    /// `baseline` backend's row for the same kernel, variant, size and
    /// parameters (same thread count if the baseline has it, else its only
    /// one). Rounds are paired: both rows were measured in the same rounds.
    public static func backends(_ rows: [ReportRow], baseline: String, name: String,
                                rule: VerdictRule = VerdictRule()) -> Comparison {
        var c = Comparison(baseName: "\(name) [\(baseline)]", newName: "\(name) [other backends]")
        c.rule = rule
        let baseRows = rows.filter { $0.backend == baseline }
        let (byKey, dups) = index(baseRows, by: \.key)
        c.duplicates = dups
        var byShape: [RowKey: [ReportRow]] = [:]
        for r in baseRows { byShape[r.key.withoutBackend, default: []].append(r) }
        var used = Set<RowKey>()
        for r in rows where r.backend != baseline {
            var sameThreads = r.key; sameThreads.backend = baseline
            let candidates = byShape[r.key.withoutBackend] ?? []
            guard let base = byKey[sameThreads] ?? (candidates.count == 1 ? candidates[0] : nil) else {
                c.onlyInNew.append(r.key); continue
            }
            used.insert(base.key)
            add(&c, key: r.key, base: base, new: r, paired: true)
        }
        c.onlyInBase = baseRows.map(\.key).filter { !used.contains($0) }.sorted()
        c.pairs.sort { $0.key < $1.key }
        return c
    }

    static func index(_ rows: [ReportRow], by key: (ReportRow) -> RowKey) -> ([RowKey: ReportRow], [RowKey]) {
        var out: [RowKey: ReportRow] = [:]
        var dups: [RowKey] = []
        for r in rows {
            let k = key(r)
            if out[k] == nil { out[k] = r } else { dups.append(k) }
        }
        return (out, dups)
    }

    static func add(_ c: inout Comparison, key: RowKey, base: ReportRow, new: ReportRow, paired: Bool) {
        guard base.isOK, new.isOK, let ma = base.medianMs, let mb = new.medianMs, ma > 0 else {
            let why = !base.isOK ? "\(c.baseName): \(base.status.rawValue)" : !new.isOK ? "\(c.newName): \(new.status.rawValue)" : "no median"
            c.skipped.append((key, why)); return
        }
        var interval: RatioInterval? = nil
        var verdict = Comparison.Verdict.unknown
        if let ra = Bootstrap.rounds(of: base), let rb = Bootstrap.rounds(of: new) {
            // Same seed for every row: the interval is a function of the data alone.
            let ci = Bootstrap.ratioOfMedians(base: ra, new: rb, paired: paired)
            interval = ci
            verdict = c.rule.verdict(ci)
        }
        var p: Double? = nil
        if base.samplesMs.count >= minSamplesForTest && new.samplesMs.count >= minSamplesForTest {
            p = MannWhitney(base.samplesMs, new.samplesMs).pValue
        }
        c.pairs.append(.init(key: key, base: base, new: new, ratio: mb / ma, interval: interval, pValue: p, verdict: verdict))
    }

    /// A note when the two sides were measured on a busy host, or at
    /// different loads: rounds spread drift *within* a run, but a host
    /// that was busier during the whole of one run than of the other shifts
    /// every round of it alike, which no interval over rounds can see.
    /// Side-by-side runs (`ab`) share that state; separate runs do not.
    public static func loadWarning(_ c: Comparison) -> String? {
        func medianLoad(_ rows: [ReportRow]) -> Double? {
            let l = rows.compactMap(\.loadAverage)
            return l.isEmpty ? nil : Summary(l).median
        }
        guard let a = medianLoad(c.pairs.map(\.base)), let b = medianLoad(c.pairs.map(\.new)) else { return nil }
        let cores = max(1, c.pairs.first?.base.hostCores ?? 1)
        let busy = max(a, b) > 0.5 * Double(cores)
        let uneven = abs(a - b) > 0.25 * Double(cores)
        guard busy || uneven else { return nil }
        return "load: median load average \(Human.number(a)) (base) and \(Human.number(b)) (new) on \(cores) cores: "
            + (uneven ? "the host was busier during one run, which shifts all its rounds alike; " : "a busy host; ")
            + "verdicts between separate runs are only as good as the host was steady: prefer `ab` (side by side)"
    }

    /// benchstat-like text: one line per pair with its interval, then the
    /// geometric mean, the count of each verdict, and whatever did not match.
    public static func render(_ c: Comparison, speedups: Bool = false) -> String {
        let level = Human.number(Bootstrap.defaultConfidence * 100)
        var t = TextTable(["row", "base", "new", "rounds", speedups ? "speed-up" : "new/base",
                           "\(level)% interval", "p(U)", "verdict"])
        for p in c.pairs {
            let ma = p.base.medianMs!, mb = p.new.medianMs!
            let pText = p.pValue.map { String(format: "%.3f", $0) } ?? "n/a"
            let ratioText = speedups ? Human.number(1 / p.ratio) + "x" : Human.signedPercent(p.ratio - 1)
            var ci = "no samples"
            if let i = p.interval {
                ci = speedups ? "\(Human.number(1 / i.upper))x .. \(Human.number(1 / i.lower))x"
                              : "\(Human.signedPercent(i.lower - 1)) .. \(Human.signedPercent(i.upper - 1))"
            }
            let rounds = p.interval.map { "\($0.baseRounds)/\($0.newRounds)\($0.paired ? "p" : "")" } ?? "-"
            t.add([p.key.description, Human.time(ms: ma), Human.time(ms: mb), rounds, ratioText, ci, pText, p.verdict.rawValue])
        }
        var out = ["base: \(c.baseName)", "new:  \(c.newName)", "", t.render()]
        if let g = c.geomean {
            out.append("")
            out.append(speedups
                ? "geomean speed-up over \(c.pairs.count) rows: \(Human.number(1 / g))x"
                : "geomean new/base over \(c.pairs.count) rows: \(Human.number(g, 4)) (\(Human.signedPercent(g - 1)))")
        } else {
            out.append("\nno rows could be compared")
        }
        let threshold = Human.number(c.rule.threshold * 100)
        out.append("verdicts: \(c.count(.slower)) slower, \(c.count(.faster)) faster, \(c.count(.same)) ~ (within ±\(threshold)%), "
                   + "\(c.count(.unknown)) ? (inconclusive: run more rounds) of \(c.pairs.count) rows")
        out.append("  faster/slower: the whole \(level)% interval (bootstrap over rounds, then samples) lies beyond ±\(threshold)%; "
                   + "~: wholly within; rounds a/b (p = paired by round)")
        let few = c.pairs.filter { p in p.interval.map { min($0.baseRounds, $0.newRounds) < c.rule.minRounds } ?? true }
        if !few.isEmpty {
            out.append("  \(few.count) row(s) have fewer than \(c.rule.minRounds) rounds a side (or no raw samples): a single run is "
                       + "one replicate and cannot tell run-to-run noise apart, so they are ?; measure with run --rounds 5 or ab")
        }
        if let warning = loadWarning(c) { out.append("  " + warning) }
        let uCount = c.pairs.filter { ($0.pValue ?? 1) < alpha }.count
        let uTested = c.pairs.filter { $0.pValue != nil }.count
        out.append("  p(U): Mann-Whitney U on pooled samples, for reference only (it counts every sample as independent): "
                   + "\(uCount) of \(uTested) rows p < \(alpha)")
        if !c.skipped.isEmpty {
            // One line per kernel/variant/backend and reason: sweeps repeat them.
            var order: [String] = []
            var counts: [String: Int] = [:]
            for (key, why) in c.skipped {
                let line = "\(key.kernel)/\(key.variant)/\(key.backend): \(why)"
                if counts[line] == nil { order.append(line) }
                counts[line, default: 0] += 1
            }
            out.append("\nnot compared (\(c.skipped.count) rows):")
            out += order.map { "  \($0)" + (counts[$0]! > 1 ? " (\(counts[$0]!) rows)" : "") }
        }
        if !c.onlyInBase.isEmpty {
            out.append("\nonly in base (\(c.onlyInBase.count)):")
            out += c.onlyInBase.map { "  \($0)" }
        }
        if !c.onlyInNew.isEmpty {
            out.append("\nonly in new (\(c.onlyInNew.count)):")
            out += c.onlyInNew.map { "  \($0)" }
        }
        if !c.duplicates.isEmpty {
            out.append("\nduplicate rows, first one used (\(c.duplicates.count)):")
            out += c.duplicates.map { "  \($0)" }
        }
        return out.joined(separator: "\n")
    }
}

import Foundation
