import Foundation
import RasterHarness
import RasterKit

/// `choose`'s answer for one report on one profile, with what it was
/// measured under: the page's answer table and the choices its front
/// charts ring both come from here, and so from `Answer.make`, the
/// function `choose` itself calls.
public struct ReportAnswer: Sendable {
    public var source: Int
    /// nil when the rows' refresh rate or share is not a valid budget.
    public var budget: Budget?
    public var answer: Answer
    public var stamp: RunStamp
    /// The `choose` command that gives the same answer on this report.
    public var command: String

    /// The answer for `rows` (one report's rows of `profile`).
    /// `profileFPS`: the profile's refresh rate when known (rows without an fps need it).
    static func make(source: ReportSource, rows: [ReportRow], profile: String, profileFPS: Double?) -> ReportAnswer {
        let budget = profileFPS.flatMap { try? Answer.budget(rows: rows, profileFPS: $0) }
            ?? rows.lazy.compactMap(\.fps).first.flatMap { try? Answer.budget(rows: rows, profileFPS: $0) }
        let answer = budget.map { Answer.make(rows: rows, budgetMs: $0.milliseconds) } ?? Answer(fronts: [], choices: [])
        var command = "rasterbench choose --from \(source.path) --profile \(profile)"
        if let budget {
            if budget.fps != profileFPS { command += " --fps \(NumberFormat.decimal(budget.fps))" }
            if budget.share != Budget.defaultShare { command += " --share \(NumberFormat.decimal(budget.share))" }
        }
        return ReportAnswer(source: source.index, budget: budget, answer: answer, stamp: RunStamp(rows), command: command)
    }

    /// The choice made on the front with this key, if the report has it.
    func choice(for key: FrontKey) -> (QualityFront, Choice)? {
        guard let i = answer.fronts.firstIndex(where: { FrontKey($0) == key }) else { return nil }
        return (answer.fronts[i], answer.choices[i])
    }
}

/// What a front is keyed by, as `QualityFront.fronts` keys it: the target
/// (kernel or scene), its parameters and frame size. The K7 kernel and the
/// scene both named mesh, or fill's blob and stars, are different keys.
struct FrontKey: Hashable {
    var target, param: String
    var width, height: Int

    init(target: String, param: String, width: Int, height: Int) {
        self.target = target; self.param = param; self.width = width; self.height = height
    }

    init(_ f: QualityFront) {
        target = f.target; param = f.param
        width = f.options.first?.width ?? 0; height = f.options.first?.height ?? 0
    }

    /// "fill shape=blob", with the frame size when `withSize`.
    func name(withSize: Bool) -> String {
        var s = param.isEmpty ? target : "\(target) \(param)"
        if withSize { s += " \(width)x\(height)" }
        return s
    }
}

/// How much a report's times can be trusted, at a glance: the rounds it
/// was measured in, the host's load while it ran, and the host.
public struct RunStamp: Sendable {
    public var minRounds: Int, maxRounds: Int
    public var medianLoad: Double?
    public var maxLoad: Double?
    /// Rows taken while the load average exceeded the host's cores.
    public var overloadedRows: Int
    public var rows: Int
    public var host: String, cpu: String
    public var cores: Int

    public init(_ rows: [ReportRow]) {
        // A row without a rounds column was measured in one round.
        let rounds = rows.map { $0.rounds ?? 1 }
        minRounds = rounds.min() ?? 0; maxRounds = rounds.max() ?? 0
        let loads = rows.compactMap(\.loadAverage)
        medianLoad = loads.isEmpty ? nil : Summary(loads).median
        maxLoad = loads.max()
        cores = rows.map(\.hostCores).max() ?? 0
        let cores = self.cores
        overloadedRows = cores > 0 ? loads.filter { $0 > Double(cores) }.count : 0
        self.rows = rows.count
        host = rows.first?.host ?? ""; cpu = rows.first?.hostCPU ?? ""
    }

    /// "3 rounds · median load 1.23 on 2 cores · vm (Intel Xeon)"
    public var text: String {
        var parts = [minRounds == maxRounds ? "\(minRounds) round\(minRounds == 1 ? "" : "s")" : "\(minRounds)–\(maxRounds) rounds"]
        parts.append(medianLoad.map { "median load \(NumberFormat.decimal($0, significant: 3)) on \(cores) cores" } ?? "load not recorded")
        parts.append("\(host.isEmpty ? "unknown host" : host)\(cpu.isEmpty ? "" : " (\(cpu))")")
        return parts.joined(separator: " · ")
    }

    /// What makes the times less than authoritative, one sentence each.
    public var warnings: [String] {
        var w: [String] = []
        if minRounds <= 1 {
            w.append("One round\(maxRounds > 1 ? " for some rows" : ""): a single run cannot tell its own luck from the host's usual speed, so a choice decided by a small margin may not hold. Measure with run --rounds 3 or more.")
        }
        if overloadedRows > 0, let maxLoad {
            w.append("The load average exceeded the host's \(cores) cores during \(overloadedRows) of \(rows) rows (up to \(NumberFormat.decimal(maxLoad, significant: 3))): those rows shared the cores with other work, and multi-threaded rows suffer most.")
        }
        return w
    }
}
