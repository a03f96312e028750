import Foundation
import XCTest
@testable import RasterKit

/// The simd backend's thread pool on its own, for ThreadSanitizer
/// (scripts/sanitize.sh runs it under TSan): every index of every loop runs
/// exactly once, its writes are visible to the caller when `run` returns,
/// and two callers sharing a pool take turns.
final class WorkerPoolTests: XCTestCase {
    func testEveryIndexRunsOnceAndItsWritesAreVisible() {
        for threads in [2, 3, 7] {
            let pool = WorkerPool.shared(threads: threads)
            let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
            defer { slots.deallocate() }
            for round in 0..<300 {
                let count = 1 + round % threads
                slots.initialize(repeating: 0)
                pool.run(count) { i in slots[i] += round + i }
                for i in 0..<threads {
                    XCTAssertEqual(slots[i], i < count ? round + i : 0, "threads \(threads) round \(round) index \(i)")
                }
            }
        }
    }

    func testTwoCallersShareOnePool() {
        let pool = WorkerPool.shared(threads: 2)
        let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4)
        defer { sums.deallocate() }
        sums.initialize(repeating: 0)
        // Each caller owns two slots; the pool serialises their loops.
        DispatchQueue.concurrentPerform(iterations: 2) { caller in
            for _ in 0..<200 { pool.run(2) { i in sums[caller * 2 + i] += 1 } }
        }
        XCTAssertEqual(Array(sums), [200, 200, 200, 200])
    }
}
