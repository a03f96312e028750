import Foundation

/// Turns samples into a report row: provenance, coordinates, statistics,
/// throughput, the bandwidth fraction and the budget verdict. The suite
/// runner and `bench` both build their rows here, so a `bench --csv` row
/// and a `run` row mean the same thing column for column.
public struct RowBuilder {
    public var host: HostInfo
    /// ISO 8601, UTC.
    public var date: String
    /// The profile's name ("" for a job timed on its own).
    public var profile: String
    public var budget: Budget
    /// The frame the budget verdict applies to: only a whole frame fits or
    /// misses a frame budget.
    public var verdictWidth: Int
    public var verdictHeight: Int
    /// Whether to probe DRAM copy bandwidth for memory-bound rows.
    public var probeDRAM = true
    /// Busy threads competing for the cores while measuring (`Contention`).
    public var contend = 0

    public init(host: HostInfo, date: String, profile: String, budget: Budget, verdictWidth: Int, verdictHeight: Int) {
        self.host = host; self.date = date; self.profile = profile; self.budget = budget
        self.verdictWidth = verdictWidth; self.verdictHeight = verdictHeight
    }

    /// A row with the provenance, the key (its profile set to the
    /// builder's) and the amount of work per run, no numbers yet.
    public func base(_ key: MeasurementKey, items: Int, itemUnit: String = "px", bytesPerRun: Int? = nil,
                     note: String = "") -> ReportRow {
        let h = host
        var row = ReportRow()
        row.gitCommit = h.gitCommit; row.date = date; row.host = h.hostname; row.hostCPU = h.cpuModel
        row.hostCores = h.cores; row.os = h.os; row.swiftVersion = h.swiftVersion; row.build = h.build
        row.optimized = h.optimized; row.compilerFlags = h.compilerFlags; row.openMP = h.openMP
        row.key = key; row.key.profile = profile; row.fps = budget.fps
        row.itemsPerRun = items; row.itemUnit = itemUnit; row.bytesPerRun = bytesPerRun
        row.budgetShare = budget.share
        row.loadAverage = HostInfo.loadAverage()
        row.contend = contend
        row.note = note
        if !h.optimized { row.note = (row.note.isEmpty ? "" : row.note + "; ") + "DEBUG BUILD: times not meaningful" }
        return row
    }

    /// The row's limit from its work floor and the run's two ceilings: the
    /// frame-sized copy bandwidth (one frame's traffic is what a frame-sized
    /// kernel competes with; cache-resident when the frame is) and the
    /// compute peak times the cores the threads can use. Both ceilings are
    /// their probe's fastest sample, and the copy the faster of the copy at
    /// the row's threads and at one thread: a small frame's copy on a team
    /// pays the team's hand-off, which a kernel that keeps such a frame on
    /// one thread never does. Before that, `run --size 16x12 --threads 1,2
    /// --quick` put composite's t=2 floor at 0.45 us above its fastest
    /// sample (0.22 us), and the 1M-anchor controlpoints floor at t=2 above
    /// its fastest sample on a busy host (a median copy against a fastest
    /// sample). A limit above the fastest sample means the floor is not one:
    /// the note says so, and `RunTable.floorsAboveTime` finds such rows.
    ///
    /// The copy of half a frame counts too. A copy touches two buffers, a
    /// kernel that only writes its frame one: where one frame fits in the
    /// last-level cache and two do not, the frame's copy runs at the next
    /// level's speed and the kernel does not. On a 2-core Zen 3 VM (32 MiB
    /// L3) the 1179x2556 frame's copy ran at 16 GB/s at 2 threads, below
    /// what the gradients and scenes that write that frame achieved (a full
    /// run listed five such rows as "work model wrong"). The copy of half a
    /// frame touches one frame's bytes, so the faster of the two is a
    /// ceiling for kernels that touch one frame or two. (Re-check: `run
    /// --kernels linear,radial --scenes morph,liquid --size 1179x2556
    /// --threads 1,2 --quick` prints both copies and, after its table, any
    /// row whose floor is above its time.)
    func limit(_ row: inout ReportRow, work: WorkFloor, bandwidth: BandwidthTable) {
        row.workBytes = work.bytes; row.workFlops = work.flops
        let frameBytes = row.width > 0 ? 4 * row.width * row.height : max(64, Int(work.bytes / 2))
        guard let copy = try? bandwidth.frame(bytes: frameBytes, threads: row.threads),
              let alone = row.threads == 1 ? copy : try? bandwidth.frame(bytes: frameBytes, threads: 1),
              let half = try? bandwidth.frame(bytes: frameBytes / 2, threads: row.threads),
              let halfAlone = row.threads == 1 ? half : try? bandwidth.frame(bytes: frameBytes / 2, threads: 1),
              let peak = try? bandwidth.computePeak(), let median = row.medianMs, median > 0 else { return }
        row.copyGBPerS = row.copyGBPerS ?? copy.gigabytesPerSecond
        row.peakGflops = peak.gigaflopsPerSecond
        let cores = Double(max(1, min(row.threads, host.cores)))
        let ceiling = [copy, alone, half, halfAlone].map(\.fastestBytesPerSecond).max()!
        let memoryMs = work.bytes / ceiling * 1e3
        let computeMs = work.flops / (peak.flopsPerSecond * cores) * 1e3
        let limit = max(memoryMs, computeMs)
        row.limitMs = limit
        row.limitShare = limit / median
        if let fastest = row.minMs, limit > fastest {
            row.note = (row.note.isEmpty ? "" : row.note + "; ")
                + "limit \(NumberFormat.decimal(limit)) ms is above the fastest sample: the work model is wrong"
        }
    }

    /// Statistics, throughput, bandwidth (when `bandwidth` is given and the
    /// work is memory-bound) and the budget verdict from the samples.
    /// The work per run is the row's own (`base`).
    public func fill(_ row: inout ReportRow, samples: Samples, bandwidth: BandwidthTable?, work: WorkFloor? = nil) {
        let items = row.itemsPerRun ?? 0
        let ms = samples.summary.scaled(by: 1e-6)
        row.samples = ms.count; row.batch = samples.batch
        row.medianMs = ms.median; row.p95Ms = ms.p95; row.p99Ms = ms.p99
        row.minMs = ms.min; row.maxMs = ms.max; row.madMs = ms.mad; row.meanMs = ms.mean
        row.outliers = ms.outliers
        row.samplesMs = samples.nanoseconds.map { $0 * 1e-6 }
        let seconds = ms.median / 1e3
        if row.itemUnit == "px" && items > 0 { row.mpixPerS = Double(items) / seconds / 1e6 }
        if let bytes = row.bytesPerRun {
            row.gbPerS = Double(bytes) / seconds / 1e9
            // One frame for image kernels (docs/measurement.md §2); otherwise a copy with the same traffic.
            let copyBytes = row.width > 0 ? 4 * row.width * row.height : bytes / 2
            if let copy = try? bandwidth?.frame(bytes: copyBytes, threads: row.threads) {
                row.copyGBPerS = copy.gigabytesPerSecond
                row.bwFraction = row.gbPerS! / copy.gigabytesPerSecond
            }
            if probeDRAM, let dram = try? bandwidth?.dram(lastLevelCache: host.lastLevelCacheBytes, threads: row.threads) {
                row.dramCopyGBPerS = dram.gigabytesPerSecond
            }
        }
        if let work, let bandwidth { limit(&row, work: work, bandwidth: bandwidth) }
        row.budgetMs = budget.milliseconds
        // The verdict only means something for a whole frame.
        if row.width == verdictWidth && row.height == verdictHeight {
            row.fitsBudget = budget.fits(p95Ms: ms.p95)
        }
    }
}
