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

    public func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try e.encode(self)
    }

    public static func decode(_ data: Data, path: String) throws -> RunReport {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do { return try d.decode(RunReport.self, from: data) }
        catch let DecodingError.dataCorrupted(ctx) {
            throw HarnessError.malformedReport(path: path, line: 1, reason: "not a rasterbench JSON report: \(ctx.debugDescription)")
        } catch {
            throw HarnessError.malformedReport(path: path, line: 1, reason: "not a rasterbench JSON report: \(error)")
        }
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
