import RasterHarness

/// A CSV report (what `compare`, `report` and `choose --from` read): any
/// bytes must parse or throw a typed error, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReportCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? CSV.parse(text)
    _ = try? ReportCSV.parse(text)
    return 0
}
