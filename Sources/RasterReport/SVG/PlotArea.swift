import Foundation

/// The frame every chart draws in: a plot rectangle inside margins, grid
/// lines and tick labels for both axes, and the axis titles.
struct PlotArea {
    var width: Double
    var height: Double
    var left = 64.0, right = 18.0, top = 14.0, bottom = 44.0

    var x0: Double { left }
    var x1: Double { width - right }
    var y0: Double { height - bottom }   // bottom of the plot
    var y1: Double { top }               // top of the plot

    func xScale(_ values: [Double], log: Bool, includeZero: Bool = false) -> Scale {
        Scale.fit(values, log: log, from: x0, to: x1, includeZero: includeZero)
    }

    func yScale(_ values: [Double], log: Bool, includeZero: Bool = false) -> Scale {
        Scale.fit(values, log: log, from: y0, to: y1, includeZero: includeZero)
    }

    /// Grid, ticks and titles. `y` nil: the caller labels the rows itself (bar charts).
    func axes(x: Scale, y: Scale?, xTitle: String, yTitle: String) -> [SVGNode] {
        var nodes: [SVGNode] = [SVG.rect(x0, y1, x1 - x0, y0 - y1, fill: "none", cls: "plotbg")]
        for (v, s) in x.ticks {
            let px = x.map(v)
            nodes.append(SVG.line(px, y1, px, y0, cls: "grid"))
            nodes.append(SVG.text(s, px, y0 + 15, anchor: .middle, cls: "tick"))
        }
        if let y {
            for (v, s) in y.ticks {
                let py = y.map(v)
                nodes.append(SVG.line(x0, py, x1, py, cls: "grid"))
                nodes.append(SVG.text(s, x0 - 6, py + 4, anchor: .end, cls: "tick"))
            }
            nodes.append(SVG.text(yTitle, 14, (y0 + y1) / 2, anchor: .middle, cls: "axis", rotate: true))
        }
        nodes.append(SVG.line(x0, y0, x1, y0, cls: "axisline"))
        nodes.append(SVG.text(xTitle, (x0 + x1) / 2, height - 8, anchor: .middle, cls: "axis"))
        return nodes
    }
}
