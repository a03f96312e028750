/// Two reports, or two backends of one report, row against row: ratios of
/// medians and a verdict that accounts for noise, as benchstat gives them.
///
/// A difference counts only when it is unlikely to be noise:
/// - both rows carry raw samples (>= `minSamplesForTest` each): the
///   Mann-Whitney U test, significant when p < `alpha`;
/// - otherwise: the medians differ by more than the two MADs added.
/// Not significant prints `~`, whatever the ratio. The geometric mean of all
/// matched ratios summarises the whole comparison.
public struct Comparison: Sendable {
    public enum Verdict: String, Sendable { case faster, slower, same = "~" }

    public struct Pair: Sendable {
        public var key: RowKey
        public var base: ReportRow
        public var new: ReportRow
        /// new median / base median (below 1: new is faster).
        public var ratio: Double
        public var pValue: Double?
        /// "U" (Mann-Whitney), "MAD", or "none" when nothing can judge noise.
        public var method: String
        public var verdict: Verdict

        public var deltaPercent: Double { (ratio - 1) * 100 }
    }

    public var baseName: String
    public var newName: String
    public var pairs: [Pair] = []
    public var onlyInBase: [RowKey] = []
    public var onlyInNew: [RowKey] = []
    /// Matched rows that could not be compared (unsupported, error), with why.
    public var skipped: [(RowKey, String)] = []
    /// Keys that appeared more than once in one report (the first was used).
    public var duplicates: [RowKey] = []

    /// Geometric mean of the ratios of every compared pair.
    public var geomean: Double? { geometricMean(pairs.map(\.ratio)) }

    /// Pairs significantly slower by more than `percent`.
    public func regressions(above percent: Double) -> [Pair] {
        pairs.filter { $0.verdict == .slower && $0.deltaPercent > percent }
    }
}

public enum Compare {
    /// Significance level, benchstat's default.
    public static let alpha = 0.05
    /// Below 4 samples a side, the exact U test cannot reach p < 0.05 (with
    /// 3 and 3 its smallest p is 0.1), so the MAD rule judges instead.
    public static let minSamplesForTest = 4

    /// Rows of `new` against the rows of `base` with the same key.
    public static func reports(base: [ReportRow], new: [ReportRow], baseName: String, newName: String) -> Comparison {
        var c = Comparison(baseName: baseName, newName: newName)
        let (a, dupA) = index(base, by: \.key)
        let (b, dupB) = index(new, by: \.key)
        c.duplicates = dupA + dupB
        for key in a.keys.sorted() {
            guard let nb = b[key] else { c.onlyInBase.append(key); continue }
            add(&c, key: key, base: a[key]!, new: nb)
        }
        c.onlyInNew = b.keys.filter { a[$0] == nil }.sorted()
        c.pairs.sort { $0.key < $1.key }
        return c
    }

    /// Inside one report: every row of another backend against the
    /// `baseline` backend's row for the same kernel, variant, size and
    /// parameters (same thread count if the baseline has it, else its only one).
    public static func backends(_ rows: [ReportRow], baseline: String, name: String) -> Comparison {
        var c = Comparison(baseName: "\(name) [\(baseline)]", newName: "\(name) [other backends]")
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
            add(&c, key: r.key, base: base, new: r)
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

    static func add(_ c: inout Comparison, key: RowKey, base: ReportRow, new: ReportRow) {
        guard base.isOK, new.isOK, let ma = base.medianMs, let mb = new.medianMs, ma > 0 else {
            let why = !base.isOK ? "\(c.baseName): \(base.status)" : !new.isOK ? "\(c.newName): \(new.status)" : "no median"
            c.skipped.append((key, why)); return
        }
        let (verdictSignificant, p, method) = significance(base, new)
        let ratio = mb / ma
        let verdict: Comparison.Verdict = !verdictSignificant ? .same : (ratio < 1 ? .faster : .slower)
        c.pairs.append(.init(key: key, base: base, new: new, ratio: ratio, pValue: p, method: method, verdict: verdict))
    }

    /// Whether two rows differ by more than their noise, the p-value if a
    /// test was run, and which rule decided.
    public static func significance(_ a: ReportRow, _ b: ReportRow) -> (Bool, Double?, String) {
        if a.samplesMs.count >= minSamplesForTest && b.samplesMs.count >= minSamplesForTest {
            let u = MannWhitney(a.samplesMs, b.samplesMs)
            return (u.pValue < alpha, u.pValue, "U")
        }
        guard let ma = a.medianMs, let mb = b.medianMs, let da = a.madMs, let db = b.madMs else {
            return (false, nil, "none")
        }
        return (abs(mb - ma) > da + db, nil, "MAD")
    }

    /// benchstat-like text: one line per pair, then the geometric mean and
    /// whatever did not match.
    public static func render(_ c: Comparison, speedups: Bool = false) -> String {
        var t = TextTable(["row", "base", "±MAD", "new", "±MAD", speedups ? "speed-up" : "new/base", "delta", "p", "verdict"])
        for p in c.pairs {
            let ma = p.base.medianMs!, mb = p.new.medianMs!
            func mad(_ r: ReportRow, _ m: Double) -> String { r.madMs.map { Human.percent($0 / m) } ?? "?" }
            let pText = p.pValue.map { String(format: "%.3f", $0) } ?? (p.method == "MAD" ? "MAD" : "n/a")
            let ratioText = speedups ? Human.number(1 / p.ratio) + "x" : Human.number(p.ratio, 4)
            t.add([p.key.description, Human.time(ms: ma), mad(p.base, ma), Human.time(ms: mb), mad(p.new, mb),
                   ratioText, p.verdict == .same ? "~" : Human.signedPercent(p.ratio - 1), pText, p.verdict.rawValue])
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
        let significant = c.pairs.filter { $0.verdict != .same }
        out.append("\(significant.count) of \(c.pairs.count) differences are significant "
                   + "(Mann-Whitney U, p < \(alpha), or beyond the summed MADs when raw samples are missing); ~ = not significant")
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
