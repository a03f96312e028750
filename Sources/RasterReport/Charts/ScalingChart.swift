import Foundation
import RasterHarness
import RasterKit

/// Thread scaling: for each kernel and scene (exact variant, full scale) and
/// each threaded backend, the median at 1 thread over the median at N
/// threads, one bar per N > 1. Ideal scaling is N; dotted lines mark it.
enum ScalingChart {
    static func make(data: ProfileData) -> Figure? {
        let groups = SpeedupBars.groups(data) { target, _, s, mine in
            var bars: [SpeedupBar] = []
            // Each backend's 1-thread median, then every row against its backend's.
            var one: [BackendKind: Double] = [:]
            for r in mine where r.threads == 1 && one[r.backend] == nil { one[r.backend] = r.medianMs }
            for r in mine where r.backend != .naive && r.threads > 1 {
                guard let base = one[r.backend], let median = r.medianMs else { continue }
                let sp = base / median
                bars.append(SpeedupBar(backend: r.backend, threads: r.threads, source: s, speedup: sp,
                                       tip: "\(target) \(r.backend): t=1 \(ms(base)), t=\(r.threads) \(ms(median)) → \(NumberFormat.decimal(sp, significant: 3))x"))
            }
            return bars
        }
        guard !groups.isEmpty else { return nil }
        let barH = 8.0
        var area = PlotArea(width: 1160, height: 0)
        area.left = 190
        let heights = groups.map { Double($0.1.count) * barH + 10 }
        area.height = area.top + heights.reduce(0, +) + area.bottom
        let maxThreads = groups.flatMap { $0.1.map(\.threads) }.max() ?? 2
        let x = area.xScale([0, Double(maxThreads) + 0.25] + groups.flatMap { $0.1.map(\.speedup) }, log: false, includeZero: true)
        var nodes = area.axes(x: x, y: nil, xTitle: "speed-up over the same backend on 1 thread (ideal = thread count)", yTitle: "")
        for t in unique(groups.flatMap { $0.1.map(\.threads) }) {
            nodes.append(SVG.line(x.map(Double(t)), area.y1, x.map(Double(t)), area.y0, cls: "ideal"))
            nodes.append(SVG.text("ideal t=\(t)", x.map(Double(t)) + 3, area.y0 - 4, cls: "note"))
        }
        nodes.append(SVG.line(x.map(1), area.y1, x.map(1), area.y0, cls: "baseline"))
        var y = area.y1 + 5
        for (g, (name, bars)) in groups.enumerated() {
            nodes.append(SVG.text(name, area.x0 - 8, y + heights[g] / 2 - 1, anchor: .end, cls: "rowlbl"))
            for (i, b) in bars.enumerated() {
                let by = y + Double(i) * barH
                nodes.append(SVG.rect(x.map(0), by, x.map(b.speedup) - x.map(0), barH - 1.5,
                                      fill: Palette.colour(b.backend, source: b.source), tip: b.tip))
                nodes.append(SVG.text("\(NumberFormat.decimal(b.speedup, significant: 3))× t=\(b.threads)", x.map(b.speedup) + 3, by + barH - 1.5, cls: "val"))
            }
            y += heights[g]
            nodes.append(SVG.line(area.x0 - 180, y - 5, area.x1, y - 5, cls: "sep"))
        }
        let legend = SeriesKey.legend(groups.flatMap { $0.1.map { $0.series(threads: false) } }, data: data)
        return Figure(id: slug("scaling", data.profile), title: "Thread scaling",
                      caption: "Median on 1 thread ÷ median on N threads, same backend and report. The times were taken on this host; a profile's core count is a thread count here, not a promise of the device's speed.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "thread scaling", nodes), legend: legend, wide: true)
    }
}
