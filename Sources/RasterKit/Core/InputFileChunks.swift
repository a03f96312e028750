import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InputFile {
    /// Reads a regular file piece by piece (at most `chunkSize` bytes per
    /// call of `body`), with the same checks as `read`, so that a reader of
    /// a file of any size holds only one chunk and what it keeps of it.
    public static func forEachChunk(_ path: String, chunkSize: Int = 1 << 20,
                                    _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let shown = RasterError.escaped(path, limit: 120)
        func failure() -> RasterError { .io(path: shown, reason: "cannot read (\(String(cString: strerror(errno))))") }
        var st = stat()
        guard stat(path, &st) == 0 else { throw failure() }
        try requireRegular(st.st_mode, shown: shown)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        guard fstat(fd, &st) == 0 else { throw failure() }
        try requireRegular(st.st_mode, shown: shown)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, chunkSize), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Foundation.read(fd, buffer.baseAddress!, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw failure() }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}
