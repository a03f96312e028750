import Foundation
import Plot
import RasterHarness

/// The top of a profile: `choose`'s table for each report (chosen option,
/// p95, PSNR, margin, runner-up, what misses), stamped with the rounds, the
/// load and the host it was measured on, and warned when those make the
/// times weak.
enum AnswerTable {
    static func section(_ answers: [ReportAnswer], data: ProfileData) -> Node<HTML.BodyContext> {
        .div(.class("answers"),
             .h3(.text("The answer: what choose picks")),
             answers.isEmpty
                ? .p(.class("note missing"), .text("No rows in this profile."))
                : .group(answers.map { answer($0, data: data) }))
    }

    private static func answer(_ a: ReportAnswer, data: ProfileData) -> Node<HTML.BodyContext> {
        let choices = a.answer.choices
        let misses = choices.filter { $0.chosen == nil }.map(ChoiceText.missLine)
        var budget = "No valid budget in the rows (refresh rate or share out of range): nothing chosen."
        if let b = a.budget, let limit = choices.first?.limitMs {
            budget = "Budget \(ms(b.milliseconds)) (\(Human.percent(b.share)) of a frame at \(NumberFormat.decimal(b.fps)) fps), "
                + "limit \(ms(limit)) after \(Human.percent(Chooser.defaultHeadroom)) headroom."
        }
        return .div(.id(slug("answer", data.profile, "\(a.source + 1)")), .class("answer"),
                    .if(data.multi, .h4(.text("#\(a.source + 1) \(data.labels[a.source])"))),
                    .p(.class("stamp"), .text(a.stamp.text)),
                    .group(a.stamp.warnings.map { .p(.class("warning"), .text("⚠ " + $0)) }),
                    .p(.class("note"), .text(budget + " The same answer as "), .code(.text(a.command)), .text(".")),
                    choices.isEmpty
                        ? .p(.class("note missing"), .text("No row with a p95 to choose from."))
                        : .table(.class("answer"),
                                 .tr(.group(ChoiceText.header.map { .th(.text($0)) })),
                                 .group(choices.map { c in
                                     .tr(.class(c.chosen == nil ? "nofit" : "fit"), .group(ChoiceText.cells(c).map { .td(.text($0)) }))
                                 })),
                    .if(ChoiceText.hasStar(choices), .p(.class("note"), .text(ChoiceText.starNote))),
                    .if(!misses.isEmpty, .ul(.class("misses"), .group(misses.map { .li(.text("nothing fits " + $0)) }))))
    }
}
