import Foundation
import RasterKit
import RasterReference
import XCTest

final class ImageFileTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rasterkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// PNG stores straight alpha: opaque pixels round-trip exactly;
    /// translucent ones within the precision straight alpha can hold.
    func testPNGRoundTrip() throws {
        var rng = SeededGenerator(seed: 3)
        let image = try rng.image(width: 31, height: 7, stride: 31 * 4 + 12)
        let url = dir.appendingPathComponent("a.png")
        try ImageFile.write(image.view, to: url)
        let back = try ImageFile.readPNG(url)
        XCTAssertEqual(back.width, 31)
        XCTAssertEqual(back.height, 7)
        let d = ImageDiff(back.view, image.view)
        // Un-premultiplying then re-premultiplying loses at most a step
        // where alpha is small (each straight step is a/255 of a premultiplied one).
        XCTAssertLessThanOrEqual(d.maxError, 1, "\(d)")
        let opaque = try Image(width: 5, height: 5); opaque.fill(RGBA8(r: 7, g: 77, b: 177, a: 255))
        try ImageFile.write(opaque.view, to: url)
        XCTAssertEqual(try ImageFile.readPNG(url).packedBytes, opaque.packedBytes)
    }

    func testRawRoundTripIsExact() throws {
        var rng = SeededGenerator(seed: 4)
        let image = try rng.image(width: 9, height: 4, stride: 48)
        let url = dir.appendingPathComponent("a.rgba")
        try ImageFile.write(image.view, to: url)
        XCTAssertEqual(try Data(contentsOf: url).count, 9 * 4 * 4)
        XCTAssertEqual(try ImageFile.read(url, width: 9, height: 4).packedBytes, image.packedBytes)
        XCTAssertThrowsError(try ImageFile.read(url, width: 8, height: 4))
    }

    func testBadFilesAreErrors() throws {
        let junk = dir.appendingPathComponent("junk.png")
        try Data("not a png".utf8).write(to: junk)
        XCTAssertThrowsError(try ImageFile.readPNG(junk))
        let image = try Image(width: 2, height: 2)
        XCTAssertThrowsError(try ImageFile.write(image.view, to: dir.appendingPathComponent("x.bmp")))
        XCTAssertThrowsError(try ImageFile.write(image.view, to: dir.appendingPathComponent("missing/x.png")))
    }

    /// A failed write leaves neither the target nor a temporary file behind.
    /// (The target is an existing directory, so the final rename fails even
    /// for root, who may write anywhere else.)
    func testFailedWriteLeavesNoFile() throws {
        let blocker = dir.appendingPathComponent("x.png")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        // The image is held for the write: an `ImageView` does not own its
        // pixels, and `Image(...).view` of a temporary dangles (ASan found a
        // heap-use-after-free here).
        let image = try Image(width: 2, height: 2)
        XCTAssertThrowsError(try ImageFile.write(image.view, to: blocker))
        withExtendedLifetime(image) {}
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["x.png"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: blocker.path), [])
    }

    /// `image` ops load PNG and .rgba files relative to the job file and
    /// composite them source-over.
    func testImageOpsLoadRelativeToTheJobFile() throws {
        var rng = SeededGenerator(seed: 8)
        let sub = dir.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let opaque = try Image(width: 6, height: 4); opaque.fill(RGBA8(r: 200, g: 100, b: 50, a: 255))
        try ImageFile.write(opaque.view, to: sub.appendingPathComponent("base.png"))
        let overlay = try rng.image(width: 6, height: 4)
        try ImageFile.write(overlay.view, to: sub.appendingPathComponent("overlay.rgba"))
        let jobURL = dir.appendingPathComponent("job.json")
        try Data(##"{ "width": 6, "height": 4, "ops": [ { "op": "image", "file": "assets/base.png" }, { "op": "image", "file": "assets/overlay.rgba" } ] }"##.utf8)
            .write(to: jobURL)
        let job = try Job.load(contentsOf: jobURL)
        let expected = try Image(width: 6, height: 4); expected.view.copy(from: opaque.view)
        try NaiveBackend().composite(overlay.view, onto: expected.view, opacity: 1)
        for kind in BackendKind.allCases {
            XCTAssertEqual(try Renderer(backend: kind.make(threads: 2)).render(job).packedBytes, expected.packedBytes, "\(kind)")
        }
        try Data(##"{ "width": 7, "height": 4, "ops": [ { "op": "image", "file": "assets/base.png" } ] }"##.utf8).write(to: jobURL)
        XCTAssertThrowsError(try Job.load(contentsOf: jobURL)) { XCTAssert("\($0)".contains("6x4")) }
    }
}
