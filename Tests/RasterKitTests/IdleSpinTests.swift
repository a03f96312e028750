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
}
