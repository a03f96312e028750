/// The page's only stylesheet, inline (no network). Dark, like the tools
/// graphics people live in; no `>` so the page stays well-formed XML.
enum PageStyle {
    static let css = """
    :root { color-scheme: dark; }
    * { box-sizing: border-box; }
    body { margin: 0; background: #111214; color: #e5e5ea; font: 14px/1.45 -apple-system, "Segoe UI", "Helvetica Neue", "DejaVu Sans", sans-serif; }
    main { max-width: 1260px; margin: 0 auto; padding: 28px 32px 64px; }
    h1 { font-size: 28px; margin: 0 0 4px; letter-spacing: -0.02em; }
    h1 span { color: #64d2ff; }
    h2 { font-size: 22px; margin: 44px 0 6px; padding-top: 18px; border-top: 1px solid #2c2c2e; }
    h3 { font-size: 16px; margin: 30px 0 10px; color: #f2f2f7; text-transform: uppercase; letter-spacing: 0.06em; }
    h4 { font-size: 14px; margin: 0 0 6px; color: #f2f2f7; }
    p.lede, p.note { color: #aeaeb2; margin: 4px 0 10px; max-width: 900px; }
    p.missing { color: #ff9f0a; }
    table.sources, table.answer { border-collapse: collapse; margin: 14px 0; font-size: 13px; }
    table.sources th, table.sources td, table.answer th, table.answer td { text-align: left; padding: 4px 14px 4px 0; border-bottom: 1px solid #2c2c2e; }
    table.sources th, table.answer th { color: #8e8e93; font-weight: 500; }
    table.answer tr.nofit td { color: #ff9f0a; }
    p.stamp { color: #f2f2f7; font-weight: 600; margin: 6px 0; }
    p.warning { color: #111214; background: #ff9f0a; border-radius: 6px; padding: 6px 10px; max-width: 900px; font-weight: 600; }
    ul.misses { color: #ff9f0a; margin: 4px 0 10px; font-size: 13px; }
    code { color: #64d2ff; }
    nav a { color: #64d2ff; margin-right: 14px; text-decoration: none; }
    .grid { display: flex; flex-wrap: wrap; gap: 18px; }
    .fig { background: #1c1c1e; border-radius: 12px; padding: 14px 16px 10px; }
    .fig.wide { width: 100%; }
    .grid .fig { flex: 0 0 calc(50% - 9px); min-width: 0; }
    .fig svg { display: block; max-width: 100%; height: auto; }
    .caption { color: #8e8e93; font-size: 12px; margin: 6px 0 0; max-width: 860px; }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 6px; font-size: 12px; color: #c7c7cc; }
    .legend i { display: inline-block; width: 11px; height: 11px; border-radius: 3px; margin-right: 5px; vertical-align: -1px; }
    .scenes { display: flex; flex-wrap: wrap; gap: 18px; }
    .scene { background: #1c1c1e; border-radius: 12px; padding: 12px; }
    .scene .pics { display: flex; gap: 10px; }
    .scene img { display: block; border-radius: 8px; background: #000; }
    .scene .cap { font-size: 11px; color: #8e8e93; margin-top: 4px; }
    .scene h4 { margin-bottom: 8px; }
    svg.chart text { fill: #c7c7cc; font-size: 11px; font-family: inherit; }
    svg.chart text.tick { fill: #8e8e93; font-size: 10px; }
    svg.chart text.axis { fill: #aeaeb2; font-size: 11px; }
    svg.chart text.rowlbl { font-size: 10.5px; }
    svg.chart text.small { font-size: 9.5px; }
    svg.chart text.val { fill: #8e8e93; font-size: 8.5px; }
    svg.chart text.note { fill: #8e8e93; font-size: 10px; }
    svg.chart text.budgetlbl { fill: #ff453a; font-size: 10.5px; font-weight: 600; }
    svg.chart text.chosenlbl { fill: #ffffff; font-size: 11px; font-weight: 600; paint-order: stroke; stroke: #1c1c1e; stroke-width: 3px; }
    svg.chart .plotbg { fill: #161618; }
    svg.chart .grid { stroke: #2c2c2e; stroke-width: 1; }
    svg.chart .axisline { stroke: #636366; stroke-width: 1; }
    svg.chart .sep { stroke: #2c2c2e; stroke-width: 1; stroke-dasharray: 2 3; }
    svg.chart .bar { stroke: none; }
    svg.chart .bar.over { opacity: 0.45; }
    svg.chart .whisker { stroke: #f2f2f7; stroke-width: 1; opacity: 0.8; }
    svg.chart .budget { stroke: #ff453a; stroke-width: 1.5; stroke-dasharray: 5 3; }
    svg.chart .overzone { opacity: 0.06; }
    svg.chart .baseline { stroke: #aeaeb2; stroke-width: 1; }
    svg.chart .ideal { stroke: #8e8e93; stroke-width: 1; stroke-dasharray: 2 3; }
    svg.chart .limit { stroke: #f2f2f7; stroke-width: 2; }
    svg.chart .roof { fill: none; stroke-width: 1.5; }
    svg.chart .roof.dashed { stroke-dasharray: 5 4; }
    svg.chart .series { stroke-width: 1.8; }
    svg.chart .dashed { stroke-dasharray: 5 3; }
    svg.chart .front { stroke: #64d2ff; stroke-width: 1.6; opacity: 0.85; }
    svg.chart .dot { stroke: #111214; stroke-width: 1; }
    svg.chart .onfront { stroke: #64d2ff; stroke-width: 1.5; }
    svg.chart .chosen { stroke: #ffffff; stroke-width: 2; }
    footer { margin-top: 48px; color: #636366; font-size: 12px; }
    """
}
