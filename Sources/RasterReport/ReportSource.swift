import Foundation
import RasterHarness
import RasterKit

/// One report file given to `rasterbench report`: its rows and the label
/// that tells it apart from the others (host, commit, file name).
public struct ReportSource: Sendable {
    public var path: String
    public var rows: [ReportRow]
    public var index: Int

    public init(path: String, rows: [ReportRow], index: Int) {
        self.path = path; self.rows = rows; self.index = index
    }

    /// Reads a report (CSV or JSON); a missing file, a file that is not a
    /// report or a report without rows is one typed error.
    public static func load(_ path: String, index: Int) throws -> ReportSource {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw HarnessError.io(path: path, reason: "no such file")
        }
        guard !isDir.boolValue,
              let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
              type == .typeRegular else {
            throw HarnessError.io(path: path, reason: "not a regular file")
        }
        let rows = try ReportFile.load(path)
        guard !rows.isEmpty else {
            throw HarnessError.malformedReport(path: path, line: 1, reason: "a header but no rows")
        }
        return ReportSource(path: path, rows: rows, index: index)
    }

    public var fileName: String { URL(fileURLWithPath: path).lastPathComponent }
    public var host: String { rows.first?.host ?? "" }
    public var commit: String { rows.first(where: { !$0.gitCommit.isEmpty })?.gitCommit ?? "unknown" }
    public var label: String { "\(host) @\(commit.prefix(7)) \(fileName)" }
    public var profiles: [String] { unique(rows.map(\.profile)) }
}

/// Rows of one profile from every source, for one section of the page.
///
/// Everything a chart asks of all rows (the targets, the budget, the
/// reports' labels) is worked out once here: asked per target or per bar,
/// it made the page quadratic in rows.
struct ProfileData {
    let profile: String
    let sources: [ReportSource]
    /// rows[i] belong to sources[i].
    let rows: [[ReportRow]]
    let all: [ReportRow]
    let multi: Bool
    let scenes: [String]
    let kernels: [String]
    let budgetMs: Double?
    let fps: Double?
    /// sources[i].label
    let labels: [String]

    init(profile: String, sources: [ReportSource], rows: [[ReportRow]]) {
        self.profile = profile; self.sources = sources; self.rows = rows
        all = rows.flatMap { $0 }
        multi = sources.count > 1
        scenes = unique(all.filter(\.isScene).map(\.kernel))
        kernels = unique(all.filter { !$0.isScene }.map(\.kernel))
        budgetMs = all.lazy.compactMap(\.budgetMs).first
        fps = all.lazy.compactMap(\.fps).first
        labels = sources.map(\.label)
    }

    /// A series label: the backend, and the report's label when there are several.
    func name(_ backend: BackendKind, threads: Int? = nil, source: Int) -> String {
        var s = backend.rawValue
        if let threads { s += " t=\(threads)" }
        return multi ? "\(s) · \(labels[source])" : s
    }

    /// `rows` split by `key` in one pass: each key's rows per source, keys
    /// in order of first appearance (sources in order, then rows).
    func grouped<K: Hashable>(where include: (ReportRow) -> Bool, by key: (ReportRow) -> K) -> [(K, [[ReportRow]])] {
        var order: [K] = []
        var groups: [K: [[ReportRow]]] = [:]
        for (s, rs) in rows.enumerated() {
            for r in rs where include(r) {
                let k = key(r)
                if groups[k] == nil { order.append(k) }
                groups[k, default: Array(repeating: [], count: rows.count)][s].append(r)
            }
        }
        return order.map { ($0, groups[$0] ?? []) }
    }
}

/// What tells two series of a chart apart (a legend entry): typed, so a
/// backend text holding any character cannot split wrongly.
struct SeriesKey: Hashable {
    var backend: BackendKind
    var threads: Int?
    var source: Int

    /// Legend entries (name, colour) for these series, each once, in order.
    static func legend(_ keys: [SeriesKey], data: ProfileData) -> [(String, String)] {
        unique(keys).map { k in (data.name(k.backend, source: k.source), Palette.colour(k.backend, source: k.source)) }
    }
}

extension ReportRow {
    /// A scene's row. The K7 mesh kernel shares the mesh scene's name; its
    /// rows carry a parameter (grid=3x3) and a scene's only the render scale.
    var isScene: Bool { SceneCatalog.names.contains(key.kernel) && key.parameters.isEmpty }
    var usable: Bool { isOK && timing.medianMs != nil }
    /// What the row is among its kernel's rows, without backend and threads.
    var optionName: String {
        var s = key.variant
        if key.renderScale != 1 { s += " @\(NumberFormat.decimal(key.renderScale))" }
        if !key.parameters.isEmpty { s += " [\(key.parameters)]" }
        return s
    }
}

func unique<T: Hashable>(_ xs: [T]) -> [T] {
    var seen = Set<T>()
    return xs.filter { seen.insert($0).inserted }
}

func backendOrder(_ b: BackendKind) -> Int { BackendKind.allCases.firstIndex(of: b) ?? 0 }

func ms(_ v: Double) -> String { NumberFormat.decimal(v, significant: 3) + " ms" }
