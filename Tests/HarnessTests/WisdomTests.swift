import Foundation
import XCTest
import RasterKit
@testable import RasterHarness

/// Wisdom: what `choose --save` writes and an app loads. It must come back
/// as written, refuse to apply on another host, build or profile, and
/// configure a renderer that draws exactly the chosen option.
final class WisdomTests: XCTestCase {
    static let host = Wisdom.Host(cpu: "Test CPU 3000", cores: 2, os: "Linux 6", hostname: "box")
    static let build = Wisdom.Build(commit: "abc1234", flags: "swift -O", optimized: true, openMP: true, swiftVersion: "6.3")

    /// Aurora: exact does not fit a 4 ms budget; layer=quarter,blur=iir at
    /// half scale on simd t=2 does. Telegram: nothing fits. Exact is
    /// infinitely good (identical to the reference) to check that inf survives JSON.
    static func wisdom() throws -> Wisdom {
        let rows = [
            ChooserTests.row("exact", p95: 9, psnr: .infinity, maxErr: 0),
            ChooserTests.row("layer=quarter,blur=iir", scale: 0.5, backend: .simd, threads: 2, p95: 3, psnr: 41),
            ChooserTests.row("blur=down4", backend: .openmp, threads: 2, p95: 2, psnr: 33),
            ChooserTests.row("exact", target: "telegram", p95: 20, psnr: 98, maxErr: 1),
        ]
        let budget = try Budget(fps: 60, share: 0.25)
        let fronts = QualityFront.fronts(from: rows)
        let choices = fronts.map { Chooser.choose($0, budgetMs: budget.milliseconds) }
        return Wisdom(date: "2026-11-22T20:00:00Z", host: host, build: build, profile: try DeviceProfile.named("iphone-6"),
                      measuredThreads: 2, budget: budget, headroom: 0.1, fronts: fronts, choices: choices)
    }

    func testRoundTripThroughAFile() throws {
        let w = try Self.wisdom()
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wisdom-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try w.save(to: url)
        let back = try Wisdom.load(from: url)
        XCTAssertEqual(back, w)
        XCTAssertEqual(back.fronts[0].options.first?.psnrDb, .infinity)
        XCTAssertEqual(try back.option(for: "aurora").variantText, "layer=quarter,blur=iir@0.5")
        XCTAssertEqual(back.choices.map { $0.name }, ["aurora", "telegram"])
    }

    func testMismatchesAreListed() throws {
        let w = try Self.wisdom()
        XCTAssertEqual(w.check(host: Self.host, build: Self.build, profile: "iphone-6"), [])
        XCTAssertNoThrow(try w.validated(host: Self.host, build: Self.build, profile: "iphone-6"))

        var otherHost = Self.host; otherHost.cpu = "Other CPU"; otherHost.cores = 8
        XCTAssertEqual(w.check(host: otherHost, build: Self.build, profile: "iphone-6"),
                       [.host(field: "cpu", saved: "Test CPU 3000", current: "Other CPU"),
                        .host(field: "cores", saved: "2", current: "8")])
        var renamed = Self.host; renamed.hostname = "other-container"
        XCTAssertEqual(w.check(host: renamed, build: Self.build, profile: "iphone-6"), [], "a hostname alone is not another machine")

        var otherBuild = Self.build; otherBuild.commit = "def5678"; otherBuild.optimized = false
        XCTAssertEqual(w.check(host: Self.host, build: otherBuild, profile: "iphone-6").count, 2)
        XCTAssertTrue(w.check(host: Self.host, build: otherBuild, profile: "iphone-6").allSatisfy {
            if case .build = $0 { return true } else { return false }
        })

        XCTAssertEqual(w.check(host: Self.host, build: Self.build, profile: "iphone-11"),
                       [.profile(saved: "iphone-6", current: "iphone-11")])
        XCTAssertThrowsError(try w.validated(host: otherHost, build: otherBuild, profile: "iphone-11")) { e in
            guard case let WisdomError.mismatch(m) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(m.count, 5)
            XCTAssertTrue("\(e)".contains("other host") && "\(e)".contains("other build") && "\(e)".contains("other profile"), "\(e)")
        }
        // Against this process: the saved test host is foreign.
        XCTAssertFalse(w.check(profile: "iphone-6").isEmpty)
    }

    func testUnreadableAndMissingChoicesAreTypedErrors() throws {
        XCTAssertThrowsError(try Wisdom.decode(Data("[1,2]".utf8))) { e in
            guard case WisdomError.unreadable = e else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try Wisdom.decode(Data(#"{"format": 99}"#.utf8))) { e in
            XCTAssertTrue("\(e)".contains("format 99"), "\(e)")
        }
        XCTAssertThrowsError(try Wisdom.decode(Data(#"{"format": 1, "date": "x"}"#.utf8))) { e in
            XCTAssertTrue("\(e)".contains("missing field"), "\(e)")
        }
        XCTAssertThrowsError(try Wisdom.load(from: URL(fileURLWithPath: "/nonexistent/wisdom.json")))
        let w = try Self.wisdom()
        XCTAssertThrowsError(try w.renderer(for: "liquid")) { e in
            guard case WisdomError.noChoice = e else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try w.renderer(for: "telegram")) { e in
            guard case let WisdomError.nothingFits(_, miss) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(miss!, 20 - 1000.0 / 60 * 0.25 * 0.9, accuracy: 1e-9)
        }
        XCTAssertEqual(try w.renderer(for: "telegram", orFastest: true).backend.kind, .simd)
    }

    /// A renderer from loaded wisdom draws byte for byte what one configured
    /// by hand with the chosen option draws -- and not what exact draws.
    func testRendererFromLoadedWisdomMatchesTheChosenOptionByHand() throws {
        let loaded = try Wisdom.decode(try Self.wisdom().encoded())
        let fromWisdom = try loaded.renderer(for: "aurora")
        let byHand = try Renderer(backend: BackendKind.simd.make(threads: 2),
                                  variants: VariantSelection(parsing: "layer=quarter,blur=iir"), scale: 0.5)
        XCTAssertEqual(fromWisdom.backend.kind, .simd)
        XCTAssertEqual(fromWisdom.backend.threads, 2)
        XCTAssertEqual(fromWisdom.scale, 0.5)
        XCTAssertEqual(fromWisdom.variants, byHand.variants)

        let canvas = try SceneCanvas(width: 96, height: 160, scale: 1, fps: 60)
        let scene = try SceneCatalog.make("aurora", canvas: canvas)
        let job = try scene.job(frame: 17)
        let a = try fromWisdom.render(job).packedBytes
        XCTAssertTrue(try a == byHand.render(job).packedBytes, "wisdom's renderer and the hand-made one differ")
        let exact = try Renderer(backend: BackendKind.simd.make(threads: 2)).render(job).packedBytes
        XCTAssertNotEqual(a, exact, "the chosen option is not the exact one: the test would see a renderer that ignored it")
    }
}
