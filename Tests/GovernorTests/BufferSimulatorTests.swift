import GovernorLab
import XCTest

/// The buffer simulation on traces small enough to check by hand
/// (period P = 10 ms; tick n is at time 10n).
final class BufferSimulatorTests: XCTestCase {
    /// Times 5, 15, 5, 5 with B = 0 (vsync-locked):
    /// f0: 0-5, shown tick 1. f1 starts when f0 is shown (10), ends 25, shown
    /// tick 3: tick 2 missed. f2: 30-35, tick 4. f3: 40-45, tick 5. 1 miss.
    func testNoBufferMissesTheSlowFrame() throws {
        let r = try BufferSimulator.simulate(frameMs: [5, 15, 5, 5], periodMs: 10, buffer: 0)
        XCTAssertEqual(r.shownAt, [1, 3, 4, 5])
        XCTAssertEqual(r.missed, 1)
    }

    /// Same times with B = 2: display starts at tick 3. f0: 0-5 -> tick 3;
    /// f1: 5-20 -> tick 4; f2: 20-25 -> tick 5; f3 waits for f0 to be shown
    /// (30), 30-35 -> tick 6. No miss, 2 frames of latency.
    func testTwoFramesAbsorbTheSlowFrame() throws {
        let r = try BufferSimulator.simulate(frameMs: [5, 15, 5, 5], periodMs: 10, buffer: 2)
        XCTAssertEqual(r.shownAt, [3, 4, 5, 6])
        XCTAssertEqual(r.missed, 0)
    }

    /// A throughput deficit cannot be buffered away: four 15 ms frames, B = 2.
    /// f0 0-15 -> tick 3 (30); f1 15-30 -> tick 4 (30 is not past tick 3... it
    /// is ready at 30 but tick 3 is taken, so tick 4); f2 30-45 -> tick 5 (50);
    /// f3 starts after f0 shown (30) and f2 done (45): 45-60 -> tick 6. No miss
    /// yet: the 2-frame head start covers 4 x 5 ms of deficit = 20 ms.
    /// A fifth frame 60-75 -> tick 8: one miss.
    func testDeficitEventuallyMisses() throws {
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: [15, 15, 15, 15], periodMs: 10, buffer: 2).missed, 0)
        let r = try BufferSimulator.simulate(frameMs: [15, 15, 15, 15, 15], periodMs: 10, buffer: 2)
        XCTAssertEqual(r.shownAt, [3, 4, 5, 6, 8])
        XCTAssertEqual(r.missed, 1)
    }

    /// A frame of exactly P is on time; with B = 0 every 15 ms frame misses one tick.
    func testExactPeriodIsOnTimeAndB0MissesEverySlowFrame() throws {
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: [10, 10, 10], periodMs: 10, buffer: 0).missed, 0)
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: [15, 15, 15], periodMs: 10, buffer: 0).missed, 3)
    }

    /// A 35 ms spike among 5 ms frames: B = 0 misses 3 ticks (35 ms spans 4
    /// periods); B = 10 absorbs it.
    func testSpikeAgainstBufferDepth() throws {
        let times = [5, 5, 35, 5, 5, 5, 5, 5] as [Double]
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: times, periodMs: 10, buffer: 0).missed, 3)
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: times, periodMs: 10, buffer: 10).missed, 0)
        XCTAssertEqual(try BufferSimulator.simulate(frameMs: [], periodMs: 10, buffer: 2).missed, 0)
    }
}
