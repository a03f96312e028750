import Foundation
import RasterHarness
@testable import RasterReport
import XCTest
import RasterKit

/// The page's charts against any input the library can be handed: every
/// finite value across the whole Double range (the readers refuse most of
/// them, the charts must not rely on it), any backend text (no key is ever
/// split back out of a string), and the one-pass grouping that keeps the
/// page linear in rows gives what filtering per target gave.
final class ReportChartExtremesTests: XCTestCase {
    /// SplitMix64: the same values on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A finite positive value with a uniformly random exponent, or one of the extremes.
    static func extreme(_ g: inout Generator) -> Double {
        let specials: [Double] = [5e-324, .leastNormalMagnitude, .greatestFiniteMagnitude, 1, 1e-9, 1e9]
        if Int.random(in: 0..<4, using: &g) == 0 { return specials.randomElement(using: &g) ?? 1 }
        let v = Double.random(in: 1..<10, using: &g) * pow(10, Double(Int.random(in: -324...308, using: &g)))
        return v.isFinite && v > 0 ? v : .greatestFiniteMagnitude
    }

    func testScalesOfAnyFiniteValuesHaveFewFiniteTicks() {
        var g = Generator(state: 1)
        for i in 0..<4000 {
            let log = i % 2 == 0
            var values = (0..<Int.random(in: 1...4, using: &g)).map { _ in Self.extreme(&g) }
            if !log && i % 4 == 1 { values = values.map { -$0 } + [Self.extreme(&g)] }
            let scale = Scale.fit(values, log: log, from: 10, to: 500, includeZero: i % 3 == 0)
            let ticks = scale.ticks
            XCTAssertLessThanOrEqual(ticks.count, Scale.maxTicks, "\(values)")
            if !log { XCTAssertFalse(ticks.isEmpty, "\(values)") }
            for (v, label) in ticks {
                XCTAssertTrue(v.isFinite && scale.map(v).isFinite, "\(values): tick \(v)")
                XCTAssertLessThanOrEqual(label.count, 12, "\(values): tick \(label)")
            }
            for v in values + [0, .nan, .infinity, -.infinity] {
                let px = scale.map(v)
                XCTAssertTrue(px.isFinite && px >= 10 - 490 && px <= 500 + 490, "\(values): \(v) at \(px)")
            }
        }
    }

    /// Rows of two kernels on every backend, with every figure drawn from the whole range.
    static func hostileRows(_ g: inout Generator) -> [ReportRow] {
        var rows: [ReportRow] = []
        for backend in BackendKind.allCases {
            for threads in [1, 2] {
                for (kernel, sweep, size) in [("fill", nil, (750, 1334)), ("composite", nil, (750, 1334)),
                                              ("fill", SweepKind.size, (64, 64)), ("fill", .size, (Int.random(in: 1...4096, using: &g), 512))] {
                    var r = ReportHTMLTests.row(kernel, backend: backend, threads: threads, median: extreme(&g),
                                                psnr: [nil, .infinity, .nan, extreme(&g)].randomElement(using: &g) ?? nil,
                                                sweep: sweep, size: size, gb: extreme(&g), host: "h", commit: "c")
                    r.p95Ms = extreme(&g); r.copyGBPerS = extreme(&g); r.budgetMs = extreme(&g)
                    if Bool.random(using: &g) { r.bwFraction = nil }
                    rows.append(r)
                }
            }
        }
        return rows
    }

    func testThePageSurvivesExtremeValuesAndEveryBackend() throws {
        var g = Generator(state: 7)
        for round in 0..<8 {
            let sources = (0..<(round % 2 + 1)).map { ReportSource(path: "r\($0).csv", rows: Self.hostileRows(&g), index: $0) }
            let html = try HTMLReport.html(sources, options: .init(animationFrames: 1, mediaWidth: 8))
            XCTAssertTrue(html.contains("id=\"speedup-iphone-6\""), "round \(round)")
            XCTAssertTrue(BackendKind.allCases.allSatisfy { html.contains($0.rawValue) }, "each backend has its legend")
            for bad in ["=\"nan\"", "=\"inf\"", "=\"-inf\"", "NaN"] { XCTAssertFalse(html.contains(bad), "round \(round): \(bad)") }
        }
    }

    /// `ProfileData.grouped` (one pass) against filtering the rows per key.
    func testOnePassGroupingMatchesFilteringPerKey() {
        var g = Generator(state: 3)
        let sources = (0..<3).map { s in
            ReportSource(path: "r\(s).csv", rows: (0..<300).map { _ in
                ReportHTMLTests.row(["fill", "blur", "composite"].randomElement(using: &g) ?? "", backend: [BackendKind.naive, .simd].randomElement(using: &g) ?? .naive,
                                    median: 1, param: "p=\(Int.random(in: 0..<40, using: &g))", sweep: Bool.random(using: &g) ? nil : .size,
                                    host: "h", commit: "c")
            }, index: s)
        }
        let data = ProfileData(profile: "iphone-6", sources: sources, rows: sources.map(\.rows))
        struct Key: Hashable { var kernel, param: String }
        let include = { (r: ReportRow) in r.sweep == .size }
        let groups = data.grouped(where: include, by: { Key(kernel: $0.kernel, param: $0.parameters) })
        var expectedOrder: [Key] = []
        for r in data.all where include(r) {
            let k = Key(kernel: r.kernel, param: r.parameters)
            if !expectedOrder.contains(k) { expectedOrder.append(k) }
        }
        XCTAssertEqual(groups.map(\.0), expectedOrder)
        for (k, perSource) in groups {
            XCTAssertEqual(perSource.count, sources.count)
            for (s, rows) in perSource.enumerated() {
                XCTAssertEqual(rows, sources[s].rows.filter { include($0) && Key(kernel: $0.kernel, param: $0.parameters) == k })
            }
        }
        // The speed-up groups: each (target, workload) once, with each report's usable exact rows.
        var calls: [String] = []
        _ = SpeedupBars.groups(data) { target, w, s, rows in calls.append("\(target)|\(w)|\(s)|\(rows.count)"); return [] }
        var expected: [String] = []
        for target in data.kernels + data.scenes {
            let exact = { (r: ReportRow) in r.kernel == target && r.sweep == nil && r.variant == "exact" && r.renderScale == 1 }
            var workloads: [String] = []
            for r in data.all where exact(r) && !workloads.contains(r.parameters) { workloads.append(r.parameters) }
            for w in workloads {
                for (s, rows) in data.rows.enumerated() { expected.append("\(target)|\(w)|\(s)|\(rows.filter { exact($0) && $0.parameters == w && $0.usable }.count)") }
            }
        }
        XCTAssertEqual(calls, expected)
    }
}
