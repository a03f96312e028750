import XCTest
import CRasterOMP
import Foundation

/// Both threaded backends keep idle workers hot for the same short time
/// (RASTER_IDLE_SPIN_MS, raster_omp.h): libomp's 200 ms default let an idle
/// OpenMP team steal a core from the next benchmark row.
final class IdleSpinTests: XCTestCase {
    func testLibompUsesTheSharedIdleSpin() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        // The library sets KMP_BLOCKTIME at load time unless the user did.
        let env = try XCTUnwrap(ProcessInfo.processInfo.environment["KMP_BLOCKTIME"], "KMP_BLOCKTIME was not set at load time")
        try XCTSkipIf(env != "\(RASTER_IDLE_SPIN_MS)", "KMP_BLOCKTIME=\(env) set by the user")
        XCTAssertEqual(raster_omp_blocktime_ms(), Int32(RASTER_IDLE_SPIN_MS))
    }

    /// A helper that starts late (another thread held its core) makes the
    /// calling thread's next teams sleep at once when idle, for
    /// RASTER_CONTENDED_HOLD_MS, and then spin again; a call site whose late
    /// helpers found every item taken in a short region runs on the caller
    /// alone (a team of 1) as long. The late start is made by moving the fork time back, not
    /// by waiting for a scheduler; a region runs for real in between.
    func testALateStartStopsTheIdleSpinAndSoloesTheSiteForAWhile() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        try XCTSkipIf(ProcessInfo.processInfo.environment["KMP_BLOCKTIME"] != "\(RASTER_IDLE_SPIN_MS)", "KMP_BLOCKTIME set by the user")
        // A fresh thread, so no earlier team's lateness counts.
        let result = OneShotThread.run { () -> [Int32] in
            var site = raster_team_site(), other = raster_team_site()
            var watch = raster_team_watch()
            var next: Int32 = 0
            var seen: [Int32] = []
            func region(late: Bool, itemsLeft: Bool, long: Bool = false) {
                next = 0
                seen.append(raster_team_fork(&watch, &site, 2, &next, 4))
                seen.append(raster_omp_blocktime_ms())
                if late { watch.fork_ns -= UInt64(RASTER_LATE_START_US) * 1_000 + 1 }
                if !itemsLeft { next = 4 }
                raster_omp_test_region(&watch)
                // A region meant to be on time is: on a loaded host (or
                // under a sanitizer) the real helper may start late by
                // itself, which is the scheduler's doing, not the rule's.
                if !late { watch.late = 0; watch.idle = 0 }
                if long { watch.caller_done_ns = watch.fork_ns + UInt64(RASTER_SOLO_REGION_US) * 1_000 + 1 }
                // Plenty of CPU time: the team-on-one-core and lost-region
                // rules (their own tests below) must not fire however slowly
                // the empty region ran.
                watch.cpu_ns = 1_000_000_000_000
                watch.helper_cpu_ns = 1_000_000_000_000
                raster_team_join(&watch)
            }
            // libomp starts this thread's team in its first region, late
            // by far; that region is not joined, so it changes nothing.
            var warm = raster_team_watch(), unused = raster_team_site()
            _ = raster_team_fork(&warm, &unused, 2, &next, 4)
            raster_omp_test_region(&warm)
            region(late: false, itemsLeft: false)  // on time: team 2, spinning
            region(late: true, itemsLeft: true)    // late but useful: team 2, now asleep
            region(late: true, itemsLeft: false, long: true) // useless, but long: keeps its team
            region(late: true, itemsLeft: false)   // late and useless: one verdict, keeps its team
            region(late: true, itemsLeft: false)   // the second in a row
            seen.append(raster_team_fork(&watch, &site, 2, &next, 4))   // this site: solo
            seen.append(raster_team_fork(&watch, &other, 2, &next, 4))  // another: its team
            usleep(UInt32(RASTER_CONTENDED_HOLD_MS) * 1_000 + 20_000)
            region(late: false, itemsLeft: false)  // both expired
            return seen
        }
        let spin = Int32(RASTER_IDLE_SPIN_MS)
        XCTAssertEqual(result, [2, spin, 2, spin, 2, 0, 2, 0, 2, 0, 1, 2, 2, spin])
    }
}

extension IdleSpinTests {
    /// A region of at least RASTER_SHARED_CORE_MIN_US whose threads' CPU
    /// time adds up to less than RASTER_TEAM_MIN_CORE_PERCENT of one core
    /// (two threads taking turns on one core) makes its site run alone for
    /// the hold and idle threads sleep; one that got more keeps its team.
    /// The wall time and CPU time are set on the watch, not waited for.
    func testATeamSharingOneCoreSoloesTheSite() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        try XCTSkipIf(ProcessInfo.processInfo.environment["KMP_BLOCKTIME"] != "\(RASTER_IDLE_SPIN_MS)", "KMP_BLOCKTIME set by the user")
        let result = OneShotThread.run { () -> [Int32] in
            var site = raster_team_site(), other = raster_team_site()
            var watch = raster_team_watch()
            var next: Int32 = 0
            var seen: [Int32] = []
            let wall = UInt64(RASTER_SHARED_CORE_MIN_US) * 1_000 * 2
            /// A region of `wall` ns (at least) whose threads ran `percent`% of it.
            func region(percent: UInt64) {
                next = 0
                seen.append(raster_team_fork(&watch, &site, 2, &next, 4))
                seen.append(raster_omp_blocktime_ms())
                raster_omp_test_region(&watch)
                // The region's wall time is set from the runtime's clock
                // just before the join, whatever the real region took (far
                // longer under a sanitizer), so the CPU share is `percent`.
                watch.fork_ns = runtimeClock() - wall
                watch.caller_done_ns = watch.fork_ns + wall
                watch.late = 0
                watch.cpu_ns = wall * percent / 100
                raster_team_join(&watch)
            }
            var warm = raster_team_watch(), unused = raster_team_site()
            _ = raster_team_fork(&warm, &unused, 2, &next, 4)
            raster_omp_test_region(&warm)
            region(percent: UInt64(RASTER_TEAM_MIN_CORE_PERCENT) + 30) // about 1.5 cores: keeps its team
            region(percent: UInt64(RASTER_TEAM_MIN_CORE_PERCENT) - 30) // about one core: a verdict
            region(percent: UInt64(RASTER_TEAM_MIN_CORE_PERCENT) - 30) // the second in a row: alone from now
            seen.append(raster_team_fork(&watch, &site, 2, &next, 4))   // this site: solo
            seen.append(raster_team_fork(&watch, &other, 2, &next, 4))  // another: its team, asleep when idle
            seen.append(raster_omp_blocktime_ms())
            return seen
        }
        let spin = Int32(RASTER_IDLE_SPIN_MS)
        XCTAssertEqual(result, [2, spin, 2, spin, 2, 0, 1, 2, 0])
    }
}

extension IdleSpinTests {
    /// While the calling thread's teams are contended, a short region in
    /// which the caller waited at the join longer than the helpers worked
    /// makes its site run alone for the hold; uncontended, the same region
    /// (a sleeping helper's wake-up after an idle gap) changes nothing, and
    /// a contended region the team won keeps it. Times are set on the
    /// watch from the runtime's clock just before the join.
    func testALostRegionWhileContendedSoloesTheSite() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        try XCTSkipIf(ProcessInfo.processInfo.environment["KMP_BLOCKTIME"] != "\(RASTER_IDLE_SPIN_MS)", "KMP_BLOCKTIME set by the user")
        let result = OneShotThread.run { () -> [Int32] in
            var site = raster_team_site(), other = raster_team_site()
            var watch = raster_team_watch()
            var next: Int32 = 0
            var seen: [Int32] = []
            let waited: UInt64 = 300_000, worked: UInt64 = 100_000
            func region(late: Bool, lost: Bool) {
                next = 0
                seen.append(raster_team_fork(&watch, &site, 2, &next, 4))
                seen.append(raster_omp_blocktime_ms())
                raster_omp_test_region(&watch)
                let clock = runtimeClock()
                // The caller finished `waited` before the join (a lost
                // region) or at it; a short region either way.
                watch.caller_done_ns = lost ? clock - waited : clock
                watch.fork_ns = clock - waited - worked
                watch.helper_cpu_ns = lost ? worked : 1_000_000_000_000
                watch.cpu_ns = 1_000_000_000_000
                watch.late = late ? 1 : 0
                watch.idle = 0
                raster_team_join(&watch)
            }
            var warm = raster_team_watch(), unused = raster_team_site()
            _ = raster_team_fork(&warm, &unused, 2, &next, 4)
            raster_omp_test_region(&warm)
            region(late: false, lost: true)   // uncontended: keeps its team, spinning
            region(late: true, lost: false)   // contended from here, but the team won
            region(late: false, lost: true)   // contended and lost: a verdict
            region(late: false, lost: true)   // the second in a row: alone from now
            seen.append(raster_team_fork(&watch, &site, 2, &next, 4))   // this site: solo
            seen.append(raster_team_fork(&watch, &other, 2, &next, 4))  // another: its team, asleep when idle
            seen.append(raster_omp_blocktime_ms())
            return seen
        }
        let spin = Int32(RASTER_IDLE_SPIN_MS)
        XCTAssertEqual(result, [2, spin, 2, spin, 2, 0, 2, 0, 1, 2, 0])
    }
}

extension IdleSpinTests {
    /// The first region a thread forks at a team size (where libomp starts
    /// that team's threads) is not judged: late and on one core, it leaves
    /// the site its team and the idle spin on; the same region again sends
    /// the site alone.
    func testTheRegionThatStartsATeamIsNotJudged() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        try XCTSkipIf(ProcessInfo.processInfo.environment["KMP_BLOCKTIME"] != "\(RASTER_IDLE_SPIN_MS)", "KMP_BLOCKTIME set by the user")
        let result = OneShotThread.run { () -> [Int32] in
            var site = raster_team_site()
            var watch = raster_team_watch()
            var next: Int32 = 0
            var seen: [Int32] = []
            let wall = UInt64(RASTER_SHARED_CORE_MIN_US) * 1_000 * 2
            /// A region late by far, whose helper found nothing left, and
            /// whose threads ran half of one core's time.
            func startupLikeRegion() {
                next = 0
                seen.append(raster_team_fork(&watch, &site, 2, &next, 4))
                seen.append(raster_omp_blocktime_ms())
                raster_omp_test_region(&watch)
                watch.fork_ns = runtimeClock() - wall
                watch.caller_done_ns = watch.fork_ns + wall / 10
                watch.late = 1
                watch.idle = 1
                watch.cpu_ns = wall / 2
                watch.helper_cpu_ns = 0
                raster_team_join(&watch)
            }
            startupLikeRegion() // this thread's first team of 2: not judged
            startupLikeRegion() // judged: a verdict
            startupLikeRegion() // the second in a row: alone from now
            seen.append(raster_team_fork(&watch, &site, 2, &next, 4))
            return seen
        }
        let spin = Int32(RASTER_IDLE_SPIN_MS)
        XCTAssertEqual(result, [2, spin, 2, spin, 2, 0, 1])
    }
}

/// The clock the runtime's watch reads (CLOCK_MONOTONIC), in ns: the tests
/// set a watch's times from it just before the join.
private func runtimeClock() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Runs a closure on a new thread and returns its result.
private enum OneShotThread {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread { box.value = body(); done.signal() }.start()
        done.wait()
        return box.value!
    }
}

private final class ResultBox<T>: @unchecked Sendable { var value: T? }

extension IdleSpinTests {
    /// One region is one sample (raster_team_site_verdict): a verdict
    /// followed by a region judged clean leaves the site its team; two in a
    /// row send it alone; and after the hold, a contention that outlasted it
    /// sends it alone again on the first verdict, while a clean region
    /// disarms it.
    func testASiteGoesAloneOnTheSecondVerdictInARow() {
        var site = raster_team_site()
        raster_team_site_verdict(&site, 100)
        XCTAssertEqual(site.solo_until, 0, "one verdict")
        raster_team_site_verdict(&site, 0)
        raster_team_site_verdict(&site, 200)
        XCTAssertEqual(site.solo_until, 0, "a verdict after a clean region")
        raster_team_site_verdict(&site, 300)
        XCTAssertEqual(site.solo_until, 300, "the second verdict in a row")
        raster_team_site_verdict(&site, 400) // the first region after the hold
        XCTAssertEqual(site.solo_until, 400, "a contention that outlasted the hold")
        raster_team_site_verdict(&site, 0)
        raster_team_site_verdict(&site, 500)
        XCTAssertEqual(site.solo_until, 400, "a verdict after a clean region")
    }
}
