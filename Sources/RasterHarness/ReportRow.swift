import Foundation

/// One line of a report: one measurement (`MeasurementKey`) on one host.
///
/// Every row carries its provenance (host, build, commit) so that rows cut
/// from different reports and pasted together still say where they came from.
/// Optional numbers are empty in the CSV: an unsupported workload has no
/// time, a kernel without a reference has no PSNR.
///
/// The fields are stored in groups; `row.medianMs` reads `row.timing.medianMs`
/// (dynamic member lookup), and the JSON form is flat, one key per field,
/// as it was before the groups.
@dynamicMemberLookup
public struct ReportRow: Sendable, Codable, Equatable {
    public var provenance = Provenance()
    /// What was measured.
    public var key = MeasurementKey()
    public var timing = Timing()
    public var throughput = Throughput()
    public var budget = BudgetFields()
    public var quality = QualityFields()
    public var repetition = Repetition()

    public init() {}

    /// Where and how the row was measured.
    public struct Provenance: Sendable, Codable, Equatable {
        public var suiteVersion = SuiteVersion.current
        public var gitCommit = ""
        public var date = ""
        public var host = ""
        public var hostCPU = ""
        public var hostCores = 0
        public var os = ""
        public var swiftVersion = ""
        public var build = ""
        public var optimized = true
        public var compilerFlags = ""
        public var openMP = false
        /// The host's 1-minute load average when the row was measured: above
        /// the core count, other processes were competing for the CPU.
        public var loadAverage: Double? = nil
        /// Busy threads that competed for the cores while the row was measured
        /// (`run --contend`); nil in reports written before it existed.
        public var contend: Int? = nil
        public var note = ""
    }

    /// Milliseconds per iteration.
    public struct Timing: Sendable, Codable, Equatable {
        /// ok, unsupported or error ("ok", ... in the CSV).
        public var status = RowStatus.ok
        public var samples = 0
        public var batch = 1
        public var medianMs: Double? = nil
        public var p95Ms: Double? = nil
        public var p99Ms: Double? = nil
        public var minMs: Double? = nil
        public var maxMs: Double? = nil
        public var madMs: Double? = nil
        public var meanMs: Double? = nil
        public var outliers: Int? = nil
        /// Every sample, milliseconds per iteration, in the order taken.
        public var samplesMs: [Double] = []
    }

    /// Throughput and the physical limit.
    public struct Throughput: Sendable, Codable, Equatable {
        public var mpixPerS: Double? = nil
        /// Work items per run and their unit ("px", "anchor").
        public var itemsPerRun: Int? = nil
        public var itemUnit = "px"
        public var bytesPerRun: Int? = nil
        public var gbPerS: Double? = nil
        public var copyGBPerS: Double? = nil
        public var bwFraction: Double? = nil
        public var dramCopyGBPerS: Double? = nil
        /// The floor of a run (`KernelWork`): bytes moved and floating-point
        /// operations, and one core's compute peak measured in the same run.
        public var workBytes: Double? = nil
        public var workFlops: Double? = nil
        public var peakGflops: Double? = nil
        /// The larger of the memory floor (work_bytes at copy_gb_per_s) and
        /// the compute floor (work_flops at peak_gflops x threads), in ms;
        /// and limit_ms / median_ms, how close the row is to what the host allows.
        public var limitMs: Double? = nil
        public var limitShare: Double? = nil
        /// Median time at 1 thread / median time at `threads`, same workload and run.
        public var speedup: Double? = nil
    }

    /// The frame budget and the verdict.
    public struct BudgetFields: Sendable, Codable, Equatable {
        public var fps: Double? = nil
        public var budgetMs: Double? = nil
        public var budgetShare: Double? = nil
        public var fitsBudget: Bool? = nil
    }

    /// Quality against RasterReference.
    public struct QualityFields: Sendable, Codable, Equatable {
        public var psnrDb: Double? = nil
        public var maxErr: Double? = nil
        public var qualityOn = ""
    }

    /// Rounds (docs/measurement.md §3). Optional so that reports written before
    /// rounds existed still decode: nil means one round.
    public struct Repetition: Sendable, Codable, Equatable {
        /// Rounds the workload was measured in; `median_ms` is then the median of the round medians.
        public var rounds: Int? = nil
        /// (slowest - fastest round median) / median_ms: how far runs disagree.
        public var roundSpread: Double? = nil
        /// The round (1-based) of each sample in `samplesMs`, same order.
        public var sampleRounds: [Int]? = nil
    }

    public subscript<T>(dynamicMember kp: WritableKeyPath<Provenance, T>) -> T {
        get { provenance[keyPath: kp] } set { provenance[keyPath: kp] = newValue }
    }
    public subscript<T>(dynamicMember kp: WritableKeyPath<MeasurementKey, T>) -> T {
        get { key[keyPath: kp] } set { key[keyPath: kp] = newValue }
    }
    /// The key's computed properties (`paramText`, `scaleLabel`).
    public subscript<T>(dynamicMember kp: KeyPath<MeasurementKey, T>) -> T { key[keyPath: kp] }
    public subscript<T>(dynamicMember kp: WritableKeyPath<Timing, T>) -> T {
        get { timing[keyPath: kp] } set { timing[keyPath: kp] = newValue }
    }
    public subscript<T>(dynamicMember kp: WritableKeyPath<Throughput, T>) -> T {
        get { throughput[keyPath: kp] } set { throughput[keyPath: kp] = newValue }
    }
    public subscript<T>(dynamicMember kp: WritableKeyPath<BudgetFields, T>) -> T {
        get { budget[keyPath: kp] } set { budget[keyPath: kp] = newValue }
    }
    public subscript<T>(dynamicMember kp: WritableKeyPath<QualityFields, T>) -> T {
        get { quality[keyPath: kp] } set { quality[keyPath: kp] = newValue }
    }
    public subscript<T>(dynamicMember kp: WritableKeyPath<Repetition, T>) -> T {
        get { repetition[keyPath: kp] } set { repetition[keyPath: kp] = newValue }
    }

    // Every group writes its fields into the row's one JSON object.
    public init(from decoder: Decoder) throws {
        provenance = try Provenance(from: decoder)
        key = try MeasurementKey(from: decoder)
        timing = try Timing(from: decoder)
        throughput = try Throughput(from: decoder)
        budget = try BudgetFields(from: decoder)
        quality = try QualityFields(from: decoder)
        repetition = try Repetition(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        try provenance.encode(to: encoder)
        try key.encode(to: encoder)
        try timing.encode(to: encoder)
        try throughput.encode(to: encoder)
        try budget.encode(to: encoder)
        try quality.encode(to: encoder)
        try repetition.encode(to: encoder)
    }

    public var isOK: Bool { timing.status == .ok }
}

public enum RowStatus: String, Sendable, Codable, CaseIterable {
    case ok, unsupported, error
}

// MARK: - Number formatting

public enum NumberFormat {
    /// Six significant digits in plain decimal notation (no exponent), so
    /// reports stay readable and diff-able; "inf" and "nan" spelled out.
    public static func decimal(_ v: Double, significant: Int = 6) -> String {
        if v.isNaN { return "nan" }
        if v.isInfinite { return v > 0 ? "inf" : "-inf" }
        if v == 0 { return "0" }
        let magnitude = Int(floor(log10(abs(v))))
        let decimals = min(15, max(0, significant - 1 - magnitude))
        var s = String(format: "%.\(decimals)f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    public static func parseDouble(_ s: String) -> Double? {
        switch s.lowercased() {
        case "inf", "+inf", "infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        case "nan": return .nan
        default: return isDecimal(s) ? Double(s) : nil
        }
    }

    /// A finite number written in plain decimal (no hex, inf or nan).
    public static func parseFinite(_ s: String) -> Double? {
        guard isDecimal(s), let v = Double(s), v.isFinite else { return nil }
        return v
    }

    /// Plain decimal syntax: [+-]digits[.digits][e[+-]digits], at least one
    /// digit in the mantissa. Swift's `Double("0x10")` is 16 and
    /// `Double(" 1")` nil; a report holds neither hex nor spaces.
    public static func isDecimal(_ s: String) -> Bool {
        let u = Array(s.utf8)
        var i = 0, digits = 0
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
        while i < u.count, isDigit(u[i]) { i += 1; digits += 1 }
        if i < u.count, u[i] == 0x2E { i += 1; while i < u.count, isDigit(u[i]) { i += 1; digits += 1 } }
        guard digits > 0 else { return false }
        if i < u.count, u[i] == 0x65 || u[i] == 0x45 {
            i += 1
            if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
            var exponent = 0
            while i < u.count, isDigit(u[i]) { i += 1; exponent += 1 }
            guard exponent > 0 else { return false }
        }
        return i == u.count
    }
}
