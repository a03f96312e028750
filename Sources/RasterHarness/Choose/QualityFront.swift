// STUB until branch choose lands
// The agreed API of /work/helpers/FRONT_API.md, with a minimal working body so
// that `rasterbench report` can draw the front; branch `choose` replaces this file.
import Foundation

/// One way to render a scene or a kernel on a profile: measured p95 and quality.
public struct FrontOption: Sendable, Equatable, Codable {
    public var target: String
    public var variant: String
    public var scale: Double
    public var backend: String
    public var threads: Int
    public var p95Ms: Double
    public var medianMs: Double
    public var psnrDb: Double?
    public var maxErr: Double?

    public init(target: String, variant: String, scale: Double, backend: String, threads: Int,
                p95Ms: Double, medianMs: Double, psnrDb: Double?, maxErr: Double?) {
        self.target = target; self.variant = variant; self.scale = scale; self.backend = backend
        self.threads = threads; self.p95Ms = p95Ms; self.medianMs = medianMs; self.psnrDb = psnrDb; self.maxErr = maxErr
    }

    public var label: String {
        var s = variant
        if scale != 1 { s += " @\(NumberFormat.decimal(scale))" }
        return s + " \(backend) t=\(threads)"
    }
}

/// All usable options of one target on one profile, and its Pareto front.
public struct QualityFront: Sendable {
    public var target: String
    public var profile: String
    public var fps: Double?
    public var options: [FrontOption]
    public var front: [FrontOption]

    public static func fronts(from rows: [ReportRow]) -> [QualityFront] {
        var groups: [String: [ReportRow]] = [:]
        var order: [String] = []
        for r in rows where r.isOK && r.sweep.isEmpty && r.p95Ms != nil {
            let key = r.profile + "\u{1}" + r.kernel
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(r)
        }
        return order.map { key in
            let g = groups[key]!
            let options = g.map { r in
                FrontOption(target: r.kernel, variant: r.variant, scale: scale(of: r.param), backend: r.backend,
                            threads: r.threads, p95Ms: r.p95Ms!, medianMs: r.medianMs ?? r.p95Ms!,
                            psnrDb: r.psnrDb, maxErr: r.maxErr)
            }
            let q = { (o: FrontOption) in o.psnrDb ?? -.infinity }
            let front = options.filter { o in
                !options.contains { p in
                    p.p95Ms <= o.p95Ms && q(p) >= q(o) && (p.p95Ms < o.p95Ms || q(p) > q(o))
                }
            }.sorted { $0.p95Ms < $1.p95Ms }
            return QualityFront(target: g[0].kernel, profile: g[0].profile, fps: g[0].fps, options: options, front: front)
        }
    }

    /// "scale=0.5" among a row's parameters; 1 otherwise.
    static func scale(of param: String) -> Double {
        for part in param.split(separator: ",") where part.hasPrefix("scale=") {
            if let v = Double(part.dropFirst(6)) { return v }
        }
        return 1
    }
}

/// What `choose` picked for one target.
public struct Choice: Sendable, Codable, Equatable {
    public var target: String
    public var profile: String
    public var budgetMs: Double
    public var limitMs: Double
    public var chosen: FrontOption?
    public var runnerUp: FrontOption?
    public var marginMs: Double?
    public var fastest: FrontOption?
    public var missByMs: Double?
}

public enum Chooser {
    public static func choose(_ front: QualityFront, budgetMs: Double, headroom: Double = 0.10,
                              minPSNR: Double? = nil, threads: Int? = nil) -> Choice {
        let limit = budgetMs * (1 - headroom)
        let usable = front.options.filter { o in
            (threads.map { o.threads <= $0 } ?? true) && (minPSNR.map { (o.psnrDb ?? -.infinity) >= $0 } ?? true)
        }
        let q = { (o: FrontOption) in o.psnrDb.map { $0.isNaN ? -Double.infinity : $0 } ?? -.infinity }
        let fitting = usable.filter { $0.p95Ms <= limit }.sorted {
            q($0) != q($1) ? q($0) > q($1) : $0.p95Ms != $1.p95Ms ? $0.p95Ms < $1.p95Ms : $0.threads < $1.threads
        }
        var c = Choice(target: front.target, profile: front.profile, budgetMs: budgetMs, limitMs: limit)
        if let best = fitting.first {
            c.chosen = best
            c.runnerUp = fitting.dropFirst().first
            c.marginMs = limit - best.p95Ms
        } else if let fastest = usable.min(by: { $0.p95Ms < $1.p95Ms }) {
            c.fastest = fastest
            c.missByMs = fastest.p95Ms - limit
        }
        return c
    }
}
