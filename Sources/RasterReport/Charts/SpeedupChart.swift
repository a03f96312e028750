import Foundation
import RasterHarness
import RasterKit

/// Speed-up over `naive` (naive median / backend median, same report, same
/// workload) per kernel and scene, exact variant at full scale, one bar per
/// backend and thread count (and report). Log axis: 1x is the baseline line.
enum SpeedupChart {
    static func make(data: ProfileData) -> Figure? {
        let groups = SpeedupBars.groups(data) { target, w, s, mine in
            guard let naive = mine.first(where: { $0.backend == .naive })?.medianMs else { return [] }
            return mine.compactMap { r in
                guard r.backend != .naive, let median = r.medianMs else { return nil }
                let sp = naive / median
                return SpeedupBar(backend: r.backend, threads: r.threads, source: s, speedup: sp,
                                  tip: "\(target) \(w) \(r.backend) t=\(r.threads): \(NumberFormat.decimal(sp, significant: 3))x (naive \(ms(naive)), \(r.backend) \(ms(median)))")
            }
        }
        guard !groups.isEmpty else { return nil }
        let barH = 8.0
        var area = PlotArea(width: 1160, height: 0)
        area.left = 190
        let heights = groups.map { Double($0.1.count) * barH + 10 }
        area.height = area.top + heights.reduce(0, +) + area.bottom
        let x = area.xScale(groups.flatMap { $0.1.map(\.speedup) } + [1], log: true)
        var nodes = area.axes(x: x, y: nil, xTitle: "speed-up over naive (log scale), exact variant, full scale", yTitle: "")
        var y = area.y1 + 5
        for (g, (name, bars)) in groups.enumerated() {
            nodes.append(SVG.text(name, area.x0 - 8, y + heights[g] / 2 - 1, anchor: .end, cls: "rowlbl"))
            for (i, b) in bars.enumerated() {
                let by = y + Double(i) * barH
                let x1 = x.map(1)
                let xs = x.map(b.speedup)
                nodes.append(SVG.rect(min(x1, xs), by, abs(xs - x1), barH - 1.5, fill: Palette.colour(b.backend, source: b.source, threads: b.threads), tip: b.tip))
                nodes.append(SVG.text("\(NumberFormat.decimal(b.speedup, significant: 2))×", max(x1, xs) + 3, by + barH - 1.5, cls: "val"))
            }
            y += heights[g]
            nodes.append(SVG.line(area.x0 - 180, y - 5, area.x1, y - 5, cls: "sep"))
        }
        nodes.append(SVG.line(x.map(1), area.y1, x.map(1), area.y0, cls: "baseline"))
        let legend = unique(groups.flatMap { $0.1.map { $0.series(threads: true) } }).map { k in
            (data.name(k.backend, threads: k.threads, source: k.source), Palette.colour(k.backend, source: k.source, threads: k.threads ?? 1))
        }
        return Figure(id: slug("speedup", data.profile), title: "Speed-up over naive",
                      caption: "naive median ÷ backend median, same report and workload; bars left of 1× are slower than the scalar baseline.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "speed-up over naive", nodes), legend: legend, wide: true)
    }
}
