import Foundation
import RasterHarness
import RasterKit

/// Cost against frame size on log-log axes (a report's `sweep=size` rows),
/// one line per backend and thread count, with the least-squares slope of
/// log(time) on log(pixels): 1 is linear in pixels, below 1 means fixed
/// costs still dominate at small sizes.
enum SizeChart {
    /// `perSource`: the kernel's size-sweep rows of this workload, per report.
    static func make(kernel: String, workload: String, perSource: [[ReportRow]], data: ProfileData) -> Figure? {
        struct Series { var name: String; var colour: String; var points: [(Double, Double)]; var dashed: Bool }
        var series: [Series] = []
        for (s, rows) in perSource.enumerated() {
            var points: [SeriesKey: [(Double, Double)]] = [:]
            for r in rows where r.usable && r.width > 0 && r.height > 0 {
                guard let median = r.medianMs else { continue }
                points[SeriesKey(backend: r.backend, threads: r.threads, source: s), default: []].append((Double(r.width) * Double(r.height), median))
            }
            for (k, unsorted) in points.sorted(by: { ($0.key.backend.rawValue, $0.key.threads ?? 1) < ($1.key.backend.rawValue, $1.key.threads ?? 1) }) {
                let pts = unsorted.sorted { $0.0 < $1.0 }
                guard pts.count >= 2 else { continue }
                let slope = fitSlope(pts)
                series.append(Series(name: data.name(k.backend, threads: k.threads, source: s) + "  slope \(NumberFormat.decimal(slope, significant: 2))",
                                     colour: Palette.colour(k.backend, source: s), points: pts, dashed: (k.threads ?? 1) > 1))
            }
        }
        guard !series.isEmpty else { return nil }
        var area = PlotArea(width: 440, height: 300)
        area.left = 56
        let all = series.flatMap(\.points)
        let x = area.xScale(all.map(\.0), log: true)
        let y = area.yScale(all.map(\.1), log: true)
        var nodes = area.axes(x: x, y: y, xTitle: "frame size, pixels (log)", yTitle: "median, ms (log)")
        for s in series {
            nodes.append(SVG.polyline(s.points.map { (x.map($0.0), y.map($0.1)) }, stroke: s.colour, cls: s.dashed ? "series dashed" : "series"))
            for p in s.points {
                nodes.append(SVG.circle(x.map(p.0), y.map(p.1), r: 3, fill: s.colour,
                                        tip: "\(s.name): \(NumberFormat.decimal(p.0)) px, \(ms(p.1))"))
            }
        }
        let name = workload.isEmpty ? kernel : "\(kernel) [\(workload)]"
        return Figure(id: slug("size", data.profile, kernel, workload), title: "\(name): cost against frame size",
                      caption: "Slope of log time on log pixels: 1 = linear in pixels. Dashed: more than one thread.",
                      svg: SVG.svg(width: area.width, height: area.height, label: "\(name) cost against size", nodes),
                      legend: series.map { ($0.name, $0.colour) })
    }

    static func fitSlope(_ pts: [(Double, Double)]) -> Double { LogLogFit.slope(pts) }
}

/// Least-squares slope of log10(y) on log10(x): the exponent of a power law.
public enum LogLogFit {
    public static func slope(_ pts: [(Double, Double)]) -> Double {
        let lx = pts.map { log10($0.0) }, ly = pts.map { log10($0.1) }
        let mx = lx.reduce(0, +) / Double(lx.count), my = ly.reduce(0, +) / Double(ly.count)
        var num = 0.0, den = 0.0
        for i in lx.indices { num += (lx[i] - mx) * (ly[i] - my); den += (lx[i] - mx) * (lx[i] - mx) }
        return den > 0 ? num / den : .nan
    }
}
