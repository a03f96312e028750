import RasterKit
/// The table `run` prints at the end: one line per row of the suite proper
/// (sweeps get their own summaries, see `SweepAnalysis`). "vs naive" is
/// naive's median over this row's; "thr speed-up" is over this backend at 1
/// thread; "of limit" is `limit_share`, the host's floor for the work over
/// the median (100% is as fast as memory and arithmetic allow).
public enum RunTable {
    public static func render(_ rows: [ReportRow]) -> String {
        // The naive row of the same kernel, variant, size and parameters:
        // the baseline every speed-up is quoted against (docs/contract.md §3).
        var naive: [MeasurementKey.AnyBackend: Double] = [:]
        for r in rows where r.backend == .naive && r.isOK {
            if let m = r.medianMs { naive[r.key.anyBackend] = m }
        }
        // Workloads told apart only by a parameter (fill's shape=blob and
        // shape=stars) need it on the line.
        let showParam = rows.contains { !$0.paramText.isEmpty }
        // With rounds, the median is the median of round medians and
        // "spread" is (slowest - fastest round median) / median.
        let showRounds = rows.contains { ($0.rounds ?? 1) > 1 }
        var t = TextTable(["kernel", "variant", "backend", "thr", "size"] + (showParam ? ["param"] : []) + ["median", "p95", "±MAD"]
                          + (showRounds ? ["spread"] : []) + ["Mpix/s", "GB/s (of copy)", "of limit", "vs naive", "thr speed-up", "PSNR dB", "max err", "budget"])
        for r in rows {
            let size = r.width > 0 ? "\(r.width)x\(r.height)" : "\(r.itemsPerRun.map { Human.number(Double($0)) } ?? "?") \(r.itemUnit)s"
            guard r.isOK, let median = r.medianMs else {
                t.add([r.kernel, r.variant, r.backend.rawValue, "\(r.threads)", size] + (showParam ? [r.paramText] : []) + [r.status.rawValue.uppercased()])
                continue
            }
            var bw = ""
            if let g = r.gbPerS {
                bw = Human.number(g)
                if let f = r.bwFraction { bw += " (\(Human.percent(f)))" }
            }
            let budget: String
            switch r.fitsBudget {
            case .some(true): budget = "fits"
            case .some(false): budget = "OVER"
            case .none: budget = ""
            }
            let coordinates: [String] = [r.kernel, r.variant, r.backend.rawValue, "\(r.threads)", size] + (showParam ? [r.paramText] : [])
            let spread: [String] = showRounds ? [r.roundSpread.map { Human.percent($0) } ?? ""] : []
            let times: [String] = [Human.time(ms: median), r.p95Ms.map { Human.time(ms: $0) } ?? "",
                                   r.madMs.map { Human.percent($0 / median) } ?? ""]
            let mpix: String = r.mpixPerS.map { Human.number($0) } ?? ""
            let vsNaive: String = naive[r.key.anyBackend].map { Human.number($0 / median) + "x" } ?? ""
            let speedup: String = r.speedup.map { Human.number($0) + "x" } ?? ""
            let psnr: String = r.psnrDb.map { $0.isInfinite ? "inf" : Human.number($0, 3) } ?? ""
            let maxErr: String = r.maxErr.map { Human.number($0) } ?? ""
            let limit: String = r.limitShare.map { Human.percent($0) } ?? ""
            let figures: [String] = times + spread + [mpix, bw, limit, vsNaive, speedup, psnr, maxErr, budget]
            t.add(coordinates + figures)
        }
        return t.render()
    }

    /// Lines naming the rows whose limit is above their fastest sample: a
    /// floor that is not one, so a count in `KernelWork` is wrong.
    public static func floorsAboveTime(_ rows: [ReportRow]) -> [String] {
        rows.compactMap { r -> String? in
            guard let limit = r.limitMs, let fastest = r.minMs, limit > fastest else { return nil }
            let name = "\(r.kernel)/\(r.variant)/\(r.backend.rawValue) t=\(r.threads) \(r.width)x\(r.height) \(r.parameters)"
            return "  \(TerminalText.safe(name)): limit \(Human.time(ms: limit)) > fastest \(Human.time(ms: fastest))"
        }
    }

    /// Lines naming every unsupported or failed workload and why, one line
    /// per kernel/variant/backend (sweeps repeat the same reason).
    public static func problems(_ rows: [ReportRow]) -> [String] {
        var order: [String] = []
        var groups: [String: (count: Int, sizes: Set<String>, note: String)] = [:]
        for r in rows where !r.isOK {
            let k = "\(r.status.rawValue): \(r.kernel)/\(r.variant)/\(r.backend.rawValue)"
            if groups[k] == nil { order.append(k); groups[k] = (0, [], r.note) }
            groups[k]!.count += 1
            groups[k]!.sizes.insert(r.sweep == nil ? "suite" : "\(r.sweep?.rawValue ?? "") sweep")
        }
        return order.map { k in
            let g = groups[k]!
            return "  \(TerminalText.safe(k)) (\(g.count) row\(g.count == 1 ? "" : "s"): \(g.sizes.sorted().joined(separator: ", "))) -- \(TerminalText.safe(g.note))"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How cost grows: thread scaling, size and sigma sweeps, summarised from rows.
public enum SweepAnalysis {
    /// Least-squares slope of log(y) against log(x): the exponent k in y ~ x^k.
    /// Time against pixels: 1 is linear. Time against sigma: 0 is O(1), 1 is O(sigma).
    public static func logLogSlope(_ points: [(x: Double, y: Double)]) -> Double? {
        let p = points.filter { $0.x > 0 && $0.y > 0 }
        guard p.count >= 2 else { return nil }
        let lx = p.map { log($0.x) }, ly = p.map { log($0.y) }
        let mx = lx.reduce(0, +) / Double(p.count), my = ly.reduce(0, +) / Double(p.count)
        var sxy = 0.0, sxx = 0.0
        for i in 0..<p.count { sxy += (lx[i] - mx) * (ly[i] - my); sxx += (lx[i] - mx) * (lx[i] - mx) }
        return sxx > 0 ? sxy / sxx : nil
    }

    static func groupKey(_ r: ReportRow) -> String {
        "\(r.kernel)/\(r.variant)/\(r.backend.rawValue)"
    }

    /// Speed-up at each thread count against 1 thread, and the gain per thread
    /// added since the previous count (1.0 = perfect scaling).
    public static func threads(_ rows: [ReportRow]) -> String? {
        let suite = rows.filter { $0.sweep == nil && $0.isOK }
        let counts = Array(Set(suite.map(\.threads))).sorted()
        guard counts.count > 1 else { return nil }
        var groups: [String: [Int: ReportRow]] = [:]
        var order: [String] = []
        for r in suite {
            let k = "\(groupKey(r)) \(r.width)x\(r.height) \(r.paramText)"
            if groups[k] == nil { order.append(k) }
            groups[k, default: [:]][r.threads] = r
        }
        guard groups.values.contains(where: { $0.count > 1 && $0[1] != nil }) else { return nil }
        var t = TextTable(["workload", "1 thread"] + counts.dropFirst().map { "\($0) threads (gain/added thread)" })
        for k in order {
            guard let g = groups[k], g.count > 1, let one = g[1]?.medianMs else { continue }
            var cells = [k, Human.time(ms: one)]
            var prev = (threads: 1, speedup: 1.0)
            for n in counts.dropFirst() {
                guard let m = g[n]?.medianMs else { cells.append(""); continue }
                let s = one / m
                let gain = (s - prev.speedup) / Double(n - prev.threads)
                cells.append("\(Human.number(s))x (\(gain >= 0 ? "+" : "")\(Human.number(gain, 2)))")
                prev = (n, s)
            }
            t.add(cells)
        }
        return "Thread scaling (speed-up over 1 thread; in brackets the speed-up gained per thread added):\n" + t.render()
    }

    /// Cost per pixel at each size and the growth exponent of time in pixels.
    public static func sizes(_ rows: [ReportRow]) -> String? {
        let sweep = rows.filter { $0.sweep == .size && $0.isOK }
        guard !sweep.isEmpty else { return nil }
        let sizes = Array(Set(sweep.map { "\($0.width)x\($0.height)" })).sorted {
            let a = $0.split(separator: "x").compactMap { Int($0) }, b = $1.split(separator: "x").compactMap { Int($0) }
            return a[0] * a[1] < b[0] * b[1]
        }
        var groups: [String: [String: ReportRow]] = [:]
        var order: [String] = []
        for r in sweep {
            let k = "\(groupKey(r)) t=\(r.threads)"
            if groups[k] == nil { order.append(k) }
            groups[k, default: [:]]["\(r.width)x\(r.height)"] = r
        }
        var t = TextTable(["workload"] + sizes.map { "\($0) ns/px" } + ["time ~ px^k"])
        for k in order {
            let g = groups[k]!
            var cells = [k]
            var points: [(x: Double, y: Double)] = []
            for s in sizes {
                guard let r = g[s], let m = r.medianMs else { cells.append(""); continue }
                let px = Double(r.width * r.height)
                cells.append(Human.number(m * 1e6 / px))
                points.append((px, m))
            }
            cells.append(logLogSlope(points).map { "k=" + String(format: "%.2f", $0) } ?? "")
            t.add(cells)
        }
        return "Size sweep (nanoseconds per pixel; k = 1 means cost grows linearly with pixels):\n" + t.render()
    }

    /// Time at each sigma and its growth exponent: ~0 for O(1) blurs, ~1 for O(sigma).
    public static func sigmas(_ rows: [ReportRow]) -> String? {
        let sweep = rows.filter { $0.sweep == .sigma }
        guard !sweep.isEmpty else { return nil }
        func sigma(_ r: ReportRow) -> Double { Double(r.parameters.replacingOccurrences(of: "sigma=", with: "")) ?? 0 }
        let values = Array(Set(sweep.map(sigma))).sorted()
        var groups: [String: [Double: ReportRow]] = [:]
        var order: [String] = []
        for r in sweep {
            let k = "\(groupKey(r)) t=\(r.threads)"
            if groups[k] == nil { order.append(k) }
            groups[k, default: [:]][sigma(r)] = r
        }
        var t = TextTable(["workload"] + values.map { "s=\(Human.number($0))" } + ["time ~ sigma^k"])
        for k in order {
            let g = groups[k]!
            var cells = [k]
            var points: [(x: Double, y: Double)] = []
            for s in values {
                guard let r = g[s] else { cells.append(""); continue }
                guard r.isOK, let m = r.medianMs else { cells.append(r.status.rawValue); continue }
                cells.append(Human.time(ms: m))
                points.append((s, m))
            }
            cells.append(logLogSlope(points).map { "k=" + String(format: "%.2f", $0) } ?? "")
            t.add(cells)
        }
        return "Sigma sweep (k near 0: O(1) in sigma; near 1: O(sigma)):\n" + t.render()
    }
}

import Foundation
