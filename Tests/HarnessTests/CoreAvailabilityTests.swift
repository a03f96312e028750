import CRasterOMP
import XCTest
@testable import RasterHarness

/// The end-of-run lines on stolen CPU time and solo OpenMP regions and simd loops.
final class CoreAvailabilityTests: XCTestCase {
    func testTheCPULineGivesItsFirstEightFieldsAndTheSteal() throws {
        let stat = "cpu  205589 0 9650 184772 604 0 352 713 0 0\ncpu0 104364 0 5440 90093 438 0 142 260 0 0\nintr 1 2\n"
        let t = try XCTUnwrap(CoreAvailability.cpuTicks(stat))
        XCTAssertEqual(t.total, 205589 + 9650 + 184772 + 604 + 352 + 713)
        XCTAssertEqual(t.steal, 713)
        // No steal field, a non-number, no aggregate line, a sum past UInt64.
        XCTAssertNil(CoreAvailability.cpuTicks("cpu  1 2 3 4 5 6 7\n"))
        XCTAssertNil(CoreAvailability.cpuTicks("cpu  1 2 3 4 5 6 7 x\n"))
        XCTAssertNil(CoreAvailability.cpuTicks("cpu0 1 2 3 4 5 6 7 8\n"))
        XCTAssertNil(CoreAvailability.cpuTicks("cpu  18446744073709551615 1 0 0 0 0 0 0\n"))
    }

    func testTheReportSaysStealAndSoloRegionsOnlyWhenTheyHappened() {
        let before = CoreAvailability(totalTicks: 1_000, stealTicks: 10, teamRegions: 5, soloRegions: 1)
        var after = before
        after.totalTicks += 1_000
        XCTAssertEqual(after.report(since: before), [])
        after.stealTicks += 4 // 0.4%: below the line
        XCTAssertEqual(after.report(since: before), [])
        after.stealTicks += 76 // 8%
        after.teamRegions += 8
        after.soloRegions += 1_335
        var lines = after.report(since: before)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("hypervisor steal: 8% of the CPU time"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("openmp: 1335 of 1343 parallel regions (99%) ran on the calling thread alone"), lines[1])
        after.teamLoops += 3
        after.soloLoops += 1
        lines = after.report(since: before)
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[2].hasPrefix("simd: 1 of 4 parallel loops (25%) ran on the calling thread alone"), lines[2])
        // Counters that went backwards (another process's snapshot) say nothing.
        XCTAssertEqual(before.report(since: after), [])
    }

    func testTheTallyCountsTeamsAndSoloRegions() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        var team0: UInt64 = 0, solo0: UInt64 = 0, team1: UInt64 = 0, solo1: UInt64 = 0
        var site = raster_team_site(), watch = raster_team_watch()
        var next: Int32 = 0
        raster_team_tally(&team0, &solo0)
        XCTAssertEqual(raster_team_fork(&watch, &site, 2, &next, 4), 2)
        site.solo_until = UInt64.max // held alone, as the rules would
        XCTAssertEqual(raster_team_fork(&watch, &site, 2, &next, 4), 1)
        XCTAssertEqual(raster_team_fork(&watch, &site, 1, &next, 4), 1) // a team of one was never a team
        raster_team_tally(&team1, &solo1)
        // Other tests' regions may run meanwhile: at least ours are counted.
        XCTAssertGreaterThanOrEqual(team1 - team0, 1)
        XCTAssertGreaterThanOrEqual(solo1 - solo0, 1)
    }
}
