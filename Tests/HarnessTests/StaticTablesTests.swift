import XCTest
import RasterKit
import RasterHarness

/// The literal tables the library builds without `try`: a typo in one of
/// them fails here rather than reaching a user.
final class StaticTablesTests: XCTestCase {
    func testEverySceneVariantTextParses() throws {
        for type in SceneCatalog.all {
            let info = type.info
            XCTAssertEqual(info.variants.first, "exact", info.name)
            for text in info.variants {
                XCTAssertNoThrow(try SceneVariant(parsing: text), "\(info.name): \(text)")
            }
            // None dropped: the scene's own list, then exact at each reduced scale.
            XCTAssertEqual(type.suiteVariants.count, info.variants.count + Renderer.scales.count - 1, info.name)
            for (variant, scale) in zip(type.suiteVariants.suffix(Renderer.scales.count - 1), Renderer.scales.dropFirst()) {
                XCTAssertEqual(variant, try SceneVariant("exact", scale: scale))
            }
        }
        XCTAssertEqual(SceneVariant.exact, try SceneVariant("exact"))
    }

    func testDefaultsAreInTheirTables() throws {
        XCTAssertEqual(try DeviceProfile.named(DeviceProfile.defaultName), DeviceProfile.default)
        XCTAssertEqual(DeviceProfile.all.filter { $0 == DeviceProfile.default }.count, 1)
        XCTAssertEqual(DeviceProfile.default.name, "iphone-6")
        XCTAssertEqual(try MemoryBudget(bytes: MemoryBudget.default.bytes), MemoryBudget.default)
    }

    func testFixtureColorsParse() {
        for hex in Fixtures.telegramColors {
            XCTAssertNoThrow(try Color(hex: hex), hex)
        }
    }

    /// The suite's fixtures are built per frame size: at the smallest and
    /// the largest sizes a plan accepts they build (or throw), never trap.
    func testFixturesBuildAtExtremeSizes() throws {
        for (w, h) in [(1, 1), (1, 7), (Image.maxDimension, 1)] {
            let plan = SuitePlan(profile: .default, backends: [.naive], threads: [1], entries: Suite.entries,
                                 width: w, height: h)
            XCTAssertFalse(try plan.workloads().isEmpty, "\(w)x\(h)")
        }
    }

    /// The blur's down-sampling plan refuses a factor whose small sigma
    /// could leave the accepted range, rather than trapping.
    func testBlurResamplingRefusesFactorsOutsideItsRange() throws {
        let blur = try GaussianBlur(sigma: GaussianBlur.minSigma)
        for f in BlurResampling.factors {
            let plan = try BlurResampling(blur, factor: f, width: 9, height: 9)
            XCTAssertGreaterThanOrEqual(plan.smallBlur.sigma, GaussianBlur.minSigma)
        }
        for f in [0, -1, BlurResampling.factors.upperBound + 1, Int.max] {
            XCTAssertThrowsError(try BlurResampling(blur, factor: f, width: 9, height: 9), "\(f)")
        }
    }
}
