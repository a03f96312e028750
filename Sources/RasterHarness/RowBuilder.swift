import Foundation

/// Where a measurement sits: what `run`'s workloads and `bench`'s job have
/// in common, all a report row needs besides the samples.
public struct RowCoordinates: Sendable {
    public var kernel: String
    public var variant: String
    public var backend: String
    public var threads: Int
    public var width: Int
    public var height: Int
    public var sweep: SweepKind? = nil
    public var param: String = ""
    /// Work per run and its unit ("px", "anchor").
    public var items: Int
    public var itemUnit: String = "px"
    /// Bytes read plus written per run, for memory-bound work; nil otherwise.
    public var bytesPerRun: Int? = nil
    /// The least traffic and arithmetic a run needs; nil when no model exists.
    public var work: WorkFloor? = nil
    public var note: String = ""

    public init(kernel: String, variant: String, backend: String, threads: Int, width: Int, height: Int,
                items: Int? = nil, param: String = "", note: String = "") {
        self.kernel = kernel; self.variant = variant; self.backend = backend; self.threads = threads
        self.width = width; self.height = height; self.items = items ?? width * height
        self.param = param; self.note = note
    }
}

extension Workload {
    public var coordinates: RowCoordinates {
        var c = RowCoordinates(kernel: kernel, variant: variant, backend: backend.rawValue, threads: threads,
                               width: width, height: height, items: items, param: param, note: note)
        c.sweep = sweep; c.itemUnit = itemUnit; c.bytesPerRun = bytesPerRun; c.work = work
        return c
    }
}

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

    /// A row with the provenance and the coordinates, no numbers yet.
    public func base(_ c: RowCoordinates) -> ReportRow {
        let h = host
        var row = ReportRow()
        row.gitCommit = h.gitCommit; row.date = date; row.host = h.hostname; row.hostCPU = h.cpuModel
        row.hostCores = h.cores; row.os = h.os; row.swiftVersion = h.swiftVersion; row.build = h.build
        row.optimized = h.optimized; row.compilerFlags = h.compilerFlags; row.openMP = h.openMP
        row.profile = profile; row.fps = budget.fps
        row.kernel = c.kernel; row.variant = c.variant; row.backend = c.backend; row.threads = c.threads
        row.width = c.width; row.height = c.height; row.sweep = RowSweep(c.sweep); row.param = c.param
        row.itemsPerRun = c.items; row.itemUnit = c.itemUnit; row.bytesPerRun = c.bytesPerRun
        row.budgetShare = budget.share
        row.loadAverage = HostInfo.loadAverage()
        row.contend = contend
        row.note = c.note
        if !h.optimized { row.note = (row.note.isEmpty ? "" : row.note + "; ") + "DEBUG BUILD: times not meaningful" }
        return row
    }

    /// The row's limit from its work floor and the run's two ceilings: the
    /// frame-sized copy bandwidth at the row's threads (one frame's traffic
    /// is what a frame-sized kernel competes with; cache-resident when the
    /// frame is) and the compute peak times the cores the threads can use.
    /// A limit above the fastest sample means the floor is not one: the
    /// note says so, and `limitAboveTime` finds such rows.
    func limit(_ row: inout ReportRow, work: WorkFloor, coordinates c: RowCoordinates, bandwidth: BandwidthTable) {
        row.workBytes = work.bytes; row.workFlops = work.flops
        let frameBytes = c.width > 0 ? 4 * c.width * c.height : max(64, Int(work.bytes / 2))
        guard let copy = try? bandwidth.frame(bytes: frameBytes, threads: c.threads),
              let peak = try? bandwidth.computePeak(), let median = row.medianMs, median > 0 else { return }
        row.copyGBPerS = row.copyGBPerS ?? copy.gigabytesPerSecond
        row.peakGflops = peak.gigaflopsPerSecond
        let cores = Double(max(1, min(c.threads, host.cores)))
        let memoryMs = work.bytes / copy.bytesPerSecond * 1e3
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
    public func fill(_ row: inout ReportRow, samples: Samples, coordinates c: RowCoordinates, bandwidth: BandwidthTable?) {
        let ms = samples.summary.scaled(by: 1e-6)
        row.samples = ms.count; row.batch = samples.batch
        row.medianMs = ms.median; row.p95Ms = ms.p95; row.p99Ms = ms.p99
        row.minMs = ms.min; row.maxMs = ms.max; row.madMs = ms.mad; row.meanMs = ms.mean
        row.outliers = ms.outliers
        row.samplesMs = samples.nanoseconds.map { $0 * 1e-6 }
        let seconds = ms.median / 1e3
        if c.itemUnit == "px" && c.items > 0 { row.mpixPerS = Double(c.items) / seconds / 1e6 }
        if let bytes = c.bytesPerRun {
            row.gbPerS = Double(bytes) / seconds / 1e9
            // One frame for image kernels (docs/measurement.md §2); otherwise a copy with the same traffic.
            let copyBytes = c.width > 0 ? 4 * c.width * c.height : bytes / 2
            if let copy = try? bandwidth?.frame(bytes: copyBytes, threads: c.threads) {
                row.copyGBPerS = copy.gigabytesPerSecond
                row.bwFraction = row.gbPerS! / copy.gigabytesPerSecond
            }
            if probeDRAM, let dram = try? bandwidth?.dram(lastLevelCache: host.lastLevelCacheBytes, threads: c.threads) {
                row.dramCopyGBPerS = dram.gigabytesPerSecond
            }
        }
        if let work = c.work, let bandwidth { limit(&row, work: work, coordinates: c, bandwidth: bandwidth) }
        row.budgetMs = budget.milliseconds
        // The verdict only means something for a whole frame.
        if c.width == verdictWidth && c.height == verdictHeight {
            row.fitsBudget = budget.fits(p95Ms: ms.p95)
        }
    }
}
