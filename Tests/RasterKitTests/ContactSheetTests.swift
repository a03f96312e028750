import Foundation
import RasterKit
import XCTest

final class ContactSheetTests: XCTestCase {
    /// Ten iphone-6 frames as 75-pixel thumbnails: height round(75 * 667 /
    /// 375) = 133. Sheet widths/heights by column count (gap 8):
    /// 5 -> 423x290 (1.46), 6 -> 506x290 (1.745), 7 -> 589x290 (2.03);
    /// 16:9 = 1.778 picks 6 columns, 2 rows.
    func testLayoutChoosesColumnsNearSixteenByNine() throws {
        let l = try ContactSheet.Layout(frameCount: 10, frameWidth: 375, frameHeight: 667, thumbnailWidth: 75, gap: 8)
        XCTAssertEqual(l.thumbnailHeight, 133)
        XCTAssertEqual(l.columns, 6)
        XCTAssertEqual(l.rows, 2)
        XCTAssertEqual(l.width, 506)
        XCTAssertEqual(l.height, 290)
        XCTAssertTrue(l.origin(ofThumbnail: 0) == (8, 8))
        XCTAssertTrue(l.origin(ofThumbnail: 5) == (8 + 5 * 83, 8))
        XCTAssertTrue(l.origin(ofThumbnail: 7) == (8 + 83, 8 + 141))
        // A given aspect or column count wins.
        XCTAssertEqual(try ContactSheet.Layout(frameCount: 10, frameWidth: 375, frameHeight: 667,
                                               thumbnailWidth: 75, gap: 8, aspect: 1).columns, 4) // 340x431 (0.79) vs 5: 1.46
        let given = try ContactSheet.Layout(frameCount: 10, frameWidth: 375, frameHeight: 667, thumbnailWidth: 75, gap: 0, columns: 3)
        XCTAssertEqual(given.rows, 4)
        XCTAssertEqual(given.width, 225)
        XCTAssertEqual(given.height, 532)
    }

    /// The box filter on images small enough to check by hand.
    func testBoxFilterAveragesByArea() throws {
        // 3 -> 2 columns: target pixel 0 covers source 0 and 2/3... in units of
        // 1/2 pixel it spans [0, 3): source 0 weighs 2, source 1 weighs 1.
        // So (2 * v0 + v1) / 3 and (v1 + 2 * v2) / 3.
        let row = try Image(width: 3, height: 1)
        row.view[0, 0] = RGBA8(r: 0, g: 1, b: 255, a: 255)
        row.view[1, 0] = RGBA8(r: 30, g: 0, b: 255, a: 255)
        row.view[2, 0] = RGBA8(r: 90, g: 0, b: 254, a: 255)
        // (Views do not own pixels: keep each image alive while its view is used.)
        let sheet = try withExtendedLifetime(row) {
            try ContactSheet.compose([row.view], thumbnailWidth: 2, gap: 1, background: RGBA8(r: 1, g: 2, b: 3, a: 4))
        }
        XCTAssertEqual(sheet.width, 4)  // gap + 2 + gap
        XCTAssertEqual(sheet.height, 3) // height round(2 * 1 / 3) = 1
        XCTAssertEqual(sheet[1, 1], RGBA8(r: 10, g: 1, b: 255, a: 255))   // g: 2/3 rounds to 1
        XCTAssertEqual(sheet[2, 1], RGBA8(r: 70, g: 0, b: 254, a: 255))   // b: (255 + 508) / 3 = 254.33
        for (x, y) in [(0, 0), (3, 0), (0, 1), (3, 1), (1, 2), (2, 0)] {
            XCTAssertEqual(sheet[x, y], RGBA8(r: 1, g: 2, b: 3, a: 4), "gap at \(x),\(y)")
        }

        // 4x2 -> 2x1: each thumbnail pixel is the mean of a 2x2 block, on
        // premultiplied values, ties rounded up (1.5 -> 2, 0.5 -> 1).
        let block = try Image(width: 4, height: 2, stride: 32)
        let px: [[RGBA8]] = [
            [RGBA8(r: 10, g: 0, b: 0, a: 100), RGBA8(r: 20, g: 1, b: 0, a: 100), RGBA8(r: 0, g: 0, b: 0, a: 0), RGBA8(r: 1, g: 0, b: 0, a: 1)],
            [RGBA8(r: 30, g: 0, b: 0, a: 100), RGBA8(r: 40, g: 1, b: 0, a: 101), RGBA8(r: 1, g: 0, b: 0, a: 1), RGBA8(r: 0, g: 0, b: 0, a: 0)],
        ]
        for y in 0..<2 { for x in 0..<4 { block.view[x, y] = px[y][x] } }
        let two = try withExtendedLifetime(block) { try ContactSheet.compose([block.view], thumbnailWidth: 2, gap: 0) }
        XCTAssertEqual(two.width, 2)
        XCTAssertEqual(two.height, 1)
        XCTAssertEqual(two[0, 0], RGBA8(r: 25, g: 1, b: 0, a: 100)) // g 2/4 = 0.5 -> 1, a 401/4 = 100.25
        XCTAssertEqual(two[1, 0], RGBA8(r: 1, g: 0, b: 0, a: 1))    // r, a: 2/4 = 0.5 -> 1
    }

    /// A constant frame stays constant at any ratio (weights sum exactly).
    func testConstantFrameStaysConstant() throws {
        let frame = try Image(width: 37, height: 23)
        let c = RGBA8(r: 51, g: 102, b: 3, a: 153)
        frame.fill(c)
        for tw in [1, 5, 10, 36, 37] {
            let sheet = try withExtendedLifetime(frame) { try ContactSheet.compose([frame.view], thumbnailWidth: tw, gap: 0) }
            let expected = [UInt8](repeating: 0, count: sheet.width * sheet.height).flatMap { _ in [c.r, c.g, c.b, c.a] }
            XCTAssertEqual(sheet.packedBytes, expected, "width \(tw)")
            XCTAssertEqual(sheet.width, tw)
        }
    }

    /// Thumbnails go left to right, then down; empty cells keep the background.
    func testThumbnailsInReadingOrder() throws {
        let frames = try (0..<5).map { i -> Image in
            let f = try Image(width: 8, height: 6)
            f.fill(RGBA8(r: UInt8(40 * i + 10), g: 0, b: 0, a: 255))
            return f
        }
        let bg = RGBA8(r: 0, g: 0, b: 99, a: 255)
        let layout = try ContactSheet.Layout(frameCount: 5, frameWidth: 8, frameHeight: 6, thumbnailWidth: 4, gap: 2, columns: 3)
        let sheet = try ContactSheet(layout: layout, background: bg)
        for f in frames { try sheet.add(f.view) }
        XCTAssertEqual(sheet.added, 5)
        XCTAssertEqual(layout.thumbnailHeight, 3)
        for i in 0..<5 {
            let (x, y) = layout.origin(ofThumbnail: i)
            XCTAssertEqual(x, 2 + (i % 3) * 6)
            XCTAssertEqual(y, 2 + (i / 3) * 5)
            for dy in 0..<3 { for dx in 0..<4 {
                XCTAssertEqual(sheet.image[x + dx, y + dy], RGBA8(r: UInt8(40 * i + 10), g: 0, b: 0, a: 255), "thumbnail \(i)")
            } }
        }
        let (ex, ey) = layout.origin(ofThumbnail: 5)
        XCTAssertEqual(sheet.image[ex + 1, ey + 1], bg, "the sixth cell is empty")
        XCTAssertThrowsError(try sheet.add(frames[0].view), "more frames than the layout holds")
    }

    func testBadInputsAreErrors() throws {
        func layout(_ n: Int = 4, _ w: Int = 40, _ h: Int = 30, _ tw: Int = 10, gap: Int = 2, columns: Int? = nil) throws -> ContactSheet.Layout {
            try ContactSheet.Layout(frameCount: n, frameWidth: w, frameHeight: h, thumbnailWidth: tw, gap: gap, columns: columns)
        }
        XCTAssertThrowsError(try layout(0))
        XCTAssertThrowsError(try layout(4, 0))
        XCTAssertThrowsError(try layout(4, 40, 30, 0))
        XCTAssertThrowsError(try layout(4, 40, 30, 41), "thumbnails only shrink")
        XCTAssertThrowsError(try layout(gap: -1))
        XCTAssertThrowsError(try layout(columns: 0))
        XCTAssertThrowsError(try layout(columns: 5))
        XCTAssertThrowsError(try ContactSheet.Layout(frameCount: 4, frameWidth: 40, frameHeight: 30, thumbnailWidth: 10, aspect: .nan))
        // A sheet larger than an image may be: 2000 frames in one row.
        XCTAssertThrowsError(try layout(2000, 40, 30, 20, columns: 2000))
        XCTAssertThrowsError(try ContactSheet.compose([], thumbnailWidth: 10))
        let sheet = try ContactSheet(layout: try layout())
        let wrong = try Image(width: 41, height: 30)
        XCTAssertThrowsError(try sheet.add(wrong.view))
    }

    func testFrameIndicesSpreadOverTheCycle() throws {
        XCTAssertEqual(try ContactSheet.frameIndices(count: 4, cycle: 120), [0, 30, 60, 90])
        XCTAssertEqual(try ContactSheet.frameIndices(count: 3, cycle: 10), [0, 3, 6])
        XCTAssertEqual(try ContactSheet.frameIndices(count: 1, cycle: 1), [0])
        XCTAssertThrowsError(try ContactSheet.frameIndices(count: 11, cycle: 10))
        XCTAssertThrowsError(try ContactSheet.frameIndices(count: 0, cycle: 10))
    }
}
