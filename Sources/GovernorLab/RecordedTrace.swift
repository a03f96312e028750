import Foundation
import RasterHarness
import RasterKit

/// A trace written by `rasterbench governor --record`: the CSV
/// `frame,level,label,psnr_db,ms`, every frame drawn at every level.
///
/// The file is read in chunks and only the times are kept (8 bytes a row),
/// so memory follows the rows accepted, not the file's size; a file with
/// more than `maxRows` rows is refused as soon as the row after the limit is
/// read. Every number is bounded so that the simulations' arithmetic stays
/// exact (`BufferSimulator.maxTick`): times within `msRange`, a budget within
/// `budgetRange`.
public enum RecordedTrace {
    public static let header = ["frame", "level", "label", "psnr_db", "ms"]
    /// Rows (frames x levels) read at most: 2 million is 8 hours of frames
    /// at 60 fps on one level, and 16 MB of times.
    public static let maxRows = 2_000_000
    /// Levels 0...maxLevel.
    public static let maxLevel = 64
    /// A frame time: 0 to 1000 s.
    public static let msRange: ClosedRange<Double> = 0...1_000_000
    /// A budget for the recorded traces: 1 µs to 1000 s.
    public static let budgetRange: ClosedRange<Double> = 0.001...1_000_000

    static let budgetAccepted = "a time in ms from \(budgetRange.lowerBound) to \(Int(budgetRange.upperBound))"

    /// A budget typed on the command line: a plain decimal within `budgetRange`.
    public static func parseBudget(_ text: String, name: String) throws -> Double {
        guard let ms = DecimalText.parse(text) else {
            throw HarnessError.invalidArgument(name: name, value: "'\(RasterError.escaped(text))'", accepted: budgetAccepted)
        }
        try checkBudget(ms, name: name)
        return ms
    }

    /// Throws unless `ms` is a usable budget for a recorded trace.
    public static func checkBudget(_ ms: Double, name: String) throws {
        guard ms.isFinite, budgetRange.contains(ms) else {
            throw HarnessError.invalidArgument(name: name, value: "\(ms)", accepted: budgetAccepted)
        }
    }

    /// The trace in the file at `path` and its front: each level's
    /// predicted time is its median over the trace. `maxRows` is for tests.
    public static func load(_ path: String, maxRows: Int = maxRows) throws -> (FrameTrace, [GovernorLevel]) {
        let shown = RasterError.escaped(path, limit: 200)
        var parser = Parser(path: shown, maxRows: maxRows)
        var pending: [UInt8] = []
        try InputFile.forEachChunk(path) { chunk in
            pending.append(contentsOf: chunk)
            // Whole lines only; the rest waits for the next chunk.
            guard let end = pending.lastIndex(of: UInt8(ascii: "\n")) else { return }
            try parser.parse(pending[...end])
            pending.removeSubrange(...end)
        }
        if !pending.isEmpty { try parser.parse(pending[...]) }
        return try parser.finish(name: RasterError.escaped(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent))
    }

    /// Line-by-line state: the times by level and frame, each level's label and quality.
    struct Parser {
        let path: String
        let maxRows: Int
        var linesBefore = 0
        var sawHeader = false
        var rows = 0
        var times: [[Double]] = [] // [level][frame]
        var labels: [String] = []
        var quality: [Double] = []

        mutating func parse(_ bytes: ArraySlice<UInt8>) throws {
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                try CSV.forEachRecord(text, path: path) { try record($0.fields, line: $0.line) }
            } catch let HarnessError.malformedReport(path, line, column, reason) {
                // Lines counted from this piece's start, by the parser and by `record`.
                throw HarnessError.malformedReport(path: path, line: linesBefore + line, column: column, reason: reason)
            }
            linesBefore += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }

        mutating func record(_ fields: [String], line: Int) throws {
            guard sawHeader else {
                guard fields == RecordedTrace.header else {
                    throw HarnessError.malformedReport(path: path, line: line, reason: "expected the header frame,level,label,psnr_db,ms")
                }
                sawHeader = true
                return
            }
            if fields == [""] { return }
            rows += 1
            guard rows <= maxRows else {
                throw HarnessError.malformedReport(path: path, line: line,
                                                   reason: "more than \(maxRows) rows (frames x levels), the most a trace may hold")
            }
            guard fields.count == 5, let frame = Int(fields[0]), let level = Int(fields[1]),
                  let psnr = fields[3] == "inf" ? .infinity : DecimalText.parse(fields[3]), let ms = DecimalText.parse(fields[4]),
                  frame >= 0, (0...RecordedTrace.maxLevel).contains(level)
            else {
                throw HarnessError.malformedReport(path: path, line: line,
                                                   reason: "expected frame,level,label,psnr_db,ms (frame >= 0, level 0...\(RecordedTrace.maxLevel))")
            }
            guard ms.isFinite, RecordedTrace.msRange.contains(ms) else {
                throw HarnessError.malformedReport(path: path, line: line,
                                                   reason: "ms \(fields[4].prefix(40)) is not a time from 0 to \(Int(RecordedTrace.msRange.upperBound)) ms")
            }
            guard psnr >= 0 else { // "inf" is an exact match, as `--record` writes it
                throw HarnessError.malformedReport(path: path, line: line, reason: "psnr_db \(fields[3].prefix(40)) is not a PSNR >= 0 dB")
            }
            while times.count <= level { times.append([]); labels.append(""); quality.append(0) }
            guard times[level].count == frame else {
                throw HarnessError.malformedReport(path: path, line: line, reason: "frames of level \(level) out of order")
            }
            times[level].append(ms)
            labels[level] = RasterError.escaped(fields[2])
            quality[level] = psnr
        }

        func finish(name: String) throws -> (FrameTrace, [GovernorLevel]) {
            guard sawHeader else {
                throw HarnessError.malformedReport(path: path, line: 1, reason: "expected the header frame,level,label,psnr_db,ms")
            }
            guard let n = times.first?.count, n > 0, times.allSatisfy({ $0.count == n }) else {
                throw HarnessError.malformedReport(path: path, line: 1, reason: "every level needs the same number of frames")
            }
            // The front: the levels no other level beats on both median time
            // and quality (a noisy recording can reorder close levels), by
            // the chooser's own rule; the level number rides in the variant.
            let medians = times.map { $0.sorted()[n / 2] }
            let options = times.indices.map { i in
                FrontOption(target: name, variant: "\(i)", backend: .naive, threads: 1, p95Ms: medians[i],
                            medianMs: medians[i], psnrDb: quality[i])
            }
            let kept = QualityFront.pareto(options).compactMap { Int($0.variant) }
            let front = kept.map { i in
                GovernorLevel(id: i, label: labels[i], predictedMs: medians[i], quality: quality[i])
            }
            let table = kept.map { times[$0] }
            let trace = FrameTrace(name: name, summary: "recorded", frames: n) { frame, level in table[level][frame] }
            return (trace, front)
        }
    }
}
