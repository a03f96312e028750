import CSafeFile
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the whole new
/// one, never half of it, and so that nobody else can choose what gets
/// overwritten (docs/contract.md §10):
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
        if createDirectory { try OutputPath.createDirectories(url.deletingLastPathComponent().path) }
        if try OutputPath.target(url.path) == .characterDevice {
            try writeToDevice(data, path: url.path)
            return
        }
        let file = try Pending(url)
        try file.write(data)
        try file.commit()
    }

    /// A file being written under a temporary name, for a writer that
    /// produces its bytes over time (or hands the descriptor to a child
    /// process): `commit` renames it over the target, with `write(_:to:)`'s
    /// checks; `discard` (or dropping it uncommitted) removes it.
    public final class Pending {
        public let target: URL
        /// The temporary file's descriptor (close-on-exec), open for writing.
        public let fd: Int32
        let temp: String
        let slot: Int32
        private var finished = false

        /// Refuses a target that is not absent or a regular file (a device
        /// is written in place, which only `write(_:to:)` does), or whose
        /// directory does not exist.
        public init(_ target: URL) throws {
            let path = target.path
            guard try OutputPath.target(path) != .characterDevice else {
                throw RasterError.io(path: RasterError.escaped(path), reason: "is a device; only a regular file can be written here")
            }
            let dir = target.deletingLastPathComponent().path
            guard OutputPath.isDirectory(dir) else {
                throw RasterError.io(path: RasterError.escaped(path), reason: "directory \(RasterError.escaped(dir)) does not exist")
            }
            self.target = target
            (fd, temp, slot) = try AtomicFile.createTemporary(for: target)
        }

        deinit { if !finished { discard() } }

        public func write(_ data: Data) throws {
            if let reason = AtomicFile.writeAll(fd, data) {
                discard()
                throw RasterError.io(path: RasterError.escaped(target.path), reason: "write failed (\(reason))")
            }
        }

        /// Flushes the file and renames it over the target.
        public func commit() throws {
            guard !finished else { return }
            finished = true
            defer { rk_temp_release(slot) }
            let path = target.path
            var reason: String? = nil
            if fsync(fd) != 0 { reason = String(cString: strerror(errno)) }
            close(fd)
            if let reason {
                unlink(temp)
                throw RasterError.io(path: RasterError.escaped(path), reason: "write failed (\(reason))")
            }
            // Checked again just before the rename: something may have been put
            // at the target since the command started.
            let now: OutputPath.Target
            do { now = try OutputPath.target(path) } catch { unlink(temp); throw error }
            guard now != .characterDevice else {
                unlink(temp)
                throw RasterError.io(path: RasterError.escaped(path), reason: "became a device while writing; not replaced")
            }
            guard rename(temp, path) == 0 else {
                let why = String(cString: strerror(errno))
                unlink(temp)
                throw RasterError.io(path: RasterError.escaped(path), reason: "cannot write (\(why))")
            }
        }

        /// Removes the temporary file; the target is untouched.
        public func discard() {
            guard !finished else { return }
            finished = true
            close(fd)
            unlink(temp)
            rk_temp_release(slot)
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
