import Foundation
import RasterHarness
import RasterKit

// Argument parsing shared by the commands (run, render, choose).

/// "a, b,c": items trimmed of spaces; an empty item ("a,,b", ",") is an
/// error rather than skipped, since it is usually a typo for a missing name.
func parseList(_ text: String, flag: String) throws -> [String] {
    let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    guard !items.contains(where: \.isEmpty) else { throw HarnessError.invalidArgument(name: flag, value: "'\(Console.escaped(text))'", accepted: "a comma-separated list of names, none empty") }
    return items
}

func parseThreads(_ text: String?, default value: Int) throws -> [Int] {
    guard let text else { return [value] }
    var out: [Int] = []
    guard text.contains(where: { $0 != "," && $0 != " " }) else {
        throw HarnessError.invalidArgument(name: "--threads", value: "'\(Console.escaped(text))' (no thread count)",
                                           accepted: "1...\(BackendKind.maxThreads), or a list like 1,2,4")
    }
    for item in try parseList(text, flag: "--threads") {
        guard let n = Int(item), (1...BackendKind.maxThreads).contains(n) else {
            throw HarnessError.invalidArgument(name: "--threads", value: "'\(Console.escaped(item))'", accepted: "1...\(BackendKind.maxThreads), or a list like 1,2,4")
        }
        if !out.contains(n) { out.append(n) }
    }
    return out
}

func parseSigmas(_ text: String) throws -> [Double] {
    try parseList(text, flag: "--sigmas").map { item in
        guard let v = DecimalText.parse(item), v > 0, v <= 4096 else {
            throw HarnessError.invalidArgument(name: "--sigmas", value: "'\(Console.escaped(item))'", accepted: "blur sigmas in px, 0 < sigma <= 4096, e.g. 100,110")
        }
        return v
    }
}

func parseSize(_ text: String) throws -> (Int, Int) {
    let parts = text.lowercased().split(separator: "x").map { Int($0) }
    guard parts.count == 2, let w = parts[0], let h = parts[1] else {
        throw HarnessError.invalidArgument(name: "--size", value: "'\(text)'", accepted: "WIDTHxHEIGHT, e.g. 750x1334")
    }
    try Image.validate(width: w, height: h, name: "--size")
    return (w, h)
}

/// A fraction given as "0.1" or "10%" (`FractionText`), within `range`.
func parseFraction(_ text: String, flag: String, range: ClosedRange<Double>, accepted: String) throws -> Double {
    try FractionText.parse(text, name: flag, accepted: accepted) { range.contains($0) }
}

/// A change threshold in percent (compare's and ab's --threshold and
/// --fail-above), typed as a fraction or a percentage (`FractionText`).
func parseChangePercent(_ text: String, flag: String) throws -> Double {
    try parseFraction(text, flag: flag, range: 0...9.99, accepted: "0 <= change < 1000%, e.g. 5% or 0.05") * 100
}

/// A refresh rate: a plain decimal (no hex, nan or inf) in `Budget.fpsRange`.
func parseFPS(_ text: String) throws -> Double {
    guard let v = DecimalText.parse(text), Budget.fpsRange.contains(v) else {
        let r = Budget.fpsRange
        throw HarnessError.invalidArgument(name: "--fps", value: "'\(Console.escaped(text))'",
                                           accepted: "a refresh rate in \(Human.number(r.lowerBound))...\(Human.number(r.upperBound)) Hz, e.g. 60")
    }
    return v
}

/// An input file's URL. `URL(fileURLWithPath:)` drops a trailing slash, so
/// "job.json/" (a folder, by its spelling) would read job.json: refused here.
func inputURL(_ path: String, name: String) throws -> URL {
    guard !path.isEmpty, !path.hasSuffix("/") else {
        throw HarnessError.invalidArgument(name: name, value: "'\(Console.escaped(path))'", accepted: "a file's path (not a folder)")
    }
    return URL(fileURLWithPath: path)
}
