import Foundation

/// Writes the frames of a range as numbered PNGs into a directory:
/// `frame-00000.png`, `frame-00001.png`, ..., named by frame index (frames
/// 30...59 give frame-00030.png ... frame-00059.png), zero-padded to the
/// width of the last index and at least 5 digits, so that names sort in
/// frame order in every file browser and glob.
///
/// The initialiser does every check the paths allow before a frame exists
/// (SPEC 10): the frame range, the directory (created if absent, with its
/// parents; refused if something else is at that path), that a file can be
/// created in it, and that no frame name is taken by anything but a regular
/// file. Each PNG is written atomically (`AtomicFile`), so a frame file is
/// either whole or absent.
public final class FrameSequenceWriter {
    public let directory: URL
    public let frames: ClosedRange<Int>
    /// Digits in a frame number.
    public let digits: Int
    /// True if the directory did not exist and was made here.
    public let createdDirectory: Bool
    /// Frames written so far (by index).
    public private(set) var written: [Int] = []

    public static let minimumDigits = 5

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

    /// The file frame `index` goes to.
    public func url(forFrame index: Int) -> URL {
        let number = String(index)
        let name = "frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
        return directory.appendingPathComponent(name)
    }

    /// Writes frame `index` (premultiplied; stored as straight-alpha PNG).
    public func write(_ frame: ImageView, index: Int) throws {
        guard frames.contains(index) else {
            throw RasterError.invalidArgument(
                name: "frame index", value: "\(index)", accepted: "\(frames.lowerBound)...\(frames.upperBound), the range being written")
        }
        let url = url(forFrame: index)
        // Checked again: something may have appeared since the initialiser.
        try OutputPath.requireReplaceable(url.path)
        try AtomicFile.write(try ImageFile.encodePNG(frame), to: url)
        written.append(index)
    }

    /// Removes the frames written here and, if this writer created the
    /// directory and nothing else is in it, the directory: what a caller
    /// does when rendering fails part way, to leave no partial output.
    public func discard() {
        for index in written { try? FileManager.default.removeItem(at: url(forFrame: index)) }
        written.removeAll()
        removeCreatedDirectory()
    }

    private func removeCreatedDirectory() {
        guard createdDirectory,
              (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty == true else { return }
        try? FileManager.default.removeItem(at: directory)
    }
}
