import RasterKit

/// What `choose --from` does with report rows before it chooses, and what it
/// says afterwards: which rows count, which selected targets are missing,
/// and whether the rows can make one wisdom file.
public enum ChooseRules {
    /// The rows of `reports` that `choose` uses: the profile's, for the
    /// selected targets and backends. A profile no report measured is an
    /// error naming the profiles they did.
    public static func rows(_ reports: [ReportRow], profile: String, targets: Set<String>,
                            backends: Set<BackendKind>) throws -> [ReportRow] {
        let forProfile = reports.filter { $0.profile == profile }
        guard !forProfile.isEmpty else {
            let present = Set(reports.map(\.profile)).filter { !$0.isEmpty }.sorted()
            throw HarnessError.invalidArgument(name: "profile", value: "'\(profile)'",
                                               accepted: present.isEmpty ? "no profile rows in the report(s)"
                                                   : "a profile the report(s) measured: \(present.joined(separator: ", "))")
        }
        return forProfile.filter { targets.contains($0.kernel) && backends.contains($0.backend) }
    }

    /// The most threads any usable row ran at (nil: no usable row).
    public static func measuredThreads(_ rows: [ReportRow]) -> Int? { rows.filter(\.isOK).map(\.threads).max() }

    /// Selected targets without a front. With an explicit selection (or when
    /// choose measured) every selected target must have one; otherwise a
    /// report need not hold every target, and only those it names but could
    /// not use are missing.
    public static func missingTargets(selected: [String], fronts: [QualityFront], rows: [ReportRow], explicit: Bool) -> [String] {
        let present = Set(fronts.map(\.target))
        let named = Set(rows.map(\.kernel))
        return selected.filter { !present.contains($0) && (explicit || named.contains($0)) }
    }

    /// The host and the build the rows share, for wisdom (which keeps one of
    /// each); rows from several hosts or builds are refused. The host is told
    /// apart by CPU, cores and OS (not its name), the build by commit, flags,
    /// optimisation and OpenMP.
    public static func wisdomSource(_ rows: [ReportRow]) throws -> (host: Wisdom.Host, build: Wisdom.Build) {
        struct HostKey: Hashable { var cpu: String; var cores: Int; var os: String }
        struct BuildKey: Hashable { var commit, flags: String; var optimized, openMP: Bool }
        let hosts = Set(rows.map { HostKey(cpu: $0.hostCPU, cores: $0.hostCores, os: $0.os) })
        let builds = Set(rows.map { BuildKey(commit: $0.gitCommit, flags: $0.compilerFlags, optimized: $0.optimized, openMP: $0.openMP) })
        guard hosts.count <= 1, builds.count <= 1, let first = rows.first else {
            throw HarnessError.invalidArgument(name: "wisdomRows", value: "rows from \(hosts.count) hosts and \(builds.count) builds",
                                               accepted: "reports of one host and one build (wisdom keeps one of each)")
        }
        return (Wisdom.Host(row: first), Wisdom.Build(row: first))
    }
}
