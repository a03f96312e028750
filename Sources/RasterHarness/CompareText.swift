import Foundation

/// How `compare` and `ab` print a comparison: plain text or a Markdown
/// table (for a CI comment), rows by name or by size of change, all rows
/// or only those that moved.
public struct CompareView: Sendable {
    public enum Format: String, CaseIterable, Sendable { case text, markdown }
    public enum Sort: String, CaseIterable, Sendable { case name, change }

    public var format: Format
    public var sort: Sort
    /// Only rows called faster or slower in the table (the counts still cover every row).
    public var changedOnly: Bool

    public init(format: Format = .text, sort: Sort = .name, changedOnly: Bool = false) {
        self.format = format; self.sort = sort; self.changedOnly = changedOnly
    }
}

extension Compare {
    /// benchstat-like text: one line per pair with its interval and, for a
    /// `?`, the change the data could resolve and the rounds that would
    /// resolve the threshold; then the geometric mean, the count of each
    /// verdict, rows whose rounds ran at two speeds, and whatever did not match.
    public static func render(_ c: Comparison, speedups: Bool = false, view: CompareView = CompareView()) -> String {
        let level = Human.number(Bootstrap.defaultConfidence * 100)
        let threshold = Human.number(c.rule.threshold * 100)
        let header = ["row", "base", "new", "rounds", speedups ? "speed-up" : "new/base", "\(level)% interval", "verdict",
                      "resolves", "rounds for ±\(threshold)%"]
        var shown = view.changedOnly ? c.pairs.filter { $0.verdict == .faster || $0.verdict == .slower } : c.pairs
        if view.sort == .change {
            // Largest change either way first; a slowdown and a speed-up of one factor rank alike.
            shown = shown.enumerated().sorted { a, b in
                let x = abs(log(a.element.ratio)), y = abs(log(b.element.ratio))
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
        }
        var cells: [[String]] = []
        for p in shown {
            let ma = p.base.medianMs!, mb = p.new.medianMs!
            let ratioText = speedups ? Human.number(1 / p.ratio) + "x" : Human.signedPercent(p.ratio - 1)
            var ci = "no samples"
            var resolves = "", needed = ""
            if let i = p.interval {
                ci = speedups ? "\(Human.number(1 / i.upper))x .. \(Human.number(1 / i.lower))x"
                              : "\(Human.signedPercent(i.lower - 1)) .. \(Human.signedPercent(i.upper - 1))"
                if p.verdict == .unknown, i.halfWidth.isFinite {
                    resolves = "±" + Human.percent(i.halfWidth)
                    if let n = i.roundsNeeded(for: c.rule.threshold, minRounds: c.rule.minRounds) {
                        needed = (n.atLeast ? ">=" : "") + "\(n.rounds)"
                    }
                }
            }
            let rounds = p.interval.map { "\($0.baseRounds)/\($0.newRounds)\($0.paired ? "p" : "")" } ?? "-"
            cells.append([p.key.description, Human.time(ms: ma), Human.time(ms: mb), rounds, ratioText, ci, p.verdict.rawValue,
                          resolves, needed])
        }
        let markdown = view.format == .markdown
        // Names, keys and reasons are report text: each is made terminal-safe (the table's cells are by the table).
        let safe = markdown ? { MarkdownTable.escaped(TerminalText.safe($0)) } : TerminalText.safe
        var out: [String] = []
        if markdown {
            out += ["**base**: \(safe(c.baseName))  ", "**new**: \(safe(c.newName))", "", MarkdownTable.render(header, cells), ""]
        } else {
            var t = TextTable(header)
            cells.forEach { t.add($0) }
            out += ["base: \(safe(c.baseName))", "new:  \(safe(c.newName))", "", t.render(), ""]
        }
        // Headline lines, then the details that explain them.
        var head: [String] = []
        if shown.count != c.pairs.count {
            head.append("table: \(shown.count) of \(c.pairs.count) rows (faster or slower only)")
        }
        if let g = c.geomean {
            head.append(speedups
                ? "geomean speed-up over \(c.pairs.count) rows: \(Human.number(1 / g))x"
                : "geomean new/base over \(c.pairs.count) rows: \(Human.number(g, 4)) (\(Human.signedPercent(g - 1)))")
        } else {
            head.append("no rows could be compared")
        }
        head.append("verdicts: \(c.count(.slower)) slower, \(c.count(.faster)) faster, \(c.count(.same)) ~ (within ±\(threshold)%), "
                    + "\(c.count(.unknown)) ? (inconclusive) of \(c.pairs.count) rows")
        var details = ["faster/slower: the whole \(level)% interval (bootstrap over rounds, then samples) lies beyond ±\(threshold)%; "
                       + "~: wholly within; rounds a/b (p = paired by round); resolves: half the interval's width, "
                       + "the smallest change these data can tell from noise"]
        details += resolutionNotes(c, threshold: threshold)
        if let warning = loadWarning(c) { details.append(warning) }
        let bimodal = bimodalRows(c)
        if !bimodal.isEmpty {
            details.append("bimodal rounds in \(bimodal.count) row(s): some rounds ran at another speed than the rest "
                           + "(another process held a core, or the clock changed), which widens their interval:")
        }
        if markdown {
            out += (head + details).map { "- " + safe($0) }
            out += bimodal.map { "  - " + safe($0) }
        } else {
            out += head.map(safe) + details.map { "  " + safe($0) } + bimodal.map { "    " + safe($0) }
        }
        out += unmatched(c, safe: safe, markdown: markdown)
        return out.joined(separator: "\n")
    }

    /// What the `?` rows could resolve and what would resolve the threshold.
    static func resolutionNotes(_ c: Comparison, threshold: String) -> [String] {
        var notes: [String] = []
        let unknown = c.pairs.filter { $0.verdict == .unknown }
        let widths = unknown.compactMap { $0.interval?.halfWidth }.filter(\.isFinite).sorted()
        let needs = unknown.compactMap { $0.interval?.roundsNeeded(for: c.rule.threshold, minRounds: c.rule.minRounds) }
        if !widths.isEmpty, !needs.isEmpty {
            let median = Summary.percentile(sorted: widths, 0.5)
            let rounds = Int(Summary.percentile(sorted: needs.map { Double($0.rounds) }.sorted(), 0.5).rounded(.up))
            notes.append("?: the data resolve changes of ±\(Human.percent(median)) (median of \(widths.count) rows; "
                         + "from ±\(Human.percent(widths[0])) to ±\(Human.percent(widths[widths.count - 1]))). "
                         + "To resolve ±\(threshold)% on half of them: about \(rounds) rounds a side, e.g. "
                         + (c.sideBySide ? "ab --rounds \(rounds)" : "rasterbench run --rounds \(rounds) (or ab --rounds \(rounds))"))
        }
        let few = c.pairs.filter { p in p.interval.map { min($0.baseRounds, $0.newRounds) < c.rule.minRounds } ?? true }
        if !few.isEmpty {
            notes.append("\(few.count) row(s) have fewer than \(c.rule.minRounds) rounds a side (or no raw samples): a single run is "
                         + "one replicate and cannot tell run-to-run noise apart, so they are ?, and their resolution (>=) is a floor; "
                         + (c.sideBySide ? "give ab --rounds \(max(5, c.rule.minRounds)) or more"
                                         : "measure with run --rounds \(max(5, c.rule.minRounds)) or ab"))
        }
        return notes
    }

    /// "fill/exact/simd t=2 ...: new round 3 at 1.9x the others' time", one per row with bimodal rounds.
    static func bimodalRows(_ c: Comparison) -> [String] {
        c.pairs.compactMap { p in
            let sides = [("base", BimodalRounds.find(p.base)), ("new", BimodalRounds.find(p.new))]
                .compactMap { name, b in b.map { "\(name) \($0.text)" } }
            return sides.isEmpty ? nil : "\(p.key.description): " + sides.joined(separator: "; ")
        }
    }

    /// Skipped rows, rows in one report only, duplicates.
    static func unmatched(_ c: Comparison, safe: (String) -> String, markdown: Bool) -> [String] {
        let item = markdown ? "- " : "  "
        var out: [String] = []
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
            out += order.map { line in item + safe(line) + ((counts[line] ?? 0) > 1 ? " (\(counts[line] ?? 0) rows)" : "") }
        }
        for (title, keys) in [("only in base", c.onlyInBase), ("only in new", c.onlyInNew),
                              ("duplicate rows, first one used", c.duplicates)] where !keys.isEmpty {
            out.append("\n\(title) (\(keys.count)):")
            out += keys.map { item + safe($0.description) }
        }
        return out
    }
}

/// A GitHub-flavoured Markdown table: a header row, a delimiter row and
/// one row per record, cells with their pipes escaped.
public enum MarkdownTable {
    public static func render(_ header: [String], _ rows: [[String]]) -> String {
        func line(_ cells: [String]) -> String { "| " + cells.map { escaped(TerminalText.safe($0)) }.joined(separator: " | ") + " |" }
        return ([line(header), "|" + String(repeating: " --- |", count: header.count)] + rows.map(line)).joined(separator: "\n")
    }

    /// A cell's text with `|` escaped and line breaks as spaces.
    public static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
