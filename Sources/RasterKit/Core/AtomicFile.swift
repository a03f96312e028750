import CSafeFile
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the whole new
/// one, never half of it, and so that nobody else can choose what gets
/// overwritten (SPEC section 10):
/// - the bytes go to a temporary file in the target's directory (same file
///   system, so `rename` is atomic) whose name ends in 64 random bits, created
///   exclusively and without following links (`O_CREAT|O_EXCL|O_NOFOLLOW`,
///   mode 0666 minus the umask): a link or FIFO planted at a guessed name is
///   never opened, since the name cannot be guessed and an existing one fails;
/// - it is flushed, then renamed over the target; on any failure it is
///   removed and the target is untouched;
/// - while it exists it is in a registry (`CSafeFile`) whose signal handlers
///   unlink it on SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ;
/// - the target is never replaced unless it is a regular file or absent
///   (`OutputPath.Target`): a character device (/dev/null, /dev/full, a tty)
///   is written directly; a directory, FIFO, socket, block device or
///   symbolic link is refused.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL, createDirectory: Bool = false) throws {
        let path = url.path
        let dir = url.deletingLastPathComponent()
        if createDirectory {
            do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw RasterError.io(path: dir.path, reason: "cannot create directory (\(error.localizedDescription))")
            }
        }
        if try OutputPath.target(path) == .characterDevice {
            try writeToDevice(data, path: path)
            return
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw RasterError.io(path: path, reason: "directory \(dir.path) does not exist")
        }
        let (fd, temp, slot) = try createTemporary(for: url)
        defer { rk_temp_release(slot) }
        var reason = writeAll(fd, data)
        if reason == nil, fsync(fd) != 0 { reason = String(cString: strerror(errno)) }
        close(fd)
        if let reason {
            unlink(temp)
            throw RasterError.io(path: path, reason: "write failed (\(reason))")
        }
        // Checked again just before the rename: something may have been put
        // at the target since the command started.
        let now: OutputPath.Target
        do { now = try OutputPath.target(path) } catch { unlink(temp); throw error }
        guard now != .characterDevice else {
            unlink(temp)
            throw RasterError.io(path: path, reason: "became a device while writing; not replaced")
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

    /// The temporary name for `target`: `.NAME.` + 16 random hex digits +
    /// `.tmp` in the same directory (NAME cut so the whole stays under
    /// NAME_MAX). Exposed so tests can plant things at the pattern.
    public static func temporaryPrefix(for target: URL) -> String {
        let name = String(decoding: Array(target.lastPathComponent.utf8.prefix(200)), as: UTF8.self)
        return target.deletingLastPathComponent().appendingPathComponent("." + name + ".").path
    }

    /// Creates the temporary file, retrying on a name collision.
    static func createTemporary(for target: URL) throws -> (fd: Int32, path: String, slot: Int32) {
        let prefix = temporaryPrefix(for: target)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<16 {
            let random = String(generator.next() as UInt64, radix: 16)
            let temp = prefix + String(repeating: "0", count: 16 - random.count) + random + ".tmp"
            var slot: Int32 = -1
            let fd = rk_temp_create(temp, &slot)
            if fd >= 0 { return (fd, temp, slot) }
            if errno == EEXIST { continue } // taken (by chance or by a planted link): another name
            throw RasterError.io(path: target.path, reason: "cannot create a temporary file (\(String(cString: strerror(errno))))")
        }
        throw RasterError.io(path: target.path, reason: "cannot create a temporary file (16 names taken)")
    }

    /// A character device is written in place: renaming over it would
    /// replace the device node with a regular file.
    static func writeToDevice(_ data: Data, path: String) throws {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw RasterError.io(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFCHR else {
            throw RasterError.io(path: path, reason: "changed while opening; not written")
        }
        if let reason = writeAll(fd, data) { throw RasterError.io(path: path, reason: "write failed (\(reason))") }
    }

    /// Writes every byte (retrying short writes and EINTR); nil or why not.
    static func writeAll(_ fd: Int32, _ data: Data) -> String? {
        data.withUnsafeBytes { buf -> String? in
            var offset = 0
            while offset < buf.count {
                let n = systemWrite(fd, buf.baseAddress! + offset, min(buf.count - offset, 1 << 30))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return String(cString: strerror(n < 0 ? errno : EIO)) }
                offset += n
            }
            return nil
        }
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
