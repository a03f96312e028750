import Foundation
import RasterKit

/// One way to render a scene or a kernel on a profile: measured p95 and quality.
///
/// Quality is PSNR against RasterReference. `psnrDb == nil` means no
/// quality was measured (a kernel without a reference): such an option
/// ranks *below* every option with a measured PSNR -- an unknown image is
/// never preferred to a known one -- and a `--min-psnr` floor drops it.
/// A NaN PSNR means the measurement broke: such an option is kept in
/// `QualityFront.options` (so a report can show it) but is never on the
/// front and never chosen.
public struct FrontOption: Sendable, Equatable {
    /// The measurement; its profile is the front's.
    public var key: MeasurementKey
    public var p95Ms: Double
    public var medianMs: Double
    public var psnrDb: Double?     // nil: no quality measured; .infinity: identical to the reference
    public var maxErr: Double?

    public init(target: String, variant: String, scale: Double = 1, backend: BackendKind, threads: Int,
                p95Ms: Double, medianMs: Double, psnrDb: Double?, maxErr: Double? = nil,
                param: String = "", width: Int = 0, height: Int = 0) {
        key = MeasurementKey(kernel: target, variant: variant, backend: backend, threads: threads,
                             width: width, height: height, renderScale: scale, parameters: param)
        self.p95Ms = p95Ms; self.medianMs = medianMs; self.psnrDb = psnrDb; self.maxErr = maxErr
    }

    /// An option from a report row; nil for rows that are not options
    /// (status not ok, sweep rows, no p95 or a non-finite one).
    public init?(row: ReportRow) {
        guard row.isOK, row.sweep == nil, let p95 = row.p95Ms, p95.isFinite, p95 >= 0 else { return nil }
        key = row.key
        key.profile = ""  // the front's
        p95Ms = p95; medianMs = row.medianMs ?? p95; psnrDb = row.psnrDb; maxErr = row.maxErr
    }

    /// Scene or kernel name (the row's kernel).
    public var target: String { key.kernel }
    /// e.g. "exact", "layer=quarter,blur=iir".
    public var variant: String { key.variant }
    /// Render scale (1, 0.5, 0.25); 1 for kernels.
    public var scale: Double { key.renderScale }
    public var backend: BackendKind { key.backend }
    public var threads: Int { key.threads }
    /// The row's parameters other than the render scale (e.g. "shape=blob",
    /// "sigma=120"): options with different parameters draw different
    /// images and belong to different fronts.
    public var param: String { key.parameters }
    public var width: Int { key.width }
    public var height: Int { key.height }

    /// e.g. "layer=quarter,blur=iir @0.25 openmp t=2"
    public var label: String {
        var s = variant
        if scale != 1 { s += " @\(NumberFormat.decimal(scale))" }
        return s + " \(backend.rawValue) t=\(threads)"
    }

    /// The variant text `SceneVariant(parsing:)` and `render --variant` take:
    /// "blur=iir@0.25" (the scale after an @ when it is not 1).
    public var variantText: String { scale == 1 ? variant : "\(variant)@\(NumberFormat.decimal(scale))" }

    /// What identifies the option within its front (two reports measuring
    /// the same option: the later one wins): the key without what the
    /// front shares (profile, target, parameters, size).
    var identity: Identity { Identity(variant: variant, scale: scale, backend: backend, threads: threads) }
    struct Identity: Hashable { var variant: String; var scale: Double; var backend: BackendKind; var threads: Int }

    /// Quality for ranking. An option within `Chooser.roundingMaxErr` (one
    /// 8-bit level) of the reference everywhere ranks as the reference
    /// itself (+inf), whatever its PSNR: that is the bound docs/contract.md §3
    /// holds exact backends to, and PSNRs of 85 and 107 dB there differ only
    /// in where two backends round -- a backend 13x slower must not win on
    /// rounding. Otherwise the PSNR; unknown (nil) ranks below every
    /// measured PSNR. NaN is excluded before ranking (`hasUsableQuality`).
    public var rankQuality: Double {
        if let e = maxErr, e <= Chooser.roundingMaxErr, psnrDb != nil { return .infinity }
        return psnrDb ?? -.infinity
    }

    /// True when the option counts as the reference's quality (see `rankQuality`).
    public var matchesReference: Bool { rankQuality == .infinity }

    /// False only for NaN: such an option is never chosen nor on a front.
    public var hasUsableQuality: Bool { !(psnrDb?.isNaN ?? false) }
}

/// All usable options of one target on one profile, and its Pareto front.
public struct QualityFront: Sendable, Codable, Equatable {
    public var target: String
    public var profile: String
    public var fps: Double?
    public var options: [FrontOption]   // every ok row (sweep rows excluded), any order
    public var front: [FrontOption]     // options no other option beats on both p95 and PSNR; p95 ascending
    /// Parameters shared by the options besides the scale ("shape=blob"); "" for scenes.
    public var param: String = ""

    public init(target: String, profile: String, fps: Double? = nil, options: [FrontOption], param: String = "") {
        self.target = target; self.profile = profile; self.fps = fps; self.options = options; self.param = param
        self.front = QualityFront.pareto(options)
    }

    /// The target with its parameters, e.g. "fill shape=blob".
    public var name: String { param.isEmpty ? target : "\(target) \(param)" }

    /// Groups report rows by (profile, target); rows with status != ok, sweep rows, or no p95 are skipped.
    /// Rows of one target with different parameters (fill's shapes, blur's
    /// sigma) form separate fronts. The same option measured twice (several
    /// reports): the later row wins. Fronts come in order of first appearance.
    public static func fronts(from rows: [ReportRow]) -> [QualityFront] {
        struct Key: Hashable { var profile, target, param: String; var width, height: Int }
        var order: [Key] = []
        var options: [Key: [FrontOption.Identity: FrontOption]] = [:]
        var optionOrder: [Key: [FrontOption.Identity]] = [:]
        var fps: [Key: Double] = [:]
        for row in rows {
            guard let o = FrontOption(row: row) else { continue }
            let key = Key(profile: row.profile, target: o.target, param: o.param, width: o.width, height: o.height)
            if options[key] == nil { order.append(key); options[key] = [:]; optionOrder[key] = [] }
            if options[key]![o.identity] == nil { optionOrder[key]!.append(o.identity) }
            options[key]![o.identity] = o
            if let f = row.fps { fps[key] = f }
        }
        return order.map { k in
            QualityFront(target: k.target, profile: k.profile, fps: fps[k],
                         options: optionOrder[k]!.map { options[k]![$0]! }, param: k.param)
        }
    }

    /// Options not dominated by another (at most as slow and at least as
    /// good, better in one); NaN-quality options are left out. Of options
    /// equal in both, the one first in `Chooser.order` stands for them.
    public static func pareto(_ options: [FrontOption]) -> [FrontOption] {
        let usable = options.filter(\.hasUsableQuality)
        var front: [FrontOption] = []
        for o in usable {
            let dominated = usable.contains { d in
                d.p95Ms <= o.p95Ms && d.rankQuality >= o.rankQuality
                    && (d.p95Ms < o.p95Ms || d.rankQuality > o.rankQuality)
            }
            if dominated { continue }
            if let i = front.firstIndex(where: { $0.p95Ms == o.p95Ms && $0.rankQuality == o.rankQuality }) {
                if Chooser.isBetter(o, than: front[i]) { front[i] = o }
                continue
            }
            front.append(o)
        }
        return front.sorted { $0.p95Ms != $1.p95Ms ? $0.p95Ms < $1.p95Ms : $0.rankQuality > $1.rankQuality }
    }
}

/// What `choose` picked for one target.
public struct Choice: Sendable, Codable, Equatable {
    public var target: String
    public var profile: String
    public var budgetMs: Double        // share x frame time
    public var limitMs: Double         // budget less headroom
    public var chosen: FrontOption?    // highest quality whose p95 <= limitMs (ties: faster p95, then fewer threads)
    public var runnerUp: FrontOption?  // the next best fitting option
    public var marginMs: Double?       // limitMs - chosen.p95Ms
    public var fastest: FrontOption?   // when nothing fits: the fastest option
    public var missByMs: Double?       // fastest.p95Ms - limitMs when nothing fits
    /// The target's parameters ("shape=blob"), "" for scenes.
    public var param: String = ""
    /// Options left after `--min-psnr` and `--threads`: 0 means nothing
    /// was eligible at all (then `chosen` and `fastest` are both nil).
    public var eligible: Int = 0

    /// The target with its parameters.
    public var name: String { param.isEmpty ? target : "\(target) \(param)" }
}

public enum Chooser {
    /// The default headroom: the budget less 10% (docs/contract.md §11).
    public static let defaultHeadroom = 0.10

    /// Max error (8-bit levels) up to which an option counts as the
    /// reference's quality: rounding (see `FrontOption.rankQuality`).
    public static let roundingMaxErr = 1.0

    /// Picks the option of highest quality whose p95 fits `budgetMs x (1 -
    /// headroom)`. Eligible options: usable quality (not NaN), PSNR >=
    /// `minPSNR` when given (an unknown PSNR cannot meet a floor), threads
    /// <= `threads` when given. Order of preference (`isBetter`): higher
    /// quality (`FrontOption.rankQuality`: within rounding of the reference
    /// first, then PSNR, unknown lowest), then faster p95, then fewer threads, then
    /// backend and variant names (so the choice is deterministic). The
    /// runner-up is the next eligible fitting option in that order. When
    /// nothing fits, `fastest` is the eligible option with the lowest p95
    /// (ties: the better one) and `missByMs` how far it is over the limit.
    public static func choose(_ front: QualityFront, budgetMs: Double, headroom: Double = 0.10,
                              minPSNR: Double? = nil, threads: Int? = nil) -> Choice {
        let limit = budgetMs * (1 - headroom)
        let eligible = front.options.filter { o in
            guard o.hasUsableQuality else { return false }
            if let minPSNR { guard let q = o.psnrDb, q >= minPSNR else { return false } }
            if let threads, o.threads > threads { return false }
            return true
        }
        var choice = Choice(target: front.target, profile: front.profile, budgetMs: budgetMs, limitMs: limit,
                            param: front.param, eligible: eligible.count)
        let fitting = eligible.filter { $0.p95Ms <= limit }.sorted(by: isBetter)
        if let best = fitting.first {
            choice.chosen = best
            choice.runnerUp = fitting.dropFirst().first
            choice.marginMs = limit - best.p95Ms
        } else if let fastest = eligible.min(by: { $0.p95Ms != $1.p95Ms ? $0.p95Ms < $1.p95Ms : isBetter($0, than: $1) }) {
            choice.fastest = fastest
            choice.missByMs = fastest.p95Ms - limit
        }
        return choice
    }

    /// The order of preference among fitting options (see `choose`).
    public static func isBetter(_ a: FrontOption, than b: FrontOption) -> Bool {
        if a.rankQuality != b.rankQuality { return a.rankQuality > b.rankQuality }
        if a.p95Ms != b.p95Ms { return a.p95Ms < b.p95Ms }
        if a.threads != b.threads { return a.threads < b.threads }
        if a.backend != b.backend { return a.backend.rawValue < b.backend.rawValue }
        return a.variantText < b.variantText
    }
}

/// The JSON of `choose --json` and of wisdom files: one flat object per
/// option, as before the key existed (`scale` and `param` apart).
extension FrontOption: Codable {
    enum CodingKeys: String, CodingKey {
        case target, variant, scale, backend, threads, p95Ms, medianMs, psnrDb, maxErr, param, width, height
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .backend)
        guard let backend = BackendKind(rawValue: text) else {
            throw DecodingError.dataCorruptedError(forKey: .backend, in: c, debugDescription: MeasurementKey.notABackend(text))
        }
        self.init(target: try c.decode(String.self, forKey: .target), variant: try c.decode(String.self, forKey: .variant),
                  scale: try c.decode(Double.self, forKey: .scale), backend: backend,
                  threads: try c.decode(Int.self, forKey: .threads), p95Ms: try c.decode(Double.self, forKey: .p95Ms),
                  medianMs: try c.decode(Double.self, forKey: .medianMs), psnrDb: try c.decodeIfPresent(Double.self, forKey: .psnrDb),
                  maxErr: try c.decodeIfPresent(Double.self, forKey: .maxErr), param: try c.decodeIfPresent(String.self, forKey: .param) ?? "",
                  width: try c.decodeIfPresent(Int.self, forKey: .width) ?? 0, height: try c.decodeIfPresent(Int.self, forKey: .height) ?? 0)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(target, forKey: .target); try c.encode(variant, forKey: .variant); try c.encode(scale, forKey: .scale)
        try c.encode(backend.rawValue, forKey: .backend); try c.encode(threads, forKey: .threads)
        try c.encode(p95Ms, forKey: .p95Ms); try c.encode(medianMs, forKey: .medianMs)
        try c.encodeIfPresent(psnrDb, forKey: .psnrDb); try c.encodeIfPresent(maxErr, forKey: .maxErr)
        try c.encode(param, forKey: .param); try c.encode(width, forKey: .width); try c.encode(height, forKey: .height)
    }
}
