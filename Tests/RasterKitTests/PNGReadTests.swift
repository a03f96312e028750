import Foundation
import RasterKit
import XCTest

/// The PNG reader against files written by an independent encoder
/// (PNGTestEncoder): every colour type and bit depth, tRNS, and Adam7, each
/// pixel held to docs/contract.md §1's rule -- colour stays in encoded values, a
/// sample of depth d becomes round(v * 255 / (2^d - 1)), then premultiplied.
final class PNGReadTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pngread-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A sample of `depth` bits as 8 bits: round(v * 255 / max).
    func to8(_ v: Int, depth: Int) -> Int {
        let top = (1 << depth) - 1
        return Int((Double(v) * 255 / Double(top)).rounded())
    }

    func premultiplied(_ c: Int, _ a: Int) -> UInt8 { UInt8((Double(c * a) / 255).rounded()) }

    /// Writes `png`, reads it back, and checks every pixel against `expected(x, y)` (straight RGBA8).
    func check(_ png: PNGTestEncoder, _ what: String, expected: (Int, Int) -> (Int, Int, Int, Int),
               file: StaticString = #filePath, line: UInt = #line) throws {
        let url = dir.appendingPathComponent("t.png")
        try png.encode().write(to: url)
        let image = try ImageFile.readPNG(url)
        XCTAssertEqual(image.width, png.width, what, file: file, line: line)
        XCTAssertEqual(image.height, png.height, what, file: file, line: line)
        var wrong = 0
        for y in 0..<png.height {
            for x in 0..<png.width {
                let (r, g, b, a) = expected(x, y)
                let p = image.pixels + y * image.stride + 4 * x
                let got = [p[0], p[1], p[2], p[3]]
                let want = [premultiplied(r, a), premultiplied(g, a), premultiplied(b, a), UInt8(a)]
                if got != want {
                    if wrong < 3 { XCTFail("\(what) (\(x), \(y)): \(got), expected \(want)", file: file, line: line) }
                    wrong += 1
                }
            }
        }
    }

    /// Odd sizes so that Adam7's passes are partly empty and rows end mid-byte.
    let sizes = [(1, 1), (3, 5), (13, 11)]

    func testGreyAtEveryDepth() throws {
        for depth in [1, 2, 4, 8, 16] {
            for (w, h) in sizes {
                for interlaced in [false, true] {
                    let top = (1 << depth) - 1
                    let s = (0..<h).map { y in (0..<w).map { x in [(x * 7 + y * 13 + 0x80) % (top + 1)] } }
                    var png = PNGTestEncoder(width: w, height: h, colorType: .grey, bitDepth: depth, samples: s)
                    png.interlaced = interlaced
                    try check(png, "grey \(depth)-bit \(w)x\(h) interlaced \(interlaced)") { x, y in
                        let v = self.to8(s[y][x][0], depth: depth)
                        return (v, v, v, 255)
                    }
                }
            }
        }
    }

    /// The case libpng's simplified reader gets wrong: 16-bit grey 0x8080 is 128, not 186.
    func testSixteenBitIsEncodedNotLinear() throws {
        let png = PNGTestEncoder(width: 2, height: 1, colorType: .grey, bitDepth: 16, samples: [[[0x8080], [0xFFFF]]])
        try check(png, "grey 16-bit 0x8080") { x, _ in x == 0 ? (128, 128, 128, 255) : (255, 255, 255, 255) }
    }

    func testColourTypesAndAlpha() throws {
        for depth in [8, 16] {
            for interlaced in [false, true] {
                let (w, h) = (13, 11), top = (1 << depth) - 1
                func v(_ x: Int, _ y: Int, _ c: Int) -> Int { (x * 37 + y * 101 + c * 59) * (top / 255) % (top + 1) }
                var rgb = PNGTestEncoder(width: w, height: h, colorType: .rgb, bitDepth: depth,
                                         samples: (0..<h).map { y in (0..<w).map { x in [v(x, y, 0), v(x, y, 1), v(x, y, 2)] } })
                rgb.interlaced = interlaced
                try check(rgb, "rgb \(depth) interlaced \(interlaced)") { x, y in
                    (self.to8(v(x, y, 0), depth: depth), self.to8(v(x, y, 1), depth: depth), self.to8(v(x, y, 2), depth: depth), 255)
                }
                var rgba = PNGTestEncoder(width: w, height: h, colorType: .rgba, bitDepth: depth,
                                          samples: (0..<h).map { y in (0..<w).map { x in [v(x, y, 0), v(x, y, 1), v(x, y, 2), v(x, y, 3)] } })
                rgba.interlaced = interlaced
                try check(rgba, "rgba \(depth) interlaced \(interlaced)") { x, y in
                    (self.to8(v(x, y, 0), depth: depth), self.to8(v(x, y, 1), depth: depth), self.to8(v(x, y, 2), depth: depth),
                     self.to8(v(x, y, 3), depth: depth))
                }
                var greyAlpha = PNGTestEncoder(width: w, height: h, colorType: .greyAlpha, bitDepth: depth,
                                               samples: (0..<h).map { y in (0..<w).map { x in [v(x, y, 0), v(x, y, 3)] } })
                greyAlpha.interlaced = interlaced
                try check(greyAlpha, "grey+alpha \(depth) interlaced \(interlaced)") { x, y in
                    let g = self.to8(v(x, y, 0), depth: depth)
                    return (g, g, g, self.to8(v(x, y, 3), depth: depth))
                }
            }
        }
    }

    func testPaletteWithTransparency() throws {
        for depth in [1, 2, 4, 8] {
            for interlaced in [false, true] {
                let n = 1 << depth, (w, h) = (13, 11)
                let palette: [(UInt8, UInt8, UInt8)] = (0..<n).map { (i: Int) -> (UInt8, UInt8, UInt8) in
                    let r = i * 41 % 256, g = i * 97 % 256, b = 255 - i * 13 % 256
                    return (UInt8(r), UInt8(g), UInt8(b))
                }
                let alpha = (0..<max(1, n / 2)).map { $0 * 77 % 256 } // entries past tRNS are opaque
                let s = (0..<h).map { y in (0..<w).map { x in [(x * 3 + y * 5) % n] } }
                var png = PNGTestEncoder(width: w, height: h, colorType: .palette, bitDepth: depth, samples: s)
                png.palette = palette; png.transparency = alpha; png.interlaced = interlaced
                try check(png, "palette \(depth)-bit interlaced \(interlaced)") { x, y in
                    let i = s[y][x][0], c = palette[i]
                    return (Int(c.0), Int(c.1), Int(c.2), i < alpha.count ? alpha[i] : 255)
                }
            }
        }
    }

    /// tRNS on grey and RGB: the one listed sample is transparent.
    func testGreyAndRGBTransparency() throws {
        var grey = PNGTestEncoder(width: 4, height: 1, colorType: .grey, bitDepth: 16, samples: [[[0], [0x1234], [0xFFFF], [0x1234]]])
        grey.transparency = [0x1234]
        try check(grey, "grey 16 tRNS") { x, _ in
            let v = [0, 0x1234, 0xFFFF, 0x1234][x], g = self.to8(v, depth: 16)
            return (g, g, g, v == 0x1234 ? 0 : 255)
        }
        var rgb = PNGTestEncoder(width: 2, height: 1, colorType: .rgb, bitDepth: 8, samples: [[[1, 2, 3], [4, 5, 6]]])
        rgb.transparency = [4, 5, 6]
        try check(rgb, "rgb 8 tRNS") { x, _ in x == 0 ? (1, 2, 3, 255) : (4, 5, 6, 0) }
    }

    /// The size is checked from the header, before decoding: a file whose
    /// image data is missing entirely still reports the size mismatch.
    func testSizeIsCheckedBeforeDecoding() throws {
        let encoder = PNGTestEncoder(width: 20000, height: 20000, colorType: .grey, bitDepth: 1, samples: [])
        var data = encoder.header()
        data.append(encoder.chunk("IDAT", Data([0x78, 0x01, 0, 0]))) // not an image's worth: never decoded
        let url = dir.appendingPathComponent("big.png")
        try data.write(to: url)
        XCTAssertThrowsError(try ImageFile.read(url, width: 16, height: 16)) { error in
            XCTAssert("\(error)".contains("20000x20000"), "\(error)")
        }
    }
}
