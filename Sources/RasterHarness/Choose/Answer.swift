/// What `choose` answers for a set of report rows: every target's front and
/// the choice made on it. `choose` and the HTML report both call `make`, so
/// the page cannot pick differently from the command on the same rows.
public struct Answer: Sendable {
    /// One per target (kernel or scene with its parameters and frame size),
    /// in order of first appearance.
    public var fronts: [QualityFront]
    /// choices[i] was made on fronts[i].
    public var choices: [Choice]

    public init(fronts: [QualityFront], choices: [Choice]) {
        self.fronts = fronts; self.choices = choices
    }

    public static func make(rows: [ReportRow], budgetMs: Double, headroom: Double = Chooser.defaultHeadroom,
                            minPSNR: Double? = nil, threads: Int? = nil) -> Answer {
        let fronts = QualityFront.fronts(from: rows)
        return Answer(fronts: fronts, choices: fronts.map {
            Chooser.choose($0, budgetMs: budgetMs, headroom: headroom, minPSNR: minPSNR, threads: threads)
        })
    }

    /// The budget `choose` uses on these rows by default: the refresh rate
    /// and share they were measured for (`run --fps/--share`), else the
    /// profile's rate and the default share.
    public static func budget(rows: [ReportRow], profileFPS: Double) throws -> Budget {
        try Budget(fps: rows.lazy.compactMap(\.fps).first ?? profileFPS,
                   share: rows.lazy.compactMap(\.budgetShare).first ?? Budget.defaultShare)
    }
}

/// The words of `choose`'s table, shared by the terminal and the HTML report.
public enum ChoiceText {
    public static let header = ["target", "chosen", "p95", "PSNR dB", "margin", "runner-up"]

    /// One table row: target, chosen option, p95, PSNR, margin, runner-up;
    /// "(nothing fits)" with the fastest option's p95 when nothing fits.
    public static func cells(_ c: Choice) -> [String] {
        guard let o = c.chosen else {
            return [c.name, "(nothing fits)", c.fastest.map { Human.time(ms: $0.p95Ms) } ?? "-", "-", "-", "-"]
        }
        let runner = c.runnerUp.map { "\($0.label) (\(Human.time(ms: $0.p95Ms))\($0.psnrDb == nil ? "" : ", \(psnr($0)) dB"))" } ?? "-"
        return [c.name, o.label, Human.time(ms: o.p95Ms), psnr(o), c.marginMs.map { Human.time(ms: $0) } ?? "-", runner]
    }

    /// The PSNR, starred when the option is within rounding of the reference.
    public static func psnr(_ o: FrontOption) -> String {
        guard let q = o.psnrDb else { return "-" }
        return (q.isInfinite ? "inf" : Human.number(q)) + (o.matchesReference ? "*" : "")
    }

    public static let starNote = "* within \(NumberFormat.decimal(Chooser.roundingMaxErr)) level of the reference everywhere (max error): counted as the reference's quality, so the faster such option wins"

    /// True when a starred PSNR appears among the choices.
    public static func hasStar(_ choices: [Choice]) -> Bool {
        choices.contains { [$0.chosen, $0.runnerUp, $0.fastest].contains { $0?.matchesReference == true } }
    }

    /// Why nothing fits a target: its fastest option and the miss.
    public static func missLine(_ c: Choice) -> String {
        guard let f = c.fastest, let miss = c.missByMs else {
            return "\(c.name): no eligible option (every option dropped by --min-psnr/--threads or of unknown quality)"
        }
        return "\(c.name): fastest is \(f.label), p95 \(Human.time(ms: f.p95Ms)) (PSNR \(f.psnrDb == nil ? "not measured" : psnr(f) + " dB")), over the \(Human.time(ms: c.limitMs)) limit by \(Human.time(ms: miss))"
    }
}
