import Foundation

/// One line of a report: one workload (kernel or scene x variant x backend x
/// threads x size) measured on one host.
///
/// Every row carries its provenance (host, build, commit) so that rows cut
/// from different reports and pasted together still say where they came from.
/// Optional numbers are empty in the CSV: an unsupported workload has no
/// time, a kernel without a reference has no PSNR.
public struct ReportRow: Sendable, Codable, Equatable {
    // Provenance.
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
    // What was measured.
    public var profile = ""
    public var fps: Double? = nil
    public var kernel = ""
    public var variant = ""
    public var backend = ""
    public var threads = 1
    public var width = 0
    public var height = 0
    /// `.suite` for the suite proper (empty in the CSV), else the sweep.
    public var sweep = RowSweep.suite
    /// Free-form workload parameters, e.g. "sigma=120" or "anchors=1000000".
    public var param = ""
    /// ok, unsupported or error ("ok", ... in the CSV).
    public var status = RowStatus.ok
    // Timing (milliseconds per iteration).
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
    // Throughput and the physical limit.
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
    /// The larger of the memory floor (work_bytes at copy_gb_per_s) and the
    /// compute floor (work_flops at peak_gflops x threads), in ms; and
    /// limit_ms / median_ms, how close the row is to what the host allows.
    public var limitMs: Double? = nil
    public var limitShare: Double? = nil
    /// Median time at 1 thread / median time at `threads`, same workload and run.
    public var speedup: Double? = nil
    // Budget.
    public var budgetMs: Double? = nil
    public var budgetShare: Double? = nil
    public var fitsBudget: Bool? = nil
    // Quality against RasterReference.
    public var psnrDb: Double? = nil
    public var maxErr: Double? = nil
    public var qualityOn = ""
    public var note = ""
    /// Every sample, milliseconds per iteration, in the order taken.
    public var samplesMs: [Double] = []
    // Rounds (docs/measurement.md §3). Optional so that reports written before
    // rounds existed still decode: nil means one round.
    /// Rounds the workload was measured in; `median_ms` is then the median of the round medians.
    public var rounds: Int? = nil
    /// (slowest - fastest round median) / median_ms: how far runs disagree.
    public var roundSpread: Double? = nil
    /// The round (1-based) of each sample in `samplesMs`, same order.
    public var sampleRounds: [Int]? = nil
    /// Busy threads that competed for the cores while the row was measured
    /// (`run --contend`); nil in reports written before it existed.
    public var contend: Int? = nil

    public init() {}

    /// The identity compare matches rows on.
    public var key: RowKey {
        RowKey(kernel: kernel, variant: variant, backend: backend, profile: profile, threads: threads,
               width: width, height: height, sweep: sweep.rawValue, param: param)
    }

    public var isOK: Bool { status == .ok }
}

public enum RowStatus: String, Sendable, Codable, CaseIterable {
    case ok, unsupported, error
}

/// Which part of a run a row belongs to. The suite proper is the empty
/// text, so CSV and JSON reports read and write exactly as before the enum.
public enum RowSweep: String, Sendable, Codable, CaseIterable {
    case suite = "", size, sigma

    public init(_ kind: SweepKind?) {
        switch kind {
        case nil: self = .suite
        case .size?: self = .size
        case .sigma?: self = .sigma
        }
    }
}

/// What makes two rows "the same measurement" in two reports.
public struct RowKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var kernel, variant, backend, profile: String
    public var threads, width, height: Int
    public var sweep, param: String

    public var description: String {
        var s = "\(kernel)/\(variant)/\(backend) t=\(threads)"
        if width > 0 || height > 0 { s += " \(width)x\(height)" }
        if !profile.isEmpty { s += " \(profile)" }
        if !param.isEmpty { s += " \(param)" }
        if !sweep.isEmpty { s += " [\(sweep) sweep]" }
        return s
    }

    public static func < (a: RowKey, b: RowKey) -> Bool { a.description < b.description }

    /// The key without the backend and thread count, to line up backends.
    public var withoutBackend: RowKey {
        var k = self; k.backend = ""; k.threads = 0; return k
    }
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
