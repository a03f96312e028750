import Foundation
import RasterHarness
import RasterKit

// Argument parsing shared by the commands (run, render, choose).

func parseList(_ text: String, flag: String) throws -> [String] {
    let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard !items.isEmpty else { throw HarnessError.invalidArgument(name: flag, value: "'\(Console.escaped(text))'", accepted: "a comma-separated list of names") }
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
        guard let v = Double(item), v.isFinite, v > 0, v <= 4096 else {
            throw HarnessError.invalidArgument(name: "--sigmas", value: "'\(item)'", accepted: "blur sigmas in px, 0 < sigma <= 4096, e.g. 100,110")
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

/// A fraction given as "0.1" or "10%" (values above 1 without a percent
/// sign read as percentages), within `range`.
func parseFraction(_ text: String, flag: String, range: ClosedRange<Double>, accepted: String) throws -> Double {
    let t = text.trimmingCharacters(in: .whitespaces)
    let isPercent = t.hasSuffix("%")
    guard let v = Double(isPercent ? String(t.dropLast()) : t), v.isFinite else {
        throw HarnessError.invalidArgument(name: flag, value: "'\(text)'", accepted: accepted)
    }
    let f = isPercent || v > 1 ? v / 100 : v
    guard range.contains(f) else { throw HarnessError.invalidArgument(name: flag, value: "'\(text)'", accepted: accepted) }
    return f
}
