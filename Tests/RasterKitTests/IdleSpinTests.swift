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

    /// A team member that starts late (another thread held its core) makes
    /// the calling thread's next teams sleep at once when idle, for
    /// RASTER_CONTENDED_HOLD_MS; then they spin again. The late start is
    /// made by moving the fork time back, not by waiting for a scheduler.
    func testALateStartStopsTheIdleSpinForAWhile() throws {
        try XCTSkipIf(raster_omp_available() == 0, "built without OpenMP")
        try XCTSkipIf(ProcessInfo.processInfo.environment["KMP_BLOCKTIME"] != "\(RASTER_IDLE_SPIN_MS)", "KMP_BLOCKTIME set by the user")
        // A fresh thread, so no earlier team's lateness counts.
        let result = OneShotThread.run {
            var watch = raster_team_watch()
            raster_team_fork(&watch)
            raster_team_arrive(&watch) // on time
            raster_team_join(&watch)
            raster_team_fork(&watch)
            let before = raster_omp_blocktime_ms()
            watch.fork_ns -= UInt64(RASTER_LATE_START_US) * 1_000 + 1
            raster_team_arrive(&watch) // late
            raster_team_join(&watch)
            raster_team_fork(&watch)
            let contended = raster_omp_blocktime_ms()
            raster_team_join(&watch)
            usleep(UInt32(RASTER_CONTENDED_HOLD_MS) * 1_000 + 20_000)
            raster_team_fork(&watch)
            let after = raster_omp_blocktime_ms()
            raster_team_join(&watch)
            return [before, contended, after]
        }
        XCTAssertEqual(result, [Int32(RASTER_IDLE_SPIN_MS), 0, Int32(RASTER_IDLE_SPIN_MS)])
    }
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
