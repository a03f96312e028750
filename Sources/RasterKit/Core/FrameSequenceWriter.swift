import CSafeFile
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the frames of a range as numbered PNGs into a directory:
/// `frame-00000.png`, `frame-00001.png`, ..., named by frame index (frames
/// 30...59 give frame-00030.png ... frame-00059.png), zero-padded to the
/// width of the last index and at least 5 digits, so that names sort in
/// frame order in every file browser and glob.
///
/// The initialiser does every check the paths allow before a frame exists
/// (docs/contract.md §10): the frame range, the directory (created if absent, with its
/// parents; refused if something else is at that path), that a file can be
/// created in it, and that no frame name is taken by anything but a regular
/// file.
///
/// A sequence is all or nothing: a frame that fails part-way must not
/// leave the folder holding some new frames and some old ones, nor lose
/// the old frames it was replacing. So `write` puts each PNG in a hidden
/// staging directory next to the frames (`.frames-RANDOM.tmp`, created
/// exclusively, mode 0700, registered with `CSafeFile` so that SIGINT,
/// SIGTERM... remove it), and `commit` moves them all into place once every
/// frame is there: each frame it replaces is first moved aside into the
/// staging directory, and if any move fails every frame is put back as it
/// was. `discard` (or dropping an uncommitted writer) removes what was
/// staged: the folder is left exactly as it was. The cost is disk space for
/// the new frames beside the old ones until the commit.
public final class FrameSequenceWriter {
    public let directory: URL
    public let frames: ClosedRange<Int>
    /// Digits in a frame number.
    public let digits: Int
    /// True if the directory did not exist and was made here.
    public let createdDirectory: Bool
    /// Frames written so far (by index): staged until `commit`, then in place.
    public private(set) var written: [Int] = []
    /// True once `commit` moved the frames into place.
    public private(set) var committed = false

    public static let minimumDigits = 5

    private var staged = Set<Int>()
    /// The staging directory and its registry slot, once the first frame is written.
    private var staging: (path: String, slot: Int32)?

    public init(directory: URL, frames: ClosedRange<Int>) throws {
        guard frames.lowerBound >= 0 else {
            throw RasterError.invalidArgument(
                name: "frames", value: "\(frames.lowerBound)..\(frames.upperBound)", accepted: "frame indices >= 0")
        }
        self.directory = directory
        self.frames = frames
        digits = max(Self.minimumDigits, String(frames.upperBound).count)
        createdDirectory = try OutputPath.prepareDirectory(directory)
        do {
            for index in frames { try OutputPath.requireReplaceable(url(forFrame: index).path) }
        } catch {
            removeCreatedDirectory()
            throw error
        }
    }

    deinit { if !committed { discard() } }

    /// The file frame `index` goes to.
    public func url(forFrame index: Int) -> URL {
        let number = String(index)
        let name = "frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
        return directory.appendingPathComponent(name)
    }

    /// Stages frame `index` (premultiplied; stored as straight-alpha PNG).
    public func write(_ frame: ImageView, index: Int) throws {
        guard !committed else {
            throw RasterError.io(path: directory.path, reason: "the sequence was already committed")
        }
        guard frames.contains(index), !staged.contains(index) else {
            throw RasterError.invalidArgument(
                name: "frame index", value: "\(index)",
                accepted: "\(frames.lowerBound)...\(frames.upperBound), the range being written, each once")
        }
        // Checked again: something may have appeared since the initialiser.
        try OutputPath.requireReplaceable(url(forFrame: index).path)
        let png = try ImageFile.encodePNG(frame)
        let stage = try stagingDirectory()
        let number = written.count
        rk_tempdir_set_count(stage.slot, Int32(number + 1))
        let temp = stage.path + "/\(number)"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw RasterError.io(path: url(forFrame: index).path, reason: "cannot create a temporary file (\(String(cString: strerror(errno))))")
        }
        var reason = AtomicFile.writeAll(fd, png)
        if reason == nil, fsync(fd) != 0 { reason = String(cString: strerror(errno)) }
        close(fd)
        if let reason {
            unlink(temp)
            throw RasterError.io(path: url(forFrame: index).path, reason: "write failed (\(reason))")
        }
        written.append(index)
        staged.insert(index)
    }

    /// Moves every staged frame into place, all or none: on failure the
    /// frames already moved are put back (the old ones restored, new names
    /// removed) and the error names the frame that could not be placed.
    public func commit() throws {
        guard !committed else { return }
        guard let stage = staging else { committed = true; removeCreatedDirectory(); return }
        var placed: [(target: String, backup: String?)] = []
        var failure: RasterError?
        for (number, index) in written.enumerated() {
            let target = url(forFrame: index).path
            var backup: String? = nil
            var st = stat()
            if lstat(target, &st) == 0 {
                guard st.st_mode & S_IFMT == S_IFREG else {
                    failure = .io(path: target, reason: "is no longer a regular file; no frame was replaced")
                    break
                }
                backup = stage.path + "/old-\(number)"
                guard rename(target, backup!) == 0 else {
                    failure = .io(path: target, reason: "cannot move aside (\(String(cString: strerror(errno)))); no frame was replaced")
                    break
                }
            }
            guard rename(stage.path + "/\(number)", target) == 0 else {
                failure = .io(path: target, reason: "cannot write (\(String(cString: strerror(errno)))); no frame was replaced")
                if let backup { rename(backup, target) }
                break
            }
            placed.append((target, backup))
        }
        if let failure {
            for p in placed.reversed() {
                if let backup = p.backup { rename(backup, p.target) } else { unlink(p.target) }
            }
            discard()
            throw failure
        }
        for p in placed { if let backup = p.backup { unlink(backup) } }
        rmdir(stage.path)
        rk_temp_release(stage.slot)
        staging = nil
        committed = true
    }

    /// Removes the staged frames and, if this writer created the directory
    /// and nothing else is in it, the directory: what a caller does when
    /// rendering fails part way. The frames already in the folder are untouched.
    public func discard() {
        if let stage = staging {
            for number in written.indices { unlink(stage.path + "/\(number)") }
            rmdir(stage.path)
            rk_temp_release(stage.slot)
            staging = nil
        }
        written.removeAll()
        staged.removeAll()
        removeCreatedDirectory()
    }

    private func stagingDirectory() throws -> (path: String, slot: Int32) {
        if let staging { return staging }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<16 {
            let path = directory.appendingPathComponent(".frames-\(String(generator.next() as UInt64, radix: 16)).tmp").path
            var slot: Int32 = -1
            if rk_tempdir_create(path, &slot) == 0 {
                staging = (path, slot)
                return (path, slot)
            }
            if errno == EEXIST { continue }
            throw RasterError.io(path: directory.path, reason: "cannot create a staging directory (\(String(cString: strerror(errno))))")
        }
        throw RasterError.io(path: directory.path, reason: "cannot create a staging directory (16 names taken)")
    }

    private func removeCreatedDirectory() {
        guard createdDirectory,
              (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty == true else { return }
        try? FileManager.default.removeItem(at: directory)
    }
}
