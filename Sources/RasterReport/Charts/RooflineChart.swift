import Foundation
import RasterHarness

/// Each row's rate against the host's two ceilings (the roofline model):
/// operations per second achieved (work_flops / median) over arithmetic
/// intensity (work_flops / work_bytes), both from the work model, under the
/// memory roof (intensity x the frame copy bandwidth) and the compute roof
/// (the measured peak x threads). A dot's height under the roof above it is
/// its `limit_share`; dots on the slanted part are memory-bound.
enum RooflineChart {
    static func make(data: ProfileData) -> Figure? {
        struct Dot { var row: ReportRow; var source: Int; var intensity: Double; var rate: Double }
        var dots: [Dot] = []
        for (s, rows) in data.rows.enumerated() {
            for r in rows where r.sweep == nil && r.usable {
                guard let flops = r.workFlops, let bytes = r.workBytes, flops > 0, bytes > 0,
                      let median = r.medianMs, r.limitMs != nil else { continue }
                dots.append(Dot(row: r, source: s, intensity: flops / bytes, rate: flops / (median / 1e3) / 1e9))
            }
        }
        guard !dots.isEmpty else { return nil }
        // One roof per thread count: the highest of the rows' ceilings at
        // that count (rows of one run share the peak; the copy bandwidth
        // depends on the buffer size, and every dot is under the highest).
        struct Roof { var threads: Int; var peak: Double; var copy: Double }
        let roofs: [Roof] = Dictionary(grouping: dots, by: \.row.threads).compactMap { threads, group in
            let peaks = group.compactMap { d in d.row.peakGflops.map { $0 * Double(min(threads, max(1, d.row.hostCores))) } }
            let copies = group.compactMap(\.row.copyGBPerS)
            guard let peak = peaks.max(), let copy = copies.max() else { return nil }
            return Roof(threads: threads, peak: peak, copy: copy)
        }.sorted { $0.threads < $1.threads }
        var area = PlotArea(width: 760, height: 380)
        area.left = 64
        let intensities = dots.map(\.intensity)
        let x = area.xScale([intensities.min()! / 2, intensities.max()! * 2], log: true)
        let y = area.yScale(dots.map(\.rate) + roofs.map(\.peak) + [dots.map(\.rate).min()! / 2], log: true)
        var nodes = area.axes(x: x, y: y, xTitle: "arithmetic intensity, floating-point operations per byte moved (log)",
                              yTitle: "GFLOP/s achieved (log)")
        for roof in roofs {
            // Memory roof up to the ridge, compute roof after it.
            let ridge = roof.peak / roof.copy
            // The slanted part starts where it enters the plot.
            let start = max(x.lo, y.lo / roof.copy)
            let points = [start, min(max(ridge, start), x.hi), x.hi].map { v in
                (x.map(v), y.map(min(roof.peak, v * roof.copy)))
            }
            nodes.append(SVG.polyline(points, stroke: "#f2f2f7", cls: roof.threads == 1 ? "roof" : "roof dashed"))
            nodes.append(SVG.text("t=\(roof.threads): \(NumberFormat.decimal(roof.peak, significant: 3)) GFLOP/s, \(NumberFormat.decimal(roof.copy, significant: 3)) GB/s",
                                  area.x1 - 4, y.map(roof.peak) - 4, anchor: .end, cls: "note"))
        }
        var labelled = Set<String>()
        var placed: [(Double, Double)] = []
        for d in dots {
            let r = d.row
            var tip = "\(r.kernel) \(r.optionName) \(r.backend) t=\(r.threads): \(NumberFormat.decimal(d.rate, significant: 3)) GFLOP/s, "
                + "limit \(NumberFormat.decimal((r.limitShare ?? 0) * 100, significant: 2))% of the time"
            if data.multi { tip += " — \(data.labels[d.source])" }
            let cx = x.map(d.intensity), cy = y.map(d.rate)
            nodes.append(SVG.circle(cx, cy, r: 3.5, fill: Palette.colour(r.backend, source: d.source), tip: tip))
            // Each kernel named once, beside its first dot.
            if labelled.insert(r.kernel).inserted {
                // Moved down past labels it would overlap.
                var ly = cy + 4
                while placed.contains(where: { abs($0.0 - cx) < 70 && abs($0.1 - ly) < 11 }) { ly += 11 }
                placed.append((cx, ly))
                nodes.append(SVG.text(r.kernel, cx + 6, ly, cls: "val"))
            }
        }
        let legend = SeriesKey.legend(dots.map { SeriesKey(backend: $0.row.backend, source: $0.source) }, data: data) + [("roofs: copy bandwidth x intensity, then the compute peak (dashed: 2+ threads)", "#f2f2f7")]
        return Figure(id: slug("roofline", data.profile), title: "Against the memory and compute ceilings",
                      caption: "Rows with a work model (bytes and operations a run needs at least). A dot on its roof runs at the host's limit; the distance below it is what a faster schedule could still win.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "roofline: achieved rate against the ceilings", nodes), legend: legend, wide: false)
    }
}
