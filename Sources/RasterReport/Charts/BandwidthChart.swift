import Foundation
import RasterHarness

/// The physical limit of memory-bound kernels: bytes per second each row
/// moves (bar) against a memcpy of one frame measured in the same run
/// (white tick), labelled with the fraction of it reached.
enum BandwidthChart {
    static func make(data: ProfileData) -> Figure? {
        var lines: [(String, Int, ReportRow)] = []
        for (s, rows) in data.rows.enumerated() {
            for r in rows where r.sweep == .suite && r.usable && r.gbPerS != nil && r.copyGBPerS != nil {
                lines.append(("\(r.kernel) \(r.optionName)  \(r.backend) t=\(r.threads)", s, r))
            }
        }
        guard !lines.isEmpty else { return nil }
        lines.sort { ($0.2.kernel, $0.2.optionName, backendOrder($0.2.backend), $0.2.threads, $0.1)
            < ($1.2.kernel, $1.2.optionName, backendOrder($1.2.backend), $1.2.threads, $1.1) }
        let rowH = 11.0
        var area = PlotArea(width: 1160, height: 0)
        area.left = 310
        area.height = area.top + rowH * Double(lines.count) + 6 + area.bottom
        let x = area.xScale(lines.flatMap { [$0.2.gbPerS!, $0.2.copyGBPerS!] }, log: false, includeZero: true)
        var nodes = area.axes(x: x, y: nil, xTitle: "GB/s moved; tick = this host's copy bandwidth for one frame (same run)", yTitle: "")
        var y = area.y1 + 4
        var lastKernel = ""
        for (name, s, r) in lines {
            if r.kernel != lastKernel, !lastKernel.isEmpty { nodes.append(SVG.line(area.x0 - 300, y - 1.5, area.x1, y - 1.5, cls: "sep")) }
            lastKernel = r.kernel
            nodes.append(SVG.text(data.multi ? "\(name) #\(s + 1)" : name, area.x0 - 8, y + rowH - 3, anchor: .end, cls: "rowlbl small"))
            let frac = r.bwFraction ?? r.gbPerS! / r.copyGBPerS!
            nodes.append(SVG.rect(x.map(0), y, x.map(r.gbPerS!) - x.map(0), rowH - 2.5, fill: Palette.colour(r.backend, source: s),
                                  tip: "\(name): \(NumberFormat.decimal(r.gbPerS!, significant: 3)) GB/s of \(NumberFormat.decimal(r.copyGBPerS!, significant: 3)) GB/s copy (\(NumberFormat.decimal(frac * 100, significant: 2))%)"))
            nodes.append(SVG.line(x.map(r.copyGBPerS!), y - 1, x.map(r.copyGBPerS!), y + rowH - 1.5, cls: "limit"))
            nodes.append(SVG.text("\(NumberFormat.decimal(frac * 100, significant: 2))%", x.map(r.gbPerS!) + 3, y + rowH - 3.5, cls: "val"))
            y += rowH
        }
        let legend = unique(lines.map { "\($0.2.backend)|\($0.1)" }).map { k -> (String, String) in
            let p = k.split(separator: "|").map(String.init)
            return (data.name(p[0], source: Int(p[1])!), Palette.colour(p[0], source: Int(p[1])!))
        } + [("copy bandwidth (memcpy of one frame)", "#f2f2f7")]
        return Figure(id: slug("bandwidth", data.profile), title: "Against the copy-bandwidth limit",
                      caption: "Rows whose bytes per run are known. A kernel near 100% is memory-bound: only fewer bytes make it faster.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "bandwidth against the copy limit", nodes), legend: legend, wide: true)
    }
}
