import RasterKit
/// The CSV form of a report: docs/measurement.md §6's columns and the harness's
/// extras, in one pinned order.
///
/// The column list below *is* the format: the header, the writer and the
/// reader all derive from it, and HarnessTests pin the header as a literal
/// string, so a column cannot move or vanish without a test saying so.
/// Readers look columns up by name, so reports from older or other tools
/// with fewer columns still load as long as the required ones are present.
public enum ReportCSV {
    struct Column {
        let name: String
        let write: (ReportRow) -> String
        /// Sets the field from its text; nil error = fine, else the reason.
        let read: (inout ReportRow, String) -> String?
        /// Text that repeats from row to row (host, date...): kept once.
        var interned = false
    }

    static func string(_ name: String, _ kp: WritableKeyPath<ReportRow, String>) -> Column {
        Column(name: name, write: { $0[keyPath: kp] }, read: { r, s in r[keyPath: kp] = s; return nil }, interned: true)
    }

    /// An enum stored as its raw text; an unknown text is an error naming the accepted ones.
    static func enumeration<E: RawRepresentable & CaseIterable>(_ name: String, _ kp: WritableKeyPath<ReportRow, E>) -> Column
    where E.RawValue == String {
        Column(name: name, write: { $0[keyPath: kp].rawValue }, read: { r, s in
            guard let v = E(rawValue: s) else { return "\(name) '\(s)' is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))" }
            r[keyPath: kp] = v; return nil
        })
    }

    static func int(_ name: String, _ kp: WritableKeyPath<ReportRow, Int>) -> Column {
        Column(name: name, write: { String($0[keyPath: kp]) }, read: { r, s in
            guard let v = Int(s) else { return "\(name) '\(RasterError.escaped(s))' is not an integer" }
            r[keyPath: kp] = v; return nil
        })
    }

    static func optInt(_ name: String, _ kp: WritableKeyPath<ReportRow, Int?>) -> Column {
        Column(name: name, write: { $0[keyPath: kp].map(String.init) ?? "" }, read: { r, s in
            if s.isEmpty { r[keyPath: kp] = nil; return nil }
            guard let v = Int(s) else { return "\(name) '\(RasterError.escaped(s))' is not an integer" }
            r[keyPath: kp] = v; return nil
        })
    }

    static func optDouble(_ name: String, _ kp: WritableKeyPath<ReportRow, Double?>) -> Column {
        Column(name: name, write: { $0[keyPath: kp].map { NumberFormat.decimal($0) } ?? "" }, read: { r, s in
            if s.isEmpty { r[keyPath: kp] = nil; return nil }
            guard let v = NumberFormat.parseDouble(s) else { return "\(name) '\(RasterError.escaped(s))' is not a number" }
            r[keyPath: kp] = v; return nil
        })
    }

    /// A time in milliseconds: a finite decimal number (no hex, no inf or
    /// nan); whether it is a plausible time is `ReportRowRules`' to say.
    static func time(_ name: String, _ kp: WritableKeyPath<ReportRow, Double?>) -> Column {
        Column(name: name, write: { $0[keyPath: kp].map { NumberFormat.decimal($0) } ?? "" }, read: { r, s in
            if s.isEmpty { r[keyPath: kp] = nil; return nil }
            guard let v = NumberFormat.parseFinite(s) else {
                return "\(name) '\(RasterError.escaped(s))' is not a time (accepted: a finite decimal number of ms)"
            }
            r[keyPath: kp] = v; return nil
        })
    }

    static func bool(_ name: String, _ kp: WritableKeyPath<ReportRow, Bool>) -> Column {
        Column(name: name, write: { $0[keyPath: kp] ? "true" : "false" }, read: { r, s in
            guard let v = parseBool(s) else { return "\(name) '\(RasterError.escaped(s))' is not true/false" }
            r[keyPath: kp] = v; return nil
        })
    }

    static func optBool(_ name: String, _ kp: WritableKeyPath<ReportRow, Bool?>) -> Column {
        Column(name: name, write: { $0[keyPath: kp].map { $0 ? "true" : "false" } ?? "" }, read: { r, s in
            if s.isEmpty { r[keyPath: kp] = nil; return nil }
            guard let v = parseBool(s) else { return "\(name) '\(RasterError.escaped(s))' is not true/false" }
            r[keyPath: kp] = v; return nil
        })
    }

    static func parseBool(_ s: String) -> Bool? {
        switch s.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    static let columns: [Column] = [
        string("suite_version", \.suiteVersion),
        string("git_commit", \.gitCommit),
        string("date", \.date),
        string("host", \.host),
        string("host_cpu", \.hostCPU),
        int("host_cores", \.hostCores),
        string("os", \.os),
        string("swift_version", \.swiftVersion),
        string("build", \.build),
        bool("optimized", \.optimized),
        string("compiler_flags", \.compilerFlags),
        bool("openmp", \.openMP),
        optDouble("load_avg", \.loadAverage),
        string("profile", \.key.profile),
        optDouble("fps", \.fps),
        string("kernel", \.key.kernel),
        string("variant", \.key.variant),
        Column(name: "backend", write: { $0.key.backend.rawValue }, read: { r, s in
            guard let b = BackendKind(rawValue: s) else { return "backend \(MeasurementKey.notABackend(s))" }
            r.key.backend = b; return nil
        }),
        int("threads", \.key.threads),
        int("width", \.key.width),
        int("height", \.key.height),
        Column(name: "sweep", write: { $0.key.sweep?.rawValue ?? "" }, read: { r, s in
            guard let sweep = MeasurementKey.sweep(s) else { return "sweep \(MeasurementKey.notASweep(s))" }
            r.key.sweep = sweep; return nil
        }),
        // The text as written; `parse` splits it with the render scale (`MeasurementKey.read`).
        Column(name: "param", write: { $0.key.paramText }, read: { r, s in r.key.parameters = s; return nil }),
        enumeration("status", \.timing.status),
        int("samples", \.samples),
        int("batch", \.batch),
        time("median_ms", \.medianMs),
        time("p95_ms", \.p95Ms),
        time("p99_ms", \.p99Ms),
        time("min_ms", \.minMs),
        time("max_ms", \.maxMs),
        time("mad_ms", \.madMs),
        time("mean_ms", \.meanMs),
        optInt("outliers", \.outliers),
        optDouble("mpix_per_s", \.mpixPerS),
        optInt("items_per_run", \.itemsPerRun),
        string("item_unit", \.itemUnit),
        optInt("bytes_per_run", \.bytesPerRun),
        optDouble("gb_per_s", \.gbPerS),
        optDouble("copy_gb_per_s", \.copyGBPerS),
        optDouble("bw_fraction", \.bwFraction),
        optDouble("dram_copy_gb_per_s", \.dramCopyGBPerS),
        optDouble("speedup", \.speedup),
        optDouble("budget_ms", \.budgetMs),
        optDouble("budget_share", \.budgetShare),
        optBool("fits_budget", \.fitsBudget),
        optDouble("psnr_db", \.psnrDb),
        optDouble("max_err", \.maxErr),
        string("quality_on", \.qualityOn),
        string("note", \.note),
        Column(name: "samples_ms", write: { $0.samplesMs.map { NumberFormat.decimal($0) }.joined(separator: " ") },
               read: { r, s in
                   var out: [Double] = []
                   for t in s.split(separator: " ") {
                       guard let v = NumberFormat.parseFinite(String(t)) else {
                           return "samples_ms value '\(RasterError.escaped(String(t)))' is not a time (accepted: finite decimal numbers of ms)"
                       }
                       out.append(v)
                   }
                   r.samplesMs = out; return nil
               }),
        // Appended after samples_ms so older readers' column positions hold.
        optInt("rounds", \.rounds),
        optDouble("round_spread", \.roundSpread),
        Column(name: "sample_rounds", write: { $0.sampleRounds.map { $0.map(String.init).joined(separator: " ") } ?? "" },
               read: { r, s in
                   if s.isEmpty { r.sampleRounds = nil; return nil }
                   var out: [Int] = []
                   for t in s.split(separator: " ") {
                       guard let v = Int(t) else { return "sample_rounds value '\(RasterError.escaped(String(t)))' is not a round number" }
                       out.append(v)
                   }
                   r.sampleRounds = out; return nil
               }),
        optInt("contend", \.contend),
        // Empty (or no such column: reports before it existed) leaves the
        // scale to `MeasurementKey.read`'s legacy rule; `parse` marks it NaN.
        Column(name: "render_scale", write: { NumberFormat.decimal($0.key.renderScale) }, read: { r, s in
            if s.isEmpty { return nil }
            guard let v = NumberFormat.parseFinite(s) else { return "render_scale '\(RasterError.escaped(s))' is not a number" }
            r.key.renderScale = v; return nil
        }),
        optDouble("work_bytes", \.workBytes),
        optDouble("work_flops", \.workFlops),
        optDouble("peak_gflops", \.peakGflops),
        optDouble("limit_ms", \.limitMs),
        optDouble("limit_share", \.limitShare),
    ]

    /// Columns a report must have to be compared.
    public static let required = ["kernel", "variant", "backend", "threads", "width", "height", "median_ms"]

    public static var header: String { CSV.record(columns.map(\.name)) }
    public static var columnNames: [String] { columns.map(\.name) }

    public static func line(_ row: ReportRow) -> String { CSV.record(columns.map { $0.write(row) }) }

    /// The whole document: header and one record per row, CRLF-terminated.
    public static func document(_ rows: [ReportRow]) -> String {
        ([header] + rows.map(line)).map { $0 + CSV.recordSeparator }.joined()
    }

    /// Reads a report. Unknown columns are ignored; missing optional columns
    /// keep their defaults; everything else wrong is an error naming the line.
    public static func parse(_ text: String, path: String = "<csv>") throws -> [ReportRow] {
        var text = text
        return try text.withUTF8 { try parse(utf8: $0, path: path) }
    }

    /// `parse` on UTF-8 bytes already known to be valid (a file's bytes,
    /// without a String copy of them: half the peak memory of a large report).
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, path: String) throws -> [ReportRow] {
        var head: CSV.Record?
        var index: [String: Int] = [:]
        var known: [(Column, Int)] = []
        var rows: [ReportRow] = []
        // Every row repeats the host, date, commit...: one copy of each
        // distinct text instead of one per row (a million-row report).
        var interned: [String: String] = [:]
        try CSV.forEachRecord(bytes: bytes, path: path) { rec in
            if rec.fields.count == 1 && rec.fields[0].isEmpty { return }
            guard let head else {
                for (i, name) in rec.fields.enumerated() {
                    let n = name.trimmingCharacters(in: .whitespaces)
                    guard index[n] == nil else {
                        throw HarnessError.malformedReport(path: path, line: rec.line,
                                                           reason: "column '\(RasterError.escaped(n))' appears twice in the header")
                    }
                    index[n] = i
                }
                let missing = required.filter { index[$0] == nil }
                guard missing.isEmpty else {
                    throw HarnessError.malformedReport(path: path, line: rec.line,
                                                       reason: "header lacks column(s) \(missing.joined(separator: ", ")) (is this a rasterbench report?)")
                }
                known = columns.compactMap { c in index[c.name].map { (c, $0) } }
                head = rec
                return
            }
            guard rec.fields.count == head.fields.count else {
                throw HarnessError.malformedReport(path: path, line: rec.line,
                                                   reason: "\(rec.fields.count) fields where the header has \(head.fields.count)")
            }
            var row = ReportRow()
            row.key.renderScale = .nan
            for (column, i) in known {
                var field = rec.fields[i]
                if column.interned {
                    if let shared = interned[field] { field = shared } else if interned.count < 100_000 { interned[field] = field }
                }
                if let problem = column.read(&row, field) {
                    throw HarnessError.malformedReport(path: path, line: rec.line, reason: "\(problem) (column \(i + 1))")
                }
            }
            row.key.read(param: row.key.parameters, renderScale: row.key.renderScale.isNaN ? nil : row.key.renderScale)
            if let p = ReportRowRules.problem(row) {
                let at = index[p.column].map { " (column \($0 + 1))" } ?? ""
                throw HarnessError.malformedReport(path: path, line: rec.line, reason: "\(p.column) \(p.reason)\(at)")
            }
            rows.append(row)
        }
        guard head != nil else {
            throw HarnessError.malformedReport(path: path, line: 1, reason: "empty file: no header row")
        }
        return rows
    }
}

import Foundation
