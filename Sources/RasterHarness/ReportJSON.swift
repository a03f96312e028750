import Foundation
import RasterKit

/// A whole run in one JSON document: the host, the settings, the copy
/// bandwidths and every row with every raw sample, so a run made on a slow
/// device can be analysed (or compared, re-summarised, plotted) elsewhere.
public struct RunReport: Codable, Sendable {
    public var format = "rasterbench-report"
    public var suiteVersion = SuiteVersion.current
    public var date: String
    public var host: HostInfo
    public var profile: DeviceProfile
    public var budget: Budget
    public var sampler: SamplerSettings
    public var clockResolutionNs: Double
    public var bandwidth: [CopyBandwidth]
    public var rows: [ReportRow]

    public init(date: String, host: HostInfo, profile: DeviceProfile, budget: Budget, sampler: SamplerSettings,
                bandwidth: [CopyBandwidth], rows: [ReportRow]) {
        self.date = date; self.host = host; self.profile = profile; self.budget = budget
        self.sampler = sampler; self.bandwidth = bandwidth; self.rows = rows
        self.clockResolutionNs = Double(MonotonicClock.resolutionNanoseconds)
    }

    public func encoded() throws -> Data { try JSONOutput.encode(self) }

    /// Decodes a report and checks every row (`ReportRowRules`, as the CSV
    /// reader does). An error names the line and column of the offending
    /// value (or of the syntax error) and its place, e.g. rows[3].medianMs.
    public static func decode(_ data: Data, path: String) throws -> RunReport {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let report: RunReport
        do { report = try d.decode(RunReport.self, from: data) }
        catch let error as DecodingError {
            throw malformed(path: path, data: data, error)
        } catch {
            throw HarnessError.malformedReport(path: path, line: 1, reason: "not a rasterbench JSON report: \(RasterError.escaped("\(error)", limit: 200))")
        }
        for (i, row) in report.rows.enumerated() {
            guard let p = ReportRowRules.problem(row) else { continue }
            let text = JSONTextPosition([UInt8](data))
            let at = text.offset(of: [.key("rows"), .index(i), .key(p.key)]) ?? text.offset(of: [.key("rows"), .index(i)]) ?? 0
            let (line, column) = text.lineAndColumn(at)
            throw HarnessError.malformedReport(path: path, line: line, column: column, reason: "rows[\(i)].\(p.key) \(p.reason)")
        }
        return report
    }

    /// The decoder's error placed in the text: a syntax error where the
    /// structure breaks, a bad or missing value where its object is.
    static func malformed(path: String, data: Data, _ error: DecodingError) -> HarnessError {
        let text = JSONTextPosition([UInt8](data))
        let context: DecodingError.Context
        var what: String
        switch error {
        case let .typeMismatch(_, c), let .valueNotFound(_, c): context = c; what = c.debugDescription
        case let .keyNotFound(key, c): context = c; what = "missing key '\(RasterError.escaped(key.stringValue))'"
        case let .dataCorrupted(c): context = c; what = c.debugDescription
        @unknown default: return .malformedReport(path: path, line: 1, reason: "not a rasterbench JSON report: \(RasterError.escaped("\(error)", limit: 200))")
        }
        what = RasterError.escaped(what, limit: 200)
        let steps = JSONTextPosition.steps(context.codingPath)
        if steps.isEmpty, let (offset, reason) = text.syntaxError() {
            let (line, column) = text.lineAndColumn(offset)
            return .malformedReport(path: path, line: line, column: column, reason: "not valid JSON: \(reason)")
        }
        guard !steps.isEmpty, let offset = text.offset(of: steps) else {
            return .malformedReport(path: path, line: 1, reason: "not a rasterbench JSON report: \(what)")
        }
        let (line, column) = text.lineAndColumn(offset)
        return .malformedReport(path: path, line: line, column: column,
                                reason: "\(RasterError.escaped(JSONTextPosition.text(steps), limit: 120)): \(what) (not a rasterbench JSON report?)")
    }
}

/// Loads the rows of a report file, CSV or JSON by extension.
public enum ReportFile {
    public static func load(_ path: String) throws -> [ReportRow] {
        // Only a regular file (a FIFO or /dev/zero would hang or never end).
        let data = try InputFile.read(path)
        if path.lowercased().hasSuffix(".json") {
            return try RunReport.decode(data, path: path).rows
        }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard CSV.isValidUTF8(bytes) else {
                throw HarnessError.malformedReport(path: path, line: 1, reason: "not UTF-8 text")
            }
            return try ReportCSV.parse(utf8: bytes, path: path)
        }
    }
}
