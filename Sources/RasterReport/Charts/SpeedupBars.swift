import Foundation
import RasterHarness

/// The bars both speed-up charts draw (over naive, over one thread): one
/// group per kernel or scene and workload, from the exact variant at full
/// scale, each report's rows handed to `bars` to turn into ratios.
struct SpeedupBar { var backend: String; var threads: Int; var source: Int; var speedup: Double; var tip: String }

enum SpeedupBars {
    /// (group label, bars sorted by backend, threads, report) for every
    /// target and workload with at least one bar. `bars` gets the target,
    /// the workload, the report's index and its usable exact rows.
    static func groups(_ data: ProfileData,
                       bars: (_ target: String, _ workload: String, _ source: Int, _ rows: [ReportRow]) -> [SpeedupBar]) -> [(String, [SpeedupBar])] {
        func exact(_ r: ReportRow, _ target: String) -> Bool {
            r.kernel == target && r.sweep == .suite && r.variant == "exact" && r.renderScale == 1
        }
        var groups: [(String, [SpeedupBar])] = []
        for target in data.kernels + data.scenes {
            for w in unique(data.all.filter { exact($0, target) }.map(\.workload)) {
                var all: [SpeedupBar] = []
                for (s, rows) in data.rows.enumerated() {
                    all += bars(target, w, s, rows.filter { exact($0, target) && $0.workload == w && $0.usable })
                }
                all.sort { (backendOrder($0.backend), $0.threads, $0.source) < (backendOrder($1.backend), $1.threads, $1.source) }
                if !all.isEmpty { groups.append((w.isEmpty ? target : "\(target) [\(w)]", all)) }
            }
        }
        return groups
    }
}
