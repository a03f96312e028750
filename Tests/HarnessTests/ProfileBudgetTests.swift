import XCTest
import RasterHarness

final class ProfileBudgetTests: XCTestCase {
    func testBudgetArithmetic() throws {
        let b60 = try Budget(fps: 60)
        XCTAssertEqual(b60.frameMs, 1000.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(b60.milliseconds, 1000.0 / 60 * 0.25, accuracy: 1e-12) // 4.1667 ms
        XCTAssertEqual(try Budget(fps: 120).milliseconds, 2.0833333333, accuracy: 1e-9)
        XCTAssertEqual(try Budget(fps: 30, share: 0.5).milliseconds, 16.666666666, accuracy: 1e-8)
        XCTAssertEqual(try Budget(fps: 60, share: 1).milliseconds, 16.666666666, accuracy: 1e-8)
        XCTAssertTrue(b60.fits(p95Ms: 4.16))
        XCTAssertFalse(b60.fits(p95Ms: 4.17))
    }

    func testShareParsing() throws {
        XCTAssertEqual(try Budget.parseShare("25%"), 0.25)
        XCTAssertEqual(try Budget.parseShare("0.25"), 0.25)
        XCTAssertEqual(try Budget.parseShare("100%"), 1)
        XCTAssertEqual(try Budget.parseShare("1"), 1)
        // A bare number is a fraction: 25 is not 25%, it is refused.
        for bad in ["0", "-5%", "150%", "abc", "nan", "25", "2"] {
            XCTAssertThrowsError(try Budget.parseShare(bad), bad)
        }
        XCTAssertThrowsError(try Budget(fps: 0))
        XCTAssertThrowsError(try Budget(fps: .nan))
        XCTAssertThrowsError(try Budget(fps: 60, share: 0))
    }

    func testProfilesOfSpecSection6() throws {
        let expected: [(String, Int, Int, Double, Int)] = [
            ("iphone-se1", 640, 1136, 60, 2), ("iphone-6", 750, 1334, 60, 2), ("iphone-11", 828, 1792, 60, 6),
            ("android-go", 720, 1600, 60, 4), ("pi-zero-2w", 1280, 720, 60, 4), ("promotion-120", 1179, 2556, 120, 6),
        ]
        XCTAssertEqual(DeviceProfile.all.count, expected.count)
        for (name, w, h, fps, cores) in expected {
            let p = try DeviceProfile.named(name)
            XCTAssertEqual([p.width, p.height, p.cores], [w, h, cores], name)
            XCTAssertEqual(p.fps, fps, name)
        }
        XCTAssertEqual(DeviceProfile.default.name, "iphone-6")
        XCTAssertEqual(DeviceProfile.largest.name, "promotion-120")
        XCTAssertThrowsError(try DeviceProfile.named("iphone-99")) { e in
            XCTAssertTrue("\(e)".contains("iphone-se1"), "the error lists the accepted names")
        }
    }

    func testThreadsDefaultToProfileCoresCappedByHost() throws {
        let p11 = try DeviceProfile.named("iphone-11")
        XCTAssertEqual(Budget.defaultThreads(profile: p11, hostCores: 2), 2)
        XCTAssertEqual(Budget.defaultThreads(profile: p11, hostCores: 16), 6)
        XCTAssertEqual(Budget.defaultThreads(profile: .default, hostCores: 1), 1)
    }
}
