import XCTest
import RasterKit
import RasterHarness

final class RoundsTests: XCTestCase {
    func testEachRoundIsAPermutationReproducibleFromItsSeed() {
        for n in [0, 1, 2, 7, 81] {
            for round in 1...4 {
                let p = RoundOrder.permutation(count: n, seed: 99, round: round)
                XCTAssertEqual(p.sorted(), Array(0..<n), "a permutation of \(n)")
                XCTAssertEqual(p, RoundOrder.permutation(count: n, seed: 99, round: round), "replayed from the seed")
            }
        }
        let rounds = (1...5).map { RoundOrder.permutation(count: 81, seed: 99, round: $0) }
        XCTAssertEqual(Set(rounds.map { $0.map(String.init).joined(separator: ",") }).count, 5, "each round a new order")
        XCTAssertNotEqual(RoundOrder.permutation(count: 81, seed: 1, round: 1), RoundOrder.permutation(count: 81, seed: 2, round: 1))
        XCTAssertNotEqual(rounds[0], Array(0..<81))
    }

    func testABScheduleIsABBA() {
        let order = ABSchedule.order(rounds: 4).map { "\($0.round)\($0.side.rawValue)" }
        XCTAssertEqual(order, ["1A", "1B", "2B", "2A", "3A", "3B", "4B", "4A"])
        XCTAssertTrue(ABSchedule.order(rounds: 0).isEmpty)
    }

    static func row(_ samples: [Double], variant: String = "full") -> ReportRow {
        var r = ReportRow()
        r.kernel = "k"; r.variant = variant; r.backend = .simd; r.threads = 2; r.width = 10; r.height = 10
        let s = Summary(samples)
        r.samplesMs = samples; r.samples = samples.count; r.medianMs = s.median; r.p95Ms = s.p95
        r.mpixPerS = 100 / s.median; r.budgetMs = 4; r.fitsBudget = s.p95 <= 4
        return r
    }

    func testMergeKeepsRoundsAndReportsTheMedianOfRoundMedians() {
        let rounds = [[RoundsTests.row([1, 2, 3])], [RoundsTests.row([10, 10, 10, 11])], [RoundsTests.row([4, 5, 6])]]
        let m = RoundMerge.merge(rounds, ids: [1, 2, 3])
        XCTAssertEqual(m.count, 1)
        let r = m[0]
        XCTAssertEqual(r.medianMs, 5, "medians 2, 10, 5")
        XCTAssertEqual(r.rounds, 3)
        XCTAssertEqual(r.samplesMs, [1, 2, 3, 10, 10, 10, 11, 4, 5, 6])
        XCTAssertEqual(r.sampleRounds, [1, 1, 1, 2, 2, 2, 2, 3, 3, 3])
        XCTAssertEqual(r.samples, 10)
        XCTAssertEqual(r.roundSpread!, (10 - 2) / 5, accuracy: 1e-12)
        XCTAssertEqual(r.mpixPerS!, 100 / 5, accuracy: 1e-9, "throughput follows the merged median")
        XCTAssertEqual(r.fitsBudget, false, "p95 of all samples is above 4")
        XCTAssertEqual(Bootstrap.rounds(of: r), [[1, 2, 3], [10, 10, 10, 11], [4, 5, 6]])
        // And through the CSV (which keeps 6 significant digits of the statistics).
        let back = try! ReportCSV.parse(ReportCSV.document(m))[0]
        XCTAssertEqual(back.samplesMs, r.samplesMs)
        XCTAssertEqual(back.sampleRounds, r.sampleRounds)
        XCTAssertEqual(back.rounds, 3)
        XCTAssertEqual(back.roundSpread, r.roundSpread)
        XCTAssertEqual(back.medianMs, 5)
    }

    func testMergeMatchesRowsByKeyAndKeepsFailures() {
        var bad = RoundsTests.row([1], variant: "lut"); bad.status = .error; bad.note = "boom"
        let rounds = [[RoundsTests.row([1, 1]), RoundsTests.row([2, 2], variant: "lut")],
                      [bad, RoundsTests.row([3, 3])]]
        let m = RoundMerge.merge(rounds, ids: [1, 2])
        XCTAssertEqual(m.map(\.variant), ["full", "lut"])
        XCTAssertEqual(m[0].medianMs, 2)
        XCTAssertEqual(m[1].status, .error)
        XCTAssertEqual(m[1].note, "boom")
    }

    func testSingleRunIsMarkedAsOneRound() {
        let r = RoundMerge.asOneRound([RoundsTests.row([1, 2, 3])])[0]
        XCTAssertEqual(r.rounds, 1)
        XCTAssertEqual(r.sampleRounds, [1, 1, 1])
        XCTAssertEqual(r.medianMs, 2)
    }
}
