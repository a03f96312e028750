import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made on an output path before any frame is rendered (SPEC 10:
/// "output paths are checked before any work starts"), so that a run of a
/// hundred frames cannot fail at the end because of a typo in `-o`.
///
/// Writability is tested by creating (exclusively, without following links)
/// and removing a probe file, not with `access(W_OK)`: that call answers yes
/// to root on any directory, including read-only mounts and /proc, where the
/// real write would fail.
public enum OutputPath {
    /// Checks a file that will be written later: its extension is one of
    /// `extensions` (lower case, no dot), its directory exists and accepts new
    /// files, and whatever is at the path now is a regular file (SPEC 10:
    /// never rename over something that is not a regular file).
    public static func checkFile(_ url: URL, extensions: [String]) throws {
        let ext = url.pathExtension.lowercased()
        guard extensions.contains(ext) else {
            throw RasterError.invalidArgument(
                name: "output file", value: "'\(url.lastPathComponent)'",
                accepted: "a file name ending in " + extensions.map { ".\($0)" }.joined(separator: " or "))
        }
        try requireReplaceable(url.path)
        let dir = url.deletingLastPathComponent()
        guard isDirectory(dir.path) else {
            throw RasterError.io(path: url.path, reason: "directory \(dir.path) does not exist")
        }
        try requireWritableDirectory(dir.path)
    }

    /// Makes sure `url` is a directory that accepts new files, creating it
    /// (and missing parents) if nothing is there. Returns true if it was
    /// created here, so that a caller abandoning its output can remove it.
    @discardableResult
    public static func prepareDirectory(_ url: URL) throws -> Bool {
        let path = url.path
        var created = false
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR || isDirectory(path) else {
                throw RasterError.io(path: path, reason: "exists and is not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw RasterError.io(path: path, reason: "cannot create directory (\(reason(error)))")
            }
            created = true
        }
        try requireWritableDirectory(path)
        return created
    }

    /// Throws unless nothing is at `path` or it is a regular file.
    public static func requireReplaceable(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return } // nothing there yet
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw RasterError.io(path: path, reason: "exists and is not a regular file (\(kind(st.st_mode)))")
        }
    }

    /// Throws unless a new file can be created in the directory `path`.
    static func requireWritableDirectory(_ path: String) throws {
        let probe = (path as NSString).appendingPathComponent(".rasterkit-probe-\(UInt64.random(in: 1...UInt64.max))")
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw RasterError.io(path: path, reason: "cannot create files in this directory (\(String(cString: strerror(errno))))")
        }
        close(fd)
        unlink(probe)
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
