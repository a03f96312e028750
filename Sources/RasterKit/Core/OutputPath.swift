import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made on an output path before any frame is rendered (docs/contract.md §10:
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
    /// files, and whatever is at the path now is a regular file (docs/contract.md §10:
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
            try createDirectories(path)
            created = true
        }
        try requireWritableDirectory(path)
        return created
    }

    /// Creates the directory `path` and its missing parents (mode 0777 minus
    /// the umask), like `mkdir -p`; the error names the component that
    /// could not be made and why, in the system's words.
    public static func createDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o777) != 0 && !(errno == EEXIST && isDirectory(prefix)) {
                let why = errno == EEXIST ? "exists and is not a directory" : String(cString: strerror(errno))
                throw RasterError.io(path: RasterError.escaped(prefix), reason: "cannot create directory (\(why))")
            }
        }
    }

    /// What is at an output path, among the things a writer accepts.
    public enum Target: Sendable { case absent, regular, characterDevice }

    /// What is at `path` now (not following a link). The policy for each
    /// kind (docs/contract.md §10: never rename over something that is not a regular
    /// file): nothing or a regular file is replaced through a temporary file
    /// and a rename; a character device (/dev/null, /dev/full, a terminal)
    /// is written directly, because renaming would replace the device node;
    /// a directory, FIFO (would block, or feed a reader half a file), socket,
    /// block device (a disk) or symbolic link (the rename would replace the
    /// link, not what it points to) is refused.
    public static func target(_ path: String) throws -> Target {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return .absent }
            throw RasterError.io(path: RasterError.escaped(path), reason: "cannot inspect (\(String(cString: strerror(errno))))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFCHR: return .characterDevice
        default:
            throw RasterError.io(path: RasterError.escaped(path),
                                 reason: "exists and is not a regular file (\(kind(st.st_mode))); not replaced")
        }
    }

    /// Throws unless nothing is at `path`, or a regular file, or a character
    /// device (written in place, see `target`).
    public static func requireReplaceable(_ path: String) throws { _ = try target(path) }

    /// The check every command makes on an output file argument before any
    /// work: `text` as the user wrote it (so an empty path or a trailing
    /// slash, which `URL` would silently drop, are caught), named `name` in
    /// the error (e.g. "--out"). Optionally the extension; the target's kind
    /// (`target`); and that its directory accepts new files, or, with
    /// `createDirectory`, that the nearest existing ancestor does.
    @discardableResult
    public static func checkFileArgument(_ text: String, name: String, extensions: [String]? = nil,
                                         createDirectory: Bool = false) throws -> URL {
        guard !text.isEmpty else {
            throw RasterError.invalidArgument(name: name, value: "an empty path", accepted: "a file name")
        }
        let last = text.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !last.isEmpty, last != ".", last != ".." else {
            throw RasterError.invalidArgument(name: name, value: "'\(RasterError.escaped(text))' (a folder)",
                                              accepted: "a file name (not ending in /)")
        }
        let url = URL(fileURLWithPath: text)
        if let extensions {
            guard extensions.contains(url.pathExtension.lowercased()) else {
                throw RasterError.invalidArgument(
                    name: name, value: "'\(RasterError.escaped(url.lastPathComponent))'",
                    accepted: "a file name ending in " + extensions.map { ".\($0)" }.joined(separator: " or "))
            }
        }
        if try target(url.path) == .characterDevice { return url }
        var dir = url.deletingLastPathComponent()
        if createDirectory {
            while !FileManager.default.fileExists(atPath: dir.path), dir.path != "/" { dir.deleteLastPathComponent() }
        }
        guard isDirectory(dir.path) else {
            throw RasterError.io(path: RasterError.escaped(text), reason: "directory \(RasterError.escaped(dir.path)) does not exist")
        }
        try requireWritableDirectory(dir.path)
        return url
    }

    /// Refuses an output that is the same file as one of the inputs (e.g.
    /// `choose --from r.csv --save r.csv`: the report would be replaced by
    /// wisdom) or as another output (`--out r.csv --json r.csv`: the second
    /// would overwrite the first). Files are compared by identity, not by
    /// spelling (`identity`), so `./r.csv`, a hard link or a symbolic link
    /// to it count as the same file.
    public static func requireDistinct(_ outputs: [(name: String, path: String)],
                                       inputs: [(name: String, path: String)] = []) throws {
        let ins = inputs.map { ($0, identity($0.path)) }
        let outs = outputs.map { ($0, identity($0.path)) }
        for (i, (output, id)) in outs.enumerated() {
            if let (input, _) = ins.first(where: { $0.1 == id }) {
                throw RasterError.invalidArgument(
                    name: output.name,
                    value: "'\(RasterError.escaped(output.path))', the same file as \(input.name) '\(RasterError.escaped(input.path))'",
                    accepted: "an output that is none of the inputs")
            }
            if let (other, _) = outs[(i + 1)...].first(where: { $0.1 == id }) {
                throw RasterError.invalidArgument(
                    name: "\(output.name) and \(other.name)",
                    value: "the same file '\(RasterError.escaped(output.path))'", accepted: "two different files")
            }
        }
    }

    /// What a path names, for `requireDistinct`: an existing file by its
    /// device and inode (through symbolic links: the file read or written);
    /// a path not there yet by its directory's device and inode and its
    /// name; below a directory that does not exist either, by its spelling
    /// made absolute and standardized.
    public enum Identity: Hashable, Sendable {
        case file(device: UInt64, inode: UInt64)
        case entry(device: UInt64, inode: UInt64, name: String)
        case spelling(String)
    }

    public static func identity(_ path: String) -> Identity {
        var st = stat()
        if stat(path, &st) == 0 { return .file(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if stat(url.deletingLastPathComponent().path, &st) == 0 {
            return .entry(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), name: url.lastPathComponent)
        }
        return .spelling(url.path)
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

}
