import Foundation

/// Writes a file so that readers never see half of it: the bytes go to a
/// temporary file in the same directory, which is then renamed over the
/// target (rename is atomic within one file system). On any failure the
/// temporary file is removed and the target is untouched.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw RasterError.io(path: url.path, reason: "directory \(dir.path) does not exist")
        }
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard FileManager.default.createFile(atPath: temp.path, contents: data) else {
            throw RasterError.io(path: url.path, reason: "cannot write (permission denied or disk full)")
        }
        if rename(temp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temp)
            throw RasterError.io(path: url.path, reason: "cannot write (\(reason))")
        }
    }
}
