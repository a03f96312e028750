import Foundation
import RasterHarness
import RasterKit

/// Frame time of every option of one scene against the budget line: a bar to
/// the median and a whisker to the p95, one row per variant, scale, backend
/// and thread count, one bar per report. Log time axis, since a naive exact
/// frame and a simd quarter-scale frame differ by 1000x.
enum FrameTimeChart {
    /// `perSource`: the scene's rows, per report.
    static func make(scene: String, perSource: [[ReportRow]], data: ProfileData) -> Figure? {
        struct Bar { var source: Int; var row: ReportRow; var median: Double; var p95: Double }
        struct Line { var option: String; var backend: BackendKind; var threads: Int; var bars: [Bar] }
        struct LineKey: Hashable { var option: String; var backend: BackendKind; var threads: Int }
        var lines: [Line] = []
        var index: [LineKey: Int] = [:]
        for (s, rows) in perSource.enumerated() {
            for r in rows where r.usable && r.sweep == nil {
                guard let median = r.medianMs else { continue }
                let bar = Bar(source: s, row: r, median: median, p95: r.p95Ms ?? median)
                let key = LineKey(option: r.optionName, backend: r.backend, threads: r.threads)
                if let i = index[key] {
                    lines[i].bars.append(bar)
                } else {
                    index[key] = lines.count
                    lines.append(Line(option: key.option, backend: r.backend, threads: r.threads, bars: [bar]))
                }
            }
        }
        guard !lines.isEmpty else { return nil }
        lines.sort { (backendOrder($0.backend), $0.threads, $0.option) < (backendOrder($1.backend), $1.threads, $1.option) }
        // Only the reports that measured this scene get a bar slot in each row.
        let present = unique(lines.flatMap { $0.bars.map(\.source) }).sorted()
        var slot: [Int: Int] = [:]
        for (i, s) in present.enumerated() { slot[s] = i }
        let nSources = present.count
        let barH = 9.0, rowH = Double(nSources) * barH + 6
        var area = PlotArea(width: 1160, height: 0)
        area.left = 250; area.top = 22
        area.height = area.top + rowH * Double(lines.count) + area.bottom
        let budget = data.budgetMs
        let times = lines.flatMap { $0.bars.flatMap { [$0.median, $0.p95] } } + (budget.map { [$0] } ?? [])
        // Half the fastest time as the axis start, so even the fastest bar has length (bars on a log axis start anywhere).
        let x = area.xScale(times + [(times.min() ?? 1) / 2], log: true)
        var nodes = area.axes(x: x, y: nil, xTitle: "frame time, ms (log scale): bar = median, whisker = p95", yTitle: "")
        var y = area.y1 + 3
        var lastBackend: BackendKind? = nil
        for line in lines {
            if let last = lastBackend, line.backend != last {
                nodes.append(SVG.line(area.x0 - 240, y - 3, area.x1, y - 3, cls: "sep"))
            }
            lastBackend = line.backend
            nodes.append(SVG.text("\(line.option)  \(line.backend.rawValue) t=\(line.threads)", area.x0 - 8, y + rowH / 2 + 1, anchor: .end, cls: "rowlbl"))
            for bar in line.bars {
                let s = bar.source, r = bar.row
                let by = y + Double(slot[s] ?? 0) * barH
                let med = bar.median, p95 = bar.p95
                let fits = budget.map { p95 <= $0 } ?? true
                var tip = "\(line.option) \(line.backend) t=\(line.threads): median \(ms(med)), p95 \(ms(p95))"
                if let q = r.psnrDb { tip += ", PSNR \(NumberFormat.decimal(q, significant: 3)) dB" }
                if data.multi { tip += " — \(data.labels[s])" }
                nodes.append(SVG.rect(area.x0, by, x.map(med) - area.x0, barH - 1.5,
                                      fill: Palette.colour(line.backend, source: s), cls: fits ? "bar" : "bar over", tip: tip))
                nodes.append(SVG.line(x.map(med), by + (barH - 1.5) / 2, x.map(p95), by + (barH - 1.5) / 2, cls: "whisker"))
                nodes.append(SVG.line(x.map(p95), by + 1, x.map(p95), by + barH - 2.5, cls: "whisker"))
            }
            y += rowH
        }
        if let budget {
            let bx = x.map(budget)
            nodes.append(SVG.line(bx, area.y1 - 6, bx, area.y0, cls: "budget"))
            nodes.append(SVG.text("budget \(ms(budget))", bx + 4, area.y1 - 8, cls: "budgetlbl"))
        }
        var legend = unique(lines.map(\.backend)).flatMap { b in
            present.map { s in (data.name(b, source: s), Palette.colour(b, source: s)) }
        }
        if budget != nil { legend.append(("budget (\(data.fps.map { NumberFormat.decimal($0) } ?? "?") fps × share)", Palette.budget)) }
        return Figure(id: slug("frametime", data.profile, scene), title: "\(scene): frame time against the budget",
                      caption: "Each row is one way to render \(scene) on \(data.profile) (variant, render scale, backend, threads). Faded bars miss the budget at p95.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "\(scene) frame time", nodes), legend: legend, wide: true)
    }
}
