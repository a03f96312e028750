import Foundation
import RasterKit
import RasterReference

/// What a run measures against and how hard it tries.
public struct RunConfiguration: Sendable {
    public var profile: DeviceProfile
    public var budget: Budget
    public var sampler: SamplerSettings
    public var host: HostInfo
    /// ISO 8601, UTC, the run's start.
    public var date: String
    /// Whether to probe DRAM copy bandwidth (two buffers of twice the
    /// last-level cache); off for quick checks on small machines.
    public var probeDRAM = true
    /// Busy threads the caller keeps running while the rows are measured
    /// (`Contention`), recorded in every row.
    public var contend = 0

    public init(profile: DeviceProfile, budget: Budget, sampler: SamplerSettings,
                host: HostInfo = .current(), date: Date = Date()) {
        self.profile = profile; self.budget = budget; self.sampler = sampler; self.host = host
        self.date = RunConfiguration.isoDate(date)
    }

    public static func isoDate(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }
}

/// Where a run is: for the progress line.
public struct RunProgress: Sendable {
    public var index: Int
    public var total: Int
    public var label: String
    public var elapsed: Double
}

/// Measures workloads one after the other and turns each into a row:
/// statistics, throughput, the bandwidth fraction, the budget verdict and
/// the quality against the reference (computed outside any timed region).
public final class SuiteRunner {
    public let config: RunConfiguration
    public let bandwidth: BandwidthTable
    private var references: [(key: String, values: [Double])] = []
    private var qualities: [QualityKey: Quality] = [:]
    /// The image does not depend on the thread count: the key leaves it out.
    private struct QualityKey: Hashable { var workload: MeasurementKey; var reference: String }
    /// References kept at once: each is width * height * 4 Doubles (32 MB
    /// for a 750x1334 frame), and consecutive workloads share one.
    static let referenceCacheSize = 2

    public init(config: RunConfiguration) {
        self.config = config
        self.bandwidth = BandwidthTable(settings: config.sampler)
    }

    public func run(_ workloads: [Workload], progress: (RunProgress) -> Void = { _ in }) -> [ReportRow] {
        let start = MonotonicClock.now()
        var rows: [ReportRow] = []
        for (i, w) in workloads.enumerated() {
            progress(RunProgress(index: i + 1, total: workloads.count, label: w.label,
                                 elapsed: MonotonicClock.seconds(since: start)))
            rows.append(measure(w))
        }
        SuiteRunner.fillSpeedups(&rows)
        return rows
    }

    /// Builds the rows (shared with `bench`).
    public var rowBuilder: RowBuilder {
        var b = RowBuilder(host: config.host, date: config.date, profile: config.profile.name, budget: config.budget,
                           verdictWidth: config.profile.width, verdictHeight: config.profile.height)
        b.probeDRAM = config.probeDRAM
        b.contend = config.contend
        return b
    }

    /// A row with the run's provenance and the workload's coordinates, no numbers yet.
    public func baseRow(_ w: Workload) -> ReportRow {
        rowBuilder.base(w.key, items: w.items, itemUnit: w.itemUnit, bytesPerRun: w.bytesPerRun, note: w.note)
    }

    /// `withQuality: false` leaves the quality columns empty: rounds
    /// (Rounds.swift) measure it once, in plan order, after timing.
    public func measure(_ w: Workload, withQuality: Bool = true) -> ReportRow {
        var row = baseRow(w)
        let instance: WorkloadInstance
        let samples: Samples
        do {
            instance = try w.make()
            var sampler = config.sampler
            if let floor = w.floorSamples { sampler.floorSamples = min(sampler.floorSamples, floor) }
            samples = try Sampler.measure(sampler, instance.body)
        } catch let e as RasterError {
            if case .unsupported = e { row.status = .unsupported } else { row.status = .error }
            row.note = [row.note, e.description].filter { !$0.isEmpty }.joined(separator: "; ")
            return row
        } catch {
            row.status = .error
            row.note = [row.note, "\(error)"].filter { !$0.isEmpty }.joined(separator: "; ")
            return row
        }
        fill(&row, samples: samples, workload: w, work: instance.work ?? w.work)
        if samples.nanoseconds.count < config.sampler.minSamples {
            // Said in the row, not only in the samples column: a median of
            // two is a rough figure (the naive backend's slowest scenes).
            row.note = [row.note, "sampled sparingly: \(samples.nanoseconds.count) samples, the \(Human.number(config.sampler.maxTime)) s per-row limit reached"]
                .filter { !$0.isEmpty }.joined(separator: "; ")
        }
        if withQuality { applyQuality(&row, w, instance) }
        return row
    }

    /// Fills the quality columns, or says in the note why they are empty: a
    /// reference or an output that fails is reported, never dropped (the
    /// row's timing stands, so its status stays ok).
    public func applyQuality(_ row: inout ReportRow, _ w: Workload, _ instance: WorkloadInstance) {
        do {
            guard let q = try quality(w, instance) else { return }
            row.psnrDb = q.psnr
            row.maxErr = q.maxError
            row.qualityOn = "\(w.width)x\(w.height) frame vs RasterReference"
        } catch {
            row.note = [row.note, "quality not measured: \(error)"].filter { !$0.isEmpty }.joined(separator: "; ")
        }
    }

    /// Statistics, throughput, bandwidth and budget from the samples.
    public func fill(_ row: inout ReportRow, samples: Samples, workload w: Workload, work: WorkFloor?) {
        rowBuilder.fill(&row, samples: samples, bandwidth: bandwidth, work: work)
    }

    /// The output's quality, once per (kernel, variant, backend, size,
    /// parameters): the image does not depend on the thread count.
    /// nil when the workload has no reference or no image; throws when the
    /// output or the reference fails.
    func quality(_ w: Workload, _ instance: WorkloadInstance) throws -> Quality? {
        guard let source = w.reference, let output = instance.output else { return nil }
        let key = QualityKey(workload: w.key.anyThreads, reference: source.key)
        if let q = qualities[key] { return q }
        let view = try output()
        let reference: [Double]
        if let cached = references.first(where: { $0.key == source.key }) {
            reference = cached.values
        } else {
            let values = try source.compute()
            reference = values
            references.append((source.key, reference))
            if references.count > SuiteRunner.referenceCacheSize { references.removeFirst() }
        }
        let diff = ImageDiff(view, reference: reference)
        let q = Quality(psnr: diff.psnr, maxError: diff.maxError)
        qualities[key] = q
        return q
    }

    /// speedup = median at 1 thread / median at n threads, for rows with
    /// n > 1 whose 1-thread twin (same workload, same run) exists.
    public static func fillSpeedups(_ rows: inout [ReportRow]) {
        var single: [MeasurementKey: Double] = [:]
        for r in rows where r.isOK && r.threads == 1 {
            if let m = r.medianMs { single[r.key.anyThreads] = m }
        }
        for i in rows.indices where rows[i].isOK && rows[i].threads > 1 {
            if let one = single[rows[i].key.anyThreads], let m = rows[i].medianMs, m > 0 { rows[i].speedup = one / m }
        }
    }
}
