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
}
