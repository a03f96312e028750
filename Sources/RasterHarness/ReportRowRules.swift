import RasterKit

/// What a report row may hold, checked on the typed row after either reader
/// (CSV or JSON) has built it, so the two formats accept exactly the same
/// rows: a median of -1 ms or NaN, a negative thread count or an unknown
/// backend is refused whichever file it came from.
///
/// The readers check only syntax (is this a number, an integer, a known
/// status); everything about meaning is here.
public enum ReportRowRules {
    /// A field outside what a measurement can be: the CSV column and the
    /// JSON key that hold it, and why (without the field's name).
    public struct Problem: Error, Equatable, Sendable {
        public var column: String
        public var key: String
        public var reason: String
    }

    /// Times a report may hold, in ms: from a femtosecond to 11 days. Outside
    /// it a number is not a measurement, and ratios and log axes of it
    /// overflow or underflow.
    public static let timeRangeMs: ClosedRange<Double> = 1e-9...1e9
    static let timeRangeText = "1e-9...1e9 ms"

    struct Rule {
        let column: String
        let key: String
        let check: (ReportRow) -> String?
    }

    /// The first problem of `row`, nil when the row is fine.
    public static func problem(_ row: ReportRow) -> Problem? {
        for rule in rules {
            if let reason = rule.check(row) { return Problem(column: rule.column, key: rule.key, reason: reason) }
        }
        return nil
    }

    static func int(_ column: String, _ key: String, _ kp: KeyPath<ReportRow, Int>, _ range: ClosedRange<Int>) -> Rule {
        Rule(column: column, key: key) { r in
            range.contains(r[keyPath: kp]) ? nil : "\(r[keyPath: kp]) is out of range (accepted: \(rangeText(range)))"
        }
    }

    static func optInt(_ column: String, _ key: String, _ kp: KeyPath<ReportRow, Int?>, _ range: ClosedRange<Int>) -> Rule {
        Rule(column: column, key: key) { r in
            guard let v = r[keyPath: kp], !range.contains(v) else { return nil }
            return "\(v) is out of range (accepted: empty or \(rangeText(range)))"
        }
    }

    static func rangeText(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? ">= \(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
    }

    /// A time in ms; `zero` for spreads (a MAD of 0 is real).
    static func time(_ column: String, _ key: String, _ kp: KeyPath<ReportRow, Double?>, zero: Bool = false) -> Rule {
        Rule(column: column, key: key) { r in
            guard let v = r[keyPath: kp], !isTime(v, zero: zero) else { return nil }
            return "\(v) is not a time (accepted: empty or \(zero ? "0 or " : "")\(timeRangeText))"
        }
    }

    static func isTime(_ v: Double, zero: Bool) -> Bool { timeRangeMs.contains(v) || (zero && v == 0) }

    /// A rate, fraction or count that is finite and not negative (`positive`: > 0).
    static func amount(_ column: String, _ key: String, _ kp: KeyPath<ReportRow, Double?>, positive: Bool = false) -> Rule {
        Rule(column: column, key: key) { r in
            guard let v = r[keyPath: kp], !(v.isFinite && (positive ? v > 0 : v >= 0)) else { return nil }
            return "\(v) is out of range (accepted: empty or a finite number \(positive ? "> 0" : ">= 0"))"
        }
    }

    static let rules: [Rule] = [
        int("host_cores", "hostCores", \.hostCores, 0...1 << 20),
        amount("load_avg", "loadAverage", \.loadAverage),
        amount("fps", "fps", \.fps, positive: true),
        int("threads", "threads", \.threads, 1...BackendKind.maxThreads),
        int("width", "width", \.width, 0...Image.maxDimension),
        int("height", "height", \.height, 0...Image.maxDimension),
        int("samples", "samples", \.samples, 0...Int.max),
        int("batch", "batch", \.batch, 1...Int.max),
        Rule(column: "median_ms", key: "medianMs") { r in
            r.isOK && r.medianMs == nil ? "is empty but status is ok (accepted: a time for an ok row)" : nil
        },
        time("median_ms", "medianMs", \.medianMs),
        time("p95_ms", "p95Ms", \.p95Ms),
        time("p99_ms", "p99Ms", \.p99Ms),
        time("min_ms", "minMs", \.minMs),
        time("max_ms", "maxMs", \.maxMs),
        time("mad_ms", "madMs", \.madMs, zero: true),
        time("mean_ms", "meanMs", \.meanMs),
        optInt("outliers", "outliers", \.outliers, 0...Int.max),
        amount("mpix_per_s", "mpixPerS", \.mpixPerS),
        optInt("items_per_run", "itemsPerRun", \.itemsPerRun, 0...Int.max),
        optInt("bytes_per_run", "bytesPerRun", \.bytesPerRun, 0...Int.max),
        amount("gb_per_s", "gbPerS", \.gbPerS),
        amount("copy_gb_per_s", "copyGBPerS", \.copyGBPerS),
        amount("bw_fraction", "bwFraction", \.bwFraction),
        amount("dram_copy_gb_per_s", "dramCopyGBPerS", \.dramCopyGBPerS),
        amount("speedup", "speedup", \.speedup),
        amount("budget_ms", "budgetMs", \.budgetMs, positive: true),
        amount("budget_share", "budgetShare", \.budgetShare),
        // PSNR: +inf is "identical to the reference", NaN "the measurement broke" (shown, never chosen).
        Rule(column: "psnr_db", key: "psnrDb") { r in
            guard let v = r.psnrDb, v < 0 else { return nil }
            return "\(v) is out of range (accepted: empty, >= 0, inf or nan)"
        },
        amount("max_err", "maxErr", \.maxErr),
        Rule(column: "samples_ms", key: "samplesMs") { r in
            guard let bad = r.samplesMs.first(where: { !isTime($0, zero: true) }) else { return nil }
            return "value \(bad) is not a time (accepted: 0 or \(timeRangeText))"
        },
        optInt("rounds", "rounds", \.rounds, 1...Int.max),
        amount("round_spread", "roundSpread", \.roundSpread),
        Rule(column: "sample_rounds", key: "sampleRounds") { r in
            guard let ids = r.sampleRounds else { return nil }
            if ids.count != r.samplesMs.count { return "has \(ids.count) values for \(r.samplesMs.count) samples" }
            guard let bad = ids.first(where: { $0 < 0 }) else { return nil }
            return "value \(bad) is not a round number (accepted: >= 0)"
        },
        optInt("contend", "contend", \.contend, 0...Contention.maximum),
        Rule(column: "render_scale", key: "renderScale") { r in
            let v = r.key.renderScale
            return v.isFinite && v > 0 && v <= 1 ? nil : "\(v) is out of range (accepted: a number > 0 and <= 1)"
        },
        amount("work_bytes", "workBytes", \.workBytes),
        amount("work_flops", "workFlops", \.workFlops),
        amount("peak_gflops", "peakGflops", \.peakGflops, positive: true),
        amount("limit_ms", "limitMs", \.limitMs),
        amount("limit_share", "limitShare", \.limitShare),
    ]
}
