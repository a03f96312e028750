import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the whole new
/// one, never half of it (SPEC section 10): the bytes go to a temporary file
/// in the same directory (same file system, so `rename` is atomic), are
/// flushed to disk, then renamed over the target. On any failure the
/// temporary file is removed and the target is untouched.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL, createDirectory: Bool = false) throws {
        let path = url.path
        let dir = url.deletingLastPathComponent()
        if createDirectory {
            do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw RasterError.io(path: dir.path, reason: "cannot create directory (\(error.localizedDescription))")
            }
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw RasterError.io(path: path, reason: "directory \(dir.path) does not exist")
        }
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw RasterError.io(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        var reason: String?
        data.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = systemWrite(fd, buf.baseAddress! + offset, buf.count - offset)
                if n <= 0 { reason = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if reason == nil, fsync(fd) != 0 { reason = String(cString: strerror(errno)) }
        close(fd)
        if let reason {
            unlink(temp)
            throw RasterError.io(path: path, reason: "write failed (\(reason))")
        }
        guard rename(temp, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temp)
            throw RasterError.io(path: path, reason: "cannot write (\(why))")
        }
    }

    public static func write(_ data: Data, toPath path: String, createDirectory: Bool = false) throws {
        try write(data, to: URL(fileURLWithPath: path), createDirectory: createDirectory)
    }

    public static func write(_ text: String, toPath path: String, createDirectory: Bool = false) throws {
        try write(Data(text.utf8), to: URL(fileURLWithPath: path), createDirectory: createDirectory)
    }
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
