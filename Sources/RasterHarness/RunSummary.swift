import RasterKit

/// The few lines that end a run on the terminal, after a table too wide to
/// read: per scene, the option `choose` would pick at the run's budget,
/// the fastest exact frame and its speed-up over the naive backend.
public enum RunSummary {
    public static func scenes(_ rows: [ReportRow], budgetMs: Double, leftOut: [Workload] = []) -> [String] {
        let sceneNames = Set(SceneCatalog.names)
        // The K7 kernel is called mesh too; its fronts carry a parameter (grid=3x3), a scene's none.
        let fronts = QualityFront.fronts(from: rows).filter { sceneNames.contains($0.target) && $0.param.isEmpty }
        guard !fronts.isEmpty else { return [] }
        let width = fronts.map(\.name.count).max() ?? 0
        var lines = ["Summary (\(Human.time(ms: budgetMs)) budget less \(Human.percent(Chooser.defaultHeadroom)) headroom; "
                     + "choose --from the report says more):"]
        for front in fronts {
            let choice = Chooser.choose(front, budgetMs: budgetMs)
            var line = "  " + front.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
            if let c = choice.chosen {
                line += "fits: \(c.label), p95 \(Human.time(ms: c.p95Ms))" + (c.psnrDb.map { ", \(psnr($0))" } ?? "")
            } else if let f = choice.fastest {
                line += "nothing fits: fastest \(f.label) misses by \(Human.time(ms: f.p95Ms - choice.limitMs))"
            }
            // The exact frame at full scale: the best backend, and what it gains over naive.
            let exact = front.options.filter { $0.variant == "exact" && $0.scale == 1 }
            if let best = exact.min(by: { $0.medianMs < $1.medianMs }) {
                line += "; exact fastest on \(best.backend) t=\(best.threads) (\(Human.time(ms: best.medianMs)))"
                if best.backend == .naive {
                    line += ", naive itself"
                } else if let naive = exact.first(where: { $0.backend == .naive }), best.medianMs > 0 {
                    line += ", \(Human.number(naive.medianMs / best.medianMs))x naive"
                } else if leftOut.contains(where: { $0.kernel == front.target && $0.variant == "exact" && $0.paramText.isEmpty }) {
                    line += ", naive left out by --quick"
                }
            }
            lines.append(line)
        }
        return lines
    }

    static func psnr(_ db: Double) -> String { db.isInfinite ? "identical to the reference" : "\(Human.number(db)) dB" }
}

extension RunProgress {
    /// Seconds left at the pace so far (the rows done took `elapsed`);
    /// nil before the first row is done.
    public func remainingSeconds() -> Double? {
        let done = index - 1
        guard done > 0, total >= index, elapsed > 0 else { return nil }
        return elapsed / Double(done) * Double(total - done)
    }
}
