import Foundation
import RasterKit

/// Job JSON: any bytes must decode or throw, never trap. A job that decodes
/// and is small (at most 64x64, so that an iteration stays fast) is also
/// rendered on the naive backend, which must render it or throw.
let base = FileManager.default.temporaryDirectory

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJobDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let job = try? Job.decode(Data(bytes: data, count: size), baseDirectory: base) else { return 0 }
    guard job.width * job.height <= 64 * 64, let backend = try? BackendKind.naive.make(threads: 1) else { return 0 }
    _ = try? Renderer(backend: backend).render(job)
    return 0
}
