import CRasterOMP
import Foundation
import XCTest
@testable import RasterKit

/// The simd backend's band runner on its own: for awkward heights and
/// thread counts every item is run exactly once, bands are contiguous and
/// in order, no band is shorter than the minimum unless there is only one,
/// worker indices stay below `workers` (callers size per-worker scratch by
/// it), and one thread runs inline on the caller as a single band.
final class RowBandsTests: XCTestCase {
    private static let heights = [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 257, 1001, 1334]
    private static let threadCounts = [1, 2, 3, 4, 7, 16]

    func testEveryItemRunsOnceInContiguousBandsWithWorkersInRange() {
        // How work is split, not whether the contention rules (which a
        // loaded host can set off) send a site alone.
        raster_team_force_solo(-1)
        defer { raster_team_force_solo(0) }
        for (minimum, perThread) in [(1, RowBands.bandsPerThread), (RowBands.minimumRows, RowBands.bandsPerThread), (1, 1), (5, 3)] {
            for items in RowBandsTests.heights {
                for threads in RowBandsTests.threadCounts {
                    let bands = RowBands(items: items, threads: threads, minimum: minimum, perThread: perThread)
                    let what = "items \(items), threads \(threads), minimum \(minimum), per thread \(perThread)"
                    let seen = Seen(items: items)
                    bands.run { worker, range in seen.record(worker: worker, range: range) }
                    let (hits, ranges, workers) = seen.snapshot()
                    XCTAssertEqual(hits, [Int](repeating: 1, count: items), "an item not run exactly once: \(what)")
                    XCTAssertEqual(ranges.count, bands.count, "not one call per band: \(what)")
                    XCTAssertLessThanOrEqual(bands.count, threads * perThread, "more bands than asked for: \(what)")
                    XCTAssertTrue(workers.allSatisfy { $0 >= 0 && $0 < bands.workers }, "worker index out of range: \(what)")
                    XCTAssertLessThanOrEqual(bands.workers, threads, "more workers than threads: \(what)")
                    let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
                    XCTAssertEqual(sorted.first?.lowerBound, 0, what)
                    XCTAssertEqual(sorted.last?.upperBound, items, what)
                    for (a, b) in zip(sorted, sorted.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound, "bands not contiguous: \(what)") }
                    if sorted.count > 1 {
                        XCTAssertTrue(sorted.allSatisfy { $0.count >= minimum }, "a band below the minimum: \(what)")
                    }
                    for band in 0..<bands.count { XCTAssertEqual(bands.range(band), sorted[band], "range(_:) differs from the run: \(what)") }
                }
            }
        }
    }

    func testRowsUseTheSharedMinimumAndSeveralBandsPerThread() {
        raster_team_force_solo(-1)
        defer { raster_team_force_solo(0) }
        var ranges: [Range<Int>] = []
        let lock = NSLock()
        RowBands.run(height: 1334, threads: 2) { rows in lock.lock(); ranges.append(rows); lock.unlock() }
        XCTAssertEqual(ranges.count, 2 * RowBands.bandsPerThread)
        XCTAssertEqual(ranges.map(\.count).reduce(0, +), 1334)
        ranges.removeAll()
        // 2 * minimumRows - 1 rows: too few for two bands of the minimum.
        RowBands.run(height: 2 * RowBands.minimumRows - 1, threads: 7) { rows in lock.lock(); ranges.append(rows); lock.unlock() }
        XCTAssertEqual(ranges, [0 ..< 2 * RowBands.minimumRows - 1])
    }

    func testOneThreadRunsInlineOnTheCallerAsOneBand() {
        let caller = pthread_self()
        for items in [0, 1, 1334] {
            var calls: [(Int, Range<Int>, Bool)] = []
            RowBands(items: items, threads: 1).run { worker, range in
                calls.append((worker, range, pthread_equal(pthread_self(), caller) != 0))
            }
            XCTAssertEqual(calls.count, 1)
            XCTAssertEqual(calls.first?.0, 0)
            XCTAssertEqual(calls.first?.1, 0..<items)
            XCTAssertEqual(calls.first?.2, true, "the 1-thread band ran off the caller's thread")
        }
    }
}

/// What a run did, recorded from every worker under a lock.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var hits: [Int]
    private var ranges: [Range<Int>] = []
    private var workers: [Int] = []

    init(items: Int) { hits = [Int](repeating: 0, count: items) }

    func record(worker: Int, range: Range<Int>) {
        lock.lock(); defer { lock.unlock() }
        for i in range { hits[i] += 1 }
        ranges.append(range)
        workers.append(worker)
    }

    func snapshot() -> ([Int], [Range<Int>], [Int]) {
        lock.lock(); defer { lock.unlock() }
        return (hits, ranges, workers)
    }
}
