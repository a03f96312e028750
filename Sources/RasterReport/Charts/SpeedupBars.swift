import Foundation
import RasterHarness
import RasterKit

/// The bars both speed-up charts draw (over naive, over one thread): one
/// group per kernel or scene and workload, from the exact variant at full
/// scale, each report's rows handed to `bars` to turn into ratios.
struct SpeedupBar {
    var backend: BackendKind; var threads: Int; var source: Int; var speedup: Double; var tip: String
    /// The legend entry of the bar, with or without its thread count.
    func series(threads withThreads: Bool) -> SeriesKey { SeriesKey(backend: backend, threads: withThreads ? threads : nil, source: source) }
}

enum SpeedupBars {
    /// (group label, bars sorted by backend, threads, report) for every
    /// target and workload with at least one bar. `bars` gets the target,
    /// the workload, the report's index and its usable exact rows.
    static func groups(_ data: ProfileData,
                       bars: (_ target: String, _ workload: String, _ source: Int, _ rows: [ReportRow]) -> [SpeedupBar]) -> [(String, [SpeedupBar])] {
        struct TargetWorkload: Hashable { var target, workload: String }
        // One pass over the rows: each target's workloads in order of appearance, with their rows per report.
        var byTarget: [String: [(String, [[ReportRow]])]] = [:]
        for (k, perSource) in data.grouped(where: { $0.sweep == nil && $0.variant == "exact" && $0.renderScale == 1 },
                                           by: { TargetWorkload(target: $0.kernel, workload: $0.parameters) }) {
            byTarget[k.target, default: []].append((k.workload, perSource))
        }
        var groups: [(String, [SpeedupBar])] = []
        // A kernel and a scene may share a name (mesh): its groups once.
        for target in unique(data.kernels + data.scenes) {
            for (w, perSource) in byTarget[target] ?? [] {
                var all: [SpeedupBar] = []
                for (s, rows) in perSource.enumerated() {
                    all += bars(target, w, s, rows.filter(\.usable))
                }
                all.sort { (backendOrder($0.backend), $0.threads, $0.source) < (backendOrder($1.backend), $1.threads, $1.source) }
                if !all.isEmpty { groups.append((w.isEmpty ? target : "\(target) [\(w)]", all)) }
            }
        }
        return groups
    }
}
