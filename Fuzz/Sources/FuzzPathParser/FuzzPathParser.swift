import RasterKit

/// SVG path data: any bytes must parse or throw, never trap. A parsed path
/// is also validated and measured (the code the fill runs first).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPathParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let path = try? PathParser.parse(text) {
        try? path.validate()
        _ = path.controlBounds
        _ = path.segmentCount
    }
    return 0
}
