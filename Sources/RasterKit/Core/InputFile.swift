import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files (jobs, images, reports) only if they are regular files
/// (docs/contract.md §10): a FIFO would block the reader forever, a device
/// (/dev/zero, /dev/urandom) never ends, a directory is not data. The kind is
/// checked with `stat` before opening, and again on the open descriptor
/// (opened with O_NONBLOCK, so even a FIFO swapped in between the two checks
/// cannot block the open), so nothing but a regular file is ever read.
public enum InputFile {
    /// The whole file. `limit` (bytes) refuses a larger file before reading it.
    public static func read(_ path: String, limit: Int? = nil) throws -> Data {
        let shown = RasterError.escaped(path, limit: 120)
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw RasterError.io(path: shown, reason: "cannot read (\(String(cString: strerror(errno))))")
        }
        try requireRegular(st.st_mode, shown: shown)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw RasterError.io(path: shown, reason: "cannot read (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        guard fstat(fd, &st) == 0 else {
            throw RasterError.io(path: shown, reason: "cannot read (\(String(cString: strerror(errno))))")
        }
        try requireRegular(st.st_mode, shown: shown)
        let size = Int(st.st_size)
        if let limit, size > limit {
            throw RasterError.io(path: shown, reason: "is \(size) bytes, more than the \(limit) accepted")
        }
        var data = Data(count: size)
        var filled = 0
        let failure: String? = data.withUnsafeMutableBytes { buf in
            while filled < size {
                let n = Foundation.read(fd, buf.baseAddress! + filled, size - filled)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return String(cString: strerror(errno)) }
                if n == 0 { break } // shrank while reading: keep what was there
                filled += n
            }
            return nil
        }
        if let failure { throw RasterError.io(path: shown, reason: "cannot read (\(failure))") }
        return data.prefix(filled)
    }

    static func requireRegular(_ mode: mode_t, shown: String) throws {
        let kind: String
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw RasterError.io(path: shown, reason: "is \(kind), not a regular file; not read")
    }
}
