import Foundation
import RasterKit
import XCTest

final class AnimatedWebPTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try makeTestDirectory() }
    override func tearDown() { removeTestDirectory(dir) }

    /// Lossless: every frame decodes to the bytes that went in (translucent
    /// pixels included: premultiplied -> straight -> premultiplied is exact
    /// when every channel is <= alpha), at the canvas size, looping forever,
    /// with frame ends at round((i + 1) * 1000 / fps) ms.
    func testLosslessRoundTripIsExact() throws {
        var rng = SeededGenerator(seed: 11)
        let frames = try (0..<4).map { _ in try rng.image(width: 23, height: 17, stride: 23 * 4 + 20) }
        let url = dir.appendingPathComponent("a.webp")
        let writer = try AnimatedWebPWriter(url: url, width: 23, height: 17, fps: 30, compression: .lossless)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing is written before finish()")
        for f in frames { try writer.add(f.view) }
        XCTAssertEqual(writer.frameCount, 4)
        let bytes = try writer.finish()
        XCTAssertEqual(try Data(contentsOf: url).count, bytes)

        let back = try DecodedAnimation.read(url)
        XCTAssertEqual(back.width, 23)
        XCTAssertEqual(back.height, 17)
        XCTAssertEqual(back.loopCount, 0, "loops forever")
        XCTAssertEqual(back.frames.count, 4)
        XCTAssertEqual(back.endTimestamps, [33, 67, 100, 133])
        for (i, (a, b)) in zip(back.frames, frames).enumerated() {
            XCTAssertEqual(a.packedBytes, b.packedBytes, "frame \(i)")
        }
    }

    /// Smooth frames, opaque at the top and translucent at the bottom, whose
    /// colours move by `leftStep` units a frame at the left edge, `step` at
    /// the right.
    static func gradientFrames(count: Int, step: Int, leftStep: Int, width w: Int = 64, height h: Int = 48) throws -> [Image] {
        try (0..<count).map { k -> Image in
            let image = try Image(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let a = y < h / 2 ? 255 : 140 + y
                    func pm(_ c: Int) -> UInt8 { UInt8((min(255, c) * a + 127) / 255) }
                    // Speed ramps smoothly from left to right (a hard edge
                    // between a slow and a fast half would test VP8's chroma
                    // subsampling instead).
                    let m = (leftStep * (w - 1 - x) + step * x) * k / (w - 1)
                    image.view[x, y] = RGBA8(r: pm(40 + 2 * x + m), g: pm(30 + 3 * y + m), b: pm(220 - m), a: UInt8(a))
                }
            }
            return image
        }
    }

    /// Lossy: each input frame is shown, at its time, within a bound; alpha
    /// (coded losslessly) exactly.
    /// - Fast on the right, slow on the left (1 unit a frame): every frame is
    ///   kept. With libwebp's lossy sub-frames the slow part, below its
    ///   tolerance, would keep showing old decoded pixels and drift (max
    ///   error 33, 31.5 dB, measured with them); key frames: max 12, 42.5 dB.
    ///   Merged (second case): max 10, 40.2 dB.
    /// - All of it slow (2 units a frame): libwebp merges frames closer than
    ///   its tolerance into longer ones; the frame shown at each input's time
    ///   must still be close to that input.
    func testLossyRoundTripStaysWithinBoundAtEveryFrameTime() throws {
        for (step, leftStep, fps) in [(9, 1, 24.0), (2, 2, 30.0)] {
            let count = 16
            let frames = try Self.gradientFrames(count: count, step: step, leftStep: leftStep)
            let url = dir.appendingPathComponent("lossy-\(step).webp")
            let writer = try AnimatedWebPWriter(url: url, width: 64, height: 48, fps: fps)
            XCTAssertEqual(writer.compression, .standard)
            for f in frames { try writer.add(f.view) }
            try writer.finish()
            let back = try DecodedAnimation.read(url)
            if step == 9 { XCTAssertEqual(back.frames.count, count, "every frame kept") }
            XCTAssertLessThanOrEqual(back.frames.count, count)
            XCTAssertEqual(back.endTimestamps.last, writer.timestamp(ofFrame: count), "total duration")
            var worst = (max: 0, psnr: Double.infinity)
            for (i, input) in frames.enumerated() {
                let t = writer.timestamp(ofFrame: i)
                guard let j = back.endTimestamps.firstIndex(where: { $0 > t }) else { XCTFail("no frame at \(t) ms"); continue }
                let pa = back.frames[j].packedBytes, pb = input.packedBytes
                var maxColour = 0, sumSq = 0.0
                for k in 0..<pa.count {
                    let d = abs(Int(pa[k]) - Int(pb[k]))
                    if k % 4 == 3 { if d != 0 { XCTFail("alpha of frame \(i) pixel \(k / 4): \(pa[k]) vs \(pb[k])"); break } else { continue } }
                    maxColour = max(maxColour, d)
                    sumSq += Double(d * d)
                }
                let psnr = 10 * log10(255 * 255 / (sumSq / Double(pa.count * 3 / 4)))
                worst = (max(worst.max, maxColour), min(worst.psnr, psnr))
            }
            XCTAssertLessThanOrEqual(worst.max, 16, "step \(step)")
            XCTAssertGreaterThan(worst.psnr, 38, "step \(step)")
        }
    }

    func testRefusesTooLargeBeforeEncoding() throws {
        let url = dir.appendingPathComponent("big.webp")
        for (w, h) in [(16384, 10), (10, 16384), (0, 10), (10, -1)] {
            XCTAssertThrowsError(try AnimatedWebPWriter(url: url, width: w, height: h, fps: 30)) { error in
                guard case let RasterError.invalidArgument(name, value, _) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(name.contains("big.webp"), "names the output: \(name)")
                XCTAssertEqual(value, "\(w)x\(h)")
            }
        }
        // The largest legal side is accepted (nothing is allocated per frame yet beyond one picture).
        XCTAssertNoThrow(try AnimatedWebPWriter(url: url, width: 16383, height: 1, fps: 30))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }

    func testRefusesBadParameters() throws {
        let url = dir.appendingPathComponent("a.webp")
        for fps in [0, -1, .nan, .infinity, 1001, 0.0001] {
            XCTAssertThrowsError(try AnimatedWebPWriter(url: url, width: 8, height: 8, fps: fps), "fps \(fps)")
        }
        for q: Float in [-1, 100.5, .nan] {
            XCTAssertThrowsError(try AnimatedWebPWriter(url: url, width: 8, height: 8, fps: 30, compression: .lossy(quality: q)))
        }
        XCTAssertThrowsError(try AnimatedWebPWriter(url: url, width: 8, height: 8, fps: 30, effort: 7))
        XCTAssertThrowsError(try AnimatedWebPWriter(url: dir.appendingPathComponent("a.png"), width: 8, height: 8, fps: 30))
        XCTAssertThrowsError(try AnimatedWebPWriter(url: dir.appendingPathComponent("missing/a.webp"), width: 8, height: 8, fps: 30))
        // A directory where the file should go is refused up front.
        let blocker = dir.appendingPathComponent("d.webp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        XCTAssertThrowsError(try AnimatedWebPWriter(url: blocker, width: 8, height: 8, fps: 30))
        XCTAssertNoThrow(try AnimatedWebPWriter(url: dir.appendingPathComponent("UPPER.WEBP"), width: 8, height: 8, fps: 30))
    }

    /// The check happens in the initialiser, i.e. before any frame exists.
    func testRefusesUnwritableDirectoryUpFront() throws {
        let ro = try unwritableDirectory(in: dir)
        XCTAssertThrowsError(try AnimatedWebPWriter(url: ro.appendingPathComponent("a.webp"), width: 8, height: 8, fps: 30)) { error in
            guard case RasterError.io = error else { return XCTFail("\(error)") }
        }
    }

    func testMisuseIsAnErrorNotATrap() throws {
        let url = dir.appendingPathComponent("a.webp")
        let writer = try AnimatedWebPWriter(url: url, width: 8, height: 8, fps: 30)
        let wrong = try Image(width: 9, height: 8), right = try Image(width: 8, height: 8)
        XCTAssertThrowsError(try writer.add(wrong.view))
        XCTAssertThrowsError(try writer.finish(), "no frames")
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "a failed finish leaves no file")
        XCTAssertThrowsError(try writer.add(right.view), "spent")

        let two = try AnimatedWebPWriter(url: url, width: 8, height: 8, fps: 30)
        try two.add(right.view)
        try two.finish()
        XCTAssertThrowsError(try two.finish())
        XCTAssertThrowsError(try two.add(right.view))
    }

    /// An existing file is replaced whole; leftovers of the temporary file
    /// never remain. (Two frames: libwebp writes a one-frame animation as a
    /// still image, which has no timing to check.)
    func testReplacesExistingFileAtomically() throws {
        let url = dir.appendingPathComponent("a.webp")
        try Data("old".utf8).write(to: url)
        let writer = try AnimatedWebPWriter(url: url, width: 8, height: 8, fps: 10, compression: .lossless)
        let a = try Image(width: 8, height: 8), b = try Image(width: 8, height: 8)
        a.fill(RGBA8(r: 10, g: 20, b: 30, a: 255))
        b.fill(RGBA8(r: 0, g: 20, b: 0, a: 40))
        try writer.add(a.view)
        try writer.add(b.view)
        try writer.finish()
        let back = try DecodedAnimation.read(url)
        XCTAssertEqual(back.frames.map(\.packedBytes), [a.packedBytes, b.packedBytes])
        XCTAssertEqual(back.endTimestamps, [100, 200])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.webp"])
    }
}
