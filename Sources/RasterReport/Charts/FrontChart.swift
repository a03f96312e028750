import Foundation
import RasterHarness

/// The quality/time front `choose` picks from: every option of one target as
/// a dot (PSNR against p95, log time), the Pareto front as a line, the
/// budget less headroom as a red line, and the choice ringed.
enum FrontChart {
    /// PSNR of identical images is infinite; it is drawn at the top, labelled.
    static let infinitePSNR = 120.0

    /// One chart per front, keyed as `choose` keys it (target, parameters,
    /// frame size), in order of first appearance over the reports.
    static func all(answers: [ReportAnswer], data: ProfileData) -> [Figure] {
        let keys = unique(answers.flatMap { $0.answer.fronts.map(FrontKey.init) })
        // The frame size is named only when one target comes in several.
        let sized = Dictionary(grouping: keys, by: { FrontKey(target: $0.target, param: $0.param, width: 0, height: 0) })
        return keys.compactMap { k in
            make(key: k, name: k.name(withSize: (sized[FrontKey(target: k.target, param: k.param, width: 0, height: 0)]?.count ?? 0) > 1),
                 answers: answers, data: data)
        }
    }

    static func make(key: FrontKey, name target: String, answers: [ReportAnswer], data: ProfileData) -> Figure? {
        var fronts: [(Int, QualityFront, Choice)] = []
        for a in answers {
            guard let (f, choice) = a.choice(for: key) else { continue }
            guard f.options.contains(where: { $0.psnrDb != nil }) else { continue }
            fronts.append((a.source, f, choice))
        }
        guard !fronts.isEmpty else { return nil }
        func q(_ o: FrontOption) -> Double? {
            guard let p = o.psnrDb, !p.isNaN else { return nil }
            return min(p, infinitePSNR)
        }
        var area = PlotArea(width: 440, height: 300)
        area.left = 52
        let opts = fronts.flatMap { $0.1.options }
        let limits = fronts.compactMap { $0.2.limitMs }
        let x = area.xScale(opts.map(\.p95Ms) + limits, log: true)
        let y = area.yScale(opts.compactMap(q), log: false)
        var nodes = area.axes(x: x, y: y, xTitle: "p95 frame time, ms (log)", yTitle: "PSNR, dB")
        for limit in unique(limits) where x.contains(limit) {
            let lx = x.map(limit)
            nodes.append(SVG.rect(lx, area.y1, area.x1 - lx, area.y0 - area.y1, fill: Palette.budget, cls: "overzone"))
            nodes.append(SVG.line(lx, area.y1, lx, area.y0, cls: "budget"))
            nodes.append(SVG.text("limit \(ms(limit))", lx + 3, area.y0 - 18, cls: "budgetlbl"))
        }
        for (k, (s, f, choice)) in fronts.enumerated() {
            let pts = f.front.compactMap { o in q(o).map { (x.map(o.p95Ms), y.map($0)) } }
            // A staircase: quality holds until the next faster-but-worse option.
            var stairs: [(Double, Double)] = []
            for (i, p) in pts.enumerated() {
                if i > 0, let last = stairs.last { stairs.append((p.0, last.1)) }
                stairs.append(p)
            }
            nodes.append(SVG.polyline(stairs, stroke: Palette.front, cls: s == 0 ? "front" : "front dashed"))
            struct Point: Hashable { var label: String; var p95: Double }
            let onFrontPoints = Set(f.front.map { Point(label: $0.label, p95: $0.p95Ms) })
            for o in f.options {
                guard let qq = q(o) else { continue }
                let onFront = onFrontPoints.contains(Point(label: o.label, p95: o.p95Ms))
                var tip = "\(o.label): p95 \(ms(o.p95Ms)), PSNR \(o.psnrDb.map { $0.isInfinite ? "∞" : NumberFormat.decimal($0, significant: 3) } ?? "-") dB"
                if data.multi { tip += " — \(data.labels[s])" }
                nodes.append(SVG.circle(x.map(o.p95Ms), y.map(qq), r: onFront ? 4.5 : 3, fill: Palette.colour(o.backend, source: s),
                                        cls: onFront ? "dot onfront" : "dot", tip: tip))
            }
            if let c = choice.chosen, let qq = q(c) {
                let cx = x.map(c.p95Ms), cy = y.map(qq)
                nodes.append(SVG.circle(cx, cy, r: 9, fill: "none", cls: "chosen"))
                let anchor: SVG.Anchor = cx > (area.x0 + area.x1) / 2 ? .end : .start
                nodes.append(SVG.text((data.multi ? "#\(s + 1) " : "") + "chosen: \(c.label)", anchor == .end ? cx - 12 : cx + 12, max(area.y1 + 24, cy - 10) + 13 * Double(k), anchor: anchor, cls: "chosenlbl"))
            } else if let miss = choice.missByMs, let fast = choice.fastest {
                nodes.append(SVG.text("nothing fits: fastest \(fast.label) misses by \(ms(miss))", area.x0 + 6, area.y1 + 14 + 13 * Double(k), cls: "chosenlbl"))
            }
        }
        if opts.contains(where: { ($0.psnrDb ?? 0) >= infinitePSNR }) {
            nodes.append(SVG.text("∞ = identical to the reference", area.x1 - 4, area.y0 - 6, anchor: .end, cls: "note"))
        }
        var legend = unique(opts.map(\.backend)).sorted { backendOrder($0) < backendOrder($1) }.flatMap { b in
            fronts.map { (data.name(b, source: $0.0), Palette.colour(b, source: $0.0)) }
        }
        legend.append(("Pareto front", Palette.front))
        legend.append(("budget less 10% headroom", Palette.budget))
        let chosen = fronts.compactMap { $0.2.chosen?.label }.first
        return Figure(id: slug("front", data.profile, target), title: "\(target): quality against time",
                      caption: chosen.map { "choose picks \($0): the highest PSNR whose p95 fits the limit." }
                          ?? (fronts.contains { $0.2.fastest != nil } ? "No option fits the limit; choose reports the fastest and its miss."
                                                                       : "No option is eligible."),
                      svg: SVG.svg(width: area.width, height: area.height, label: "\(target) quality/time front", nodes), legend: legend)
    }
}
