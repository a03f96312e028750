import Foundation
import RasterKit

/// The governor-versus-reference table and the buffering table, as text.
public enum GovernorReport {
    public static let buffers = [0, 2, 10]

    public struct Row: Sendable {
        public var trace: FrameTrace
        public var governor: SimulationResult
        public var reference: SimulationResult
        /// Missed refreshes with the level fixed at the start level (no
        /// adaptation), for each of `buffers`.
        public var fixedMissed: [Int]
        /// Missed refreshes on the governor's frame times, for each of `buffers`.
        public var governedMissed: [Int]
    }

    public static func evaluate(traces: [FrameTrace], front: [GovernorLevel], budgetMs: Double) throws -> [Row] {
        try traces.map { trace in
            let (g, r) = try GovernorSimulator.compare(trace: trace, front: front, budgetMs: budgetMs)
            let start = g.levels.first ?? 0
            let fixed = trace.times(level: start)
            return Row(trace: trace, governor: g, reference: r,
                       fixedMissed: try buffers.map { try BufferSimulator.simulate(frameMs: fixed, periodMs: budgetMs, buffer: $0).missed },
                       governedMissed: try buffers.map { try BufferSimulator.simulate(frameMs: g.times, periodMs: budgetMs, buffer: $0).missed })
        }
    }

    static func pad(_ s: String, _ w: Int, left: Bool = false) -> String {
        let p = String(repeating: " ", count: max(0, w - s.count))
        return left ? s + p : p + s
    }

    static func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }

    static func nameWidth(_ rows: [Row]) -> Int { max(8, rows.map(\.trace.name.count).max() ?? 0) }

    public static func comparisonTable(_ rows: [Row]) -> String {
        let w = nameWidth(rows)
        var out = [
            [pad("trace", w, left: true), pad("frames", 6), pad("gov over", 9), pad("ref over", 9),
             pad("gov PSNR", 9), pad("ref PSNR", 9), pad("gov sw", 7), pad("ref sw", 7), "  verdict"].joined(separator: " "),
        ]
        for row in rows {
            let g = row.governor, r = row.reference
            let fewer = g.overBudget < r.overBudget, same = g.overBudget == r.overBudget
            let quality = g.meanQuality >= r.meanQuality - 1e-9
            let verdict = (fewer || same) && quality ? (fewer ? "governor better" : "tie on misses, quality >=")
                : !quality && (fewer || same) ? "trade-off: fewer misses, lower quality"
                : quality ? "trade-off: more misses, higher quality" : "reference better"
            out.append([pad(row.trace.name, w, left: true), pad("\(g.frames)", 6), pad("\(g.overBudget)", 9),
                        pad("\(r.overBudget)", 9), pad(f(g.meanQuality), 9), pad(f(r.meanQuality), 9),
                        pad("\(g.switches)", 7), pad("\(r.switches)", 7), "  " + verdict].joined(separator: " "))
        }
        return out.joined(separator: "\n")
    }

    public static func bufferTable(_ rows: [Row], fps: Double) -> String {
        let period = 1000 / fps
        let w = nameWidth(rows)
        var header = [pad("trace", w, left: true)]
        for b in buffers { header.append(pad("fixed B=\(b)", 11)) }
        for b in buffers { header.append(pad("gov B=\(b)", 10)) }
        var out = [header.joined(separator: " ")]
        for row in rows {
            var cells = [pad(row.trace.name, w, left: true)]
            cells += row.fixedMissed.map { pad("\($0)", 11) }
            cells += row.governedMissed.map { pad("\($0)", 10) }
            out.append(cells.joined(separator: " "))
        }
        out.append("latency: " + buffers.map { "B=\($0): +\($0) frames (+\(f(Double($0) * period, 1)) ms at \(f(fps, 0)) fps)" }
            .joined(separator: ", "))
        return out.joined(separator: "\n")
    }
}
