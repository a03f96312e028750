import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the whole new
/// one, never a half-written report (SPEC section 10): the data goes to a
/// temporary file in the same directory (same file system, so `rename` is
/// atomic), is flushed, then renamed over the target.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String, createDirectory: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        if createDirectory {
            do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
            catch { throw HarnessError.io(path: dir.path, reason: "cannot create directory (\(error.localizedDescription))") }
        }
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw HarnessError.io(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        var ok = true
        var reason = ""
        data.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc_write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n <= 0 { ok = false; reason = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if ok && fsync(fd) != 0 { ok = false; reason = String(cString: strerror(errno)) }
        close(fd)
        guard ok else {
            unlink(temp)
            throw HarnessError.io(path: path, reason: "write failed (\(reason))")
        }
        guard rename(temp, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temp)
            throw HarnessError.io(path: path, reason: "cannot replace (\(why))")
        }
    }

    public static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
