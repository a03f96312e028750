import Foundation
import RasterHarness

/// The physical limit of memory-bound kernels: bytes per second each row
/// moves (bar) against a memcpy of one frame measured in the same run
/// (white tick), labelled with the fraction of it reached.
enum BandwidthChart {
    static func make(data: ProfileData) -> Figure? {
        struct Line { var name: String; var source: Int; var row: ReportRow; var gb: Double; var copy: Double }
        var lines: [Line] = []
        for (s, rows) in data.rows.enumerated() {
            for r in rows where r.sweep == nil && r.usable {
                guard let gb = r.gbPerS, let copy = r.copyGBPerS else { continue }
                lines.append(Line(name: "\(r.kernel) \(r.optionName)  \(r.backend) t=\(r.threads)", source: s, row: r, gb: gb, copy: copy))
            }
        }
        guard !lines.isEmpty else { return nil }
        lines.sort { ($0.row.kernel, $0.row.optionName, backendOrder($0.row.backend), $0.row.threads, $0.source)
            < ($1.row.kernel, $1.row.optionName, backendOrder($1.row.backend), $1.row.threads, $1.source) }
        let rowH = 11.0
        var area = PlotArea(width: 1160, height: 0)
        area.left = 310
        area.height = area.top + rowH * Double(lines.count) + 6 + area.bottom
        let x = area.xScale(lines.flatMap { [$0.gb, $0.copy] }, log: false, includeZero: true)
        var nodes = area.axes(x: x, y: nil, xTitle: "GB/s moved; tick = this host's copy bandwidth for one frame (same run)", yTitle: "")
        var y = area.y1 + 4
        var lastKernel = ""
        for line in lines {
            let r = line.row, s = line.source
            if r.kernel != lastKernel, !lastKernel.isEmpty { nodes.append(SVG.line(area.x0 - 300, y - 1.5, area.x1, y - 1.5, cls: "sep")) }
            lastKernel = r.kernel
            nodes.append(SVG.text(data.multi ? "\(line.name) #\(s + 1)" : line.name, area.x0 - 8, y + rowH - 3, anchor: .end, cls: "rowlbl small"))
            let frac = r.bwFraction ?? line.gb / line.copy
            nodes.append(SVG.rect(x.map(0), y, x.map(line.gb) - x.map(0), rowH - 2.5, fill: Palette.colour(r.backend, source: s),
                                  tip: "\(line.name): \(NumberFormat.decimal(line.gb, significant: 3)) GB/s of \(NumberFormat.decimal(line.copy, significant: 3)) GB/s copy (\(NumberFormat.decimal(frac * 100, significant: 2))%)"))
            nodes.append(SVG.line(x.map(line.copy), y - 1, x.map(line.copy), y + rowH - 1.5, cls: "limit"))
            nodes.append(SVG.text("\(NumberFormat.decimal(frac * 100, significant: 2))%", x.map(line.gb) + 3, y + rowH - 3.5, cls: "val"))
            y += rowH
        }
        let legend = SeriesKey.legend(lines.map { SeriesKey(backend: $0.row.backend, source: $0.source) }, data: data) + [("copy bandwidth (memcpy of one frame)", "#f2f2f7")]
        return Figure(id: slug("bandwidth", data.profile), title: "Against the copy-bandwidth limit",
                      caption: "Rows whose bytes per run are known. A kernel near 100% is memory-bound: only fewer bytes make it faster.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "bandwidth against the copy limit", nodes), legend: legend, wide: true)
    }
}
