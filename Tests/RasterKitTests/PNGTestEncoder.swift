import Foundation

/// A deliberately small PNG encoder for the reader's tests, independent of
/// libpng: any colour type and bit depth, optional Adam7 interlacing, the
/// image data in stored (uncompressed) deflate blocks. The expected pixel
/// values come from the samples written here, not from any decoder.
struct PNGTestEncoder {
    enum ColorType: UInt8 { case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6 }

    let width: Int, height: Int
    let colorType: ColorType
    let bitDepth: Int
    /// samples[y][x] holds the pixel's channel samples (1 for grey and palette indices).
    let samples: [[[Int]]]
    var palette: [(UInt8, UInt8, UInt8)] = []
    /// tRNS: alpha per palette entry, or the one transparent grey/RGB sample.
    var transparency: [Int]? = nil
    var interlaced = false

    var channels: Int { [ColorType.grey: 1, .rgb: 3, .palette: 1, .greyAlpha: 2, .rgba: 4][colorType]! }

    /// The signature and IHDR.
    func header() -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = Data()
        ihdr.append(be32(width)); ihdr.append(be32(height))
        ihdr.append(contentsOf: [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0])
        png.append(chunk("IHDR", ihdr))
        return png
    }

    func encode() -> Data {
        var png = header()
        if colorType == .palette { png.append(chunk("PLTE", Data(palette.flatMap { [$0.0, $0.1, $0.2] }))) }
        if let t = transparency {
            png.append(chunk("tRNS", colorType == .palette ? Data(t.map { UInt8($0) }) : Data(t.flatMap { be16($0) })))
        }
        png.append(chunk("IDAT", zlibStored(scanlines())))
        png.append(chunk("IEND", Data()))
        return png
    }

    /// Filter-type-0 scanlines of the whole image or of each Adam7 pass.
    func scanlines() -> Data {
        guard interlaced else { return pass(xs: Array(0..<width), ys: Array(0..<height)) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out = Data()
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            if !xs.isEmpty && !ys.isEmpty { out.append(pass(xs: xs, ys: ys)) }
        }
        return out
    }

    func pass(xs: [Int], ys: [Int]) -> Data {
        var out = Data()
        for y in ys {
            out.append(0) // filter: none
            var bits = 0, acc = 0
            for x in xs {
                for v in samples[y][x] {
                    if bitDepth == 16 { out.append(contentsOf: be16(v)); continue }
                    acc = acc << bitDepth | v; bits += bitDepth
                    if bits == 8 { out.append(UInt8(acc)); acc = 0; bits = 0 }
                }
            }
            if bits > 0 { out.append(UInt8(acc << (8 - bits))) }
        }
        return out
    }

    func be32(_ v: Int) -> Data { Data([UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]) }
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 255), UInt8(v & 255)] }

    func chunk(_ type: String, _ data: Data) -> Data {
        var body = Data(type.utf8); body.append(data)
        var out = be32(data.count); out.append(body); out.append(be32(Int(crc32(body))))
        return out
    }

    func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    /// zlib stream of stored deflate blocks (at most 65535 bytes each).
    func zlibStored(_ raw: Data) -> Data {
        var out = Data([0x78, 0x01])
        let bytes = [UInt8](raw)
        var i = 0
        repeat {
            let n = min(65535, bytes.count - i)
            out.append(i + n == bytes.count ? 1 : 0)
            out.append(contentsOf: [UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)])
            out.append(contentsOf: bytes[i..<(i + n)])
            i += n
        } while i < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for v in bytes { a = (a + UInt32(v)) % 65521; b = (b + a) % 65521 }
        out.append(be32(Int(b << 16 | a)))
        return out
    }
}
