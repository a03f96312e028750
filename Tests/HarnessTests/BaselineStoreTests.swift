import Foundation
import XCTest
import RasterHarness

/// Named baselines: a report saved under a name and found again by `@NAME`.
final class BaselineStoreTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("baselines-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func write(_ rows: [ReportRow], _ name: String) throws -> String {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try ReportCSV.document(rows).write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func testSavedBaselineComparesLikeItsFile() throws {
        let base = [CompareTests.row(rounds: CompareTests.base), CompareTests.row(variant: "lut", rounds: CompareTests.base)]
        let new = [CompareTests.row(rounds: CompareTests.scaled(0.8)), CompareTests.row(variant: "lut", rounds: CompareTests.twin)]
        let basePath = try write(base, "base.csv"), newPath = try write(new, "new.csv")
        // The store folder does not exist yet: saving creates it.
        let store = BaselineStore(directory: dir.appendingPathComponent("runs/baselines").path)
        XCTAssertEqual(store.names(), [])
        try store.save(try ReportFile.load(basePath), as: "before-1.x")
        XCTAssertEqual(store.names(), ["before-1.x"])
        XCTAssertEqual(try store.resolve(newPath), newPath, "a path is taken as given")

        func compared(_ a: String) throws -> String {
            Compare.render(Compare.reports(base: try ReportFile.load(a), new: try ReportFile.load(newPath), baseName: "base", newName: "new"))
        }
        let byName = try compared(try store.resolve("@before-1.x"))
        XCTAssertEqual(byName, try compared(basePath))
        XCTAssertTrue(byName.contains("faster"), byName)
    }

    func testBadAndUnknownNamesAreOneLineErrors() throws {
        let store = BaselineStore(directory: dir.path)
        for bad in ["", ".hidden", "../up", "a/b", "sp ace", "new\nline", "\u{1b}[31m", "é", String(repeating: "x", count: 101)] {
            XCTAssertThrowsError(try BaselineStore.validate(bad), bad.debugDescription) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("baseline name") && text.contains("letters, digits"), text)
                XCTAssertFalse(text.contains("\n") || text.contains("\u{1b}"), text)
            }
            XCTAssertThrowsError(try store.save([], as: bad))
            XCTAssertThrowsError(try store.resolve("@" + bad))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path), "a refused name writes nothing")
        XCTAssertNoThrow(try BaselineStore.validate("main_2026-11.25"))

        // Unknown: with none saved, how to save one; else the saved names.
        XCTAssertThrowsError(try store.resolve("@nope")) { XCTAssertTrue("\($0)".contains("none saved"), "\($0)") }
        try store.save([CompareTests.row(rounds: CompareTests.base)], as: "b")
        try store.save([CompareTests.row(rounds: CompareTests.base)], as: "a")
        XCTAssertThrowsError(try store.resolve("@nope")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("'nope'") && text.hasSuffix("a, b)"), text)
        }
    }
}
