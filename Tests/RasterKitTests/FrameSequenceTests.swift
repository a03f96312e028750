import Foundation
import RasterKit
import XCTest

final class FrameSequenceTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try makeTestDirectory() }
    override func tearDown() { removeTestDirectory(dir) }

    func solid(_ v: UInt8) throws -> Image {
        let image = try Image(width: 6, height: 4, stride: 6 * 4 + 8)
        image.fill(RGBA8(r: v, g: 255 - v, b: v / 2, a: 255))
        return image
    }

    /// Frames named by index, padded to 5 digits, in a directory created
    /// with its parents; each file is the PNG of its frame.
    func testWritesNumberedPNGsIntoNewDirectory() throws {
        let target = dir.appendingPathComponent("out/frames")
        let writer = try FrameSequenceWriter(directory: target, frames: 8...12)
        XCTAssertTrue(writer.createdDirectory)
        for i in 8...12 {
            let frame = try solid(UInt8(i * 10)) // kept alive: a view does not own its pixels
            try writer.write(frame.view, index: i)
        }
        try writer.commit()
        let names = try FileManager.default.contentsOfDirectory(atPath: target.path).sorted()
        XCTAssertEqual(names, ["frame-00008.png", "frame-00009.png", "frame-00010.png", "frame-00011.png", "frame-00012.png"])
        for i in 8...12 {
            XCTAssertEqual(try ImageFile.readPNG(writer.url(forFrame: i)).packedBytes, try solid(UInt8(i * 10)).packedBytes)
        }
        XCTAssertEqual(writer.written, Array(8...12))
    }

    func testDigitsFollowTheLastIndex() throws {
        let writer = try FrameSequenceWriter(directory: dir, frames: 99_998...100_001)
        XCTAssertFalse(writer.createdDirectory)
        XCTAssertEqual(writer.url(forFrame: 99_998).lastPathComponent, "frame-099998.png")
        XCTAssertEqual(writer.url(forFrame: 100_001).lastPathComponent, "frame-100001.png")
        XCTAssertEqual(try FrameSequenceWriter(directory: dir, frames: 0...59).url(forFrame: 7).lastPathComponent, "frame-00007.png")
    }

    /// A regular file given as the directory is refused, and left alone.
    func testRefusesARegularFileAsDirectory() throws {
        let file = dir.appendingPathComponent("notadir")
        try Data("keep".utf8).write(to: file)
        XCTAssertThrowsError(try FrameSequenceWriter(directory: file, frames: 0...3)) { error in
            guard case let RasterError.io(path, reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, file.path)
            XCTAssertTrue(reason.contains("not a directory"), reason)
        }
        XCTAssertEqual(try Data(contentsOf: file), Data("keep".utf8))
        // ... and so is a path below a regular file.
        XCTAssertThrowsError(try FrameSequenceWriter(directory: file.appendingPathComponent("sub"), frames: 0...3))
    }

    /// The writer cannot exist for an unwritable directory, so a caller that
    /// creates it first fails before rendering a frame.
    func testRefusesUnwritableDirectoryBeforeAnyFrame() throws {
        let ro = try unwritableDirectory(in: dir)
        var rendered = 0
        XCTAssertThrowsError(try {
            let writer = try FrameSequenceWriter(directory: ro, frames: 0...9)
            let frame = try solid(1)
            for i in 0...9 { rendered += 1; try writer.write(frame.view, index: i) }
        }()) { error in
            guard case RasterError.io = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(rendered, 0)
        XCTAssertThrowsError(try FrameSequenceWriter(directory: ro.appendingPathComponent("new"), frames: 0...9))
    }

    /// A frame name already taken by a directory is refused up front.
    func testRefusesNonRegularFileAtAFrameName() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("frame-00003.png"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try FrameSequenceWriter(directory: dir, frames: 0...5))
        XCTAssertNoThrow(try FrameSequenceWriter(directory: dir, frames: 4...5))
    }

    func testBadRangesAndIndices() throws {
        XCTAssertThrowsError(try FrameSequenceWriter(directory: dir, frames: -1...3))
        let writer = try FrameSequenceWriter(directory: dir, frames: 2...3)
        let frame = try solid(1)
        XCTAssertThrowsError(try writer.write(frame.view, index: 4))
        XCTAssertThrowsError(try writer.write(frame.view, index: 1))
    }

    /// discard() removes what was written and the directory it created.
    func testDiscardLeavesNothingBehind() throws {
        let target = dir.appendingPathComponent("new")
        let writer = try FrameSequenceWriter(directory: target, frames: 0...3)
        let frame = try solid(3)
        try writer.write(frame.view, index: 0)
        try writer.write(frame.view, index: 1)
        writer.discard()
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))

        // In a directory that was already there, only its own frames go.
        try Data("mine".utf8).write(to: dir.appendingPathComponent("other.txt"))
        let inPlace = try FrameSequenceWriter(directory: dir, frames: 0...1)
        try inPlace.write(frame.view, index: 0)
        inPlace.discard()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["other.txt"])
        // Dropped without commit: the same.
        do {
            let dropped = try FrameSequenceWriter(directory: dir, frames: 0...1)
            try dropped.write(frame.view, index: 0)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["other.txt"])
    }

    // MARK: all or nothing

    /// Every entry of `dir` (recursively) with its kind and bytes.
    func snapshot() throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = try XCTUnwrap(FileManager.default.enumerator(atPath: dir.path))
        while let name = e.nextObject() as? String {
            let path = dir.appendingPathComponent(name).path
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            out[name] = isDir.boolValue ? Data("<dir>".utf8) : try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return out
    }

    /// Frames 0...5 already in the folder, each with its own bytes, and a
    /// file of the user's.
    func plantOldFrames() throws {
        for i in 0...5 { try Data("old frame \(i)".utf8).write(to: dir.appendingPathComponent("frame-0000\(i).png")) }
        try Data("mine".utf8).write(to: dir.appendingPathComponent("notes.txt"))
    }

    /// A sequence that fails part-way (the renderer fails at frame 3)
    /// leaves the old frames, not a mix, and no staging directory.
    func testFailurePartWayLeavesTheFolderAsItWas() throws {
        try plantOldFrames()
        let before = try snapshot()
        let frame = try solid(9)
        do {
            let writer = try FrameSequenceWriter(directory: dir, frames: 0...5)
            for i in 0...5 {
                if i == 3 { writer.discard(); break } // what writeSequence does on an error
                try writer.write(frame.view, index: i)
            }
        }
        XCTAssertEqual(try snapshot(), before)
    }

    /// Something planted at frame 3's name while the frames are rendered:
    /// write(3) fails; and if it is planted after the last write, commit()
    /// fails and puts back the frames it had already replaced.
    func testFrameNameTakenMidSequenceOrAtCommitRestoresEveryFrame() throws {
        let frame = try solid(9)
        let third = dir.appendingPathComponent("frame-00003.png")
        for atCommit in [false, true] {
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try plantOldFrames()
            let writer = try FrameSequenceWriter(directory: dir, frames: 0...5)
            var failed = false
            for i in 0...5 {
                if i == (atCommit ? 5 : 2) {
                    try FileManager.default.removeItem(at: third)
                    try FileManager.default.createDirectory(at: third, withIntermediateDirectories: false)
                    try Data("inside".utf8).write(to: third.appendingPathComponent("x"))
                }
                do { try writer.write(frame.view, index: i) } catch { failed = true; writer.discard(); break }
            }
            XCTAssertEqual(failed, !atCommit)
            if atCommit {
                XCTAssertThrowsError(try writer.commit()) { error in
                    XCTAssertTrue("\(error)".contains("frame-00003.png"), "\(error)")
                }
            }
            var expected: [String: Data] = [:]
            for i in [0, 1, 2, 4, 5] { expected["frame-0000\(i).png"] = Data("old frame \(i)".utf8) }
            expected["frame-00003.png"] = Data("<dir>".utf8)
            expected["frame-00003.png/x"] = Data("inside".utf8)
            expected["notes.txt"] = Data("mine".utf8)
            XCTAssertEqual(try snapshot(), expected, atCommit ? "at commit" : "mid-sequence")
        }
    }

    /// A successful sequence replaces the old frames and leaves nothing else.
    func testCommitReplacesOldFrames() throws {
        try plantOldFrames()
        let writer = try FrameSequenceWriter(directory: dir, frames: 2...7)
        let frames = try (2...7).map { try solid(UInt8($0)) }
        for (k, i) in (2...7).enumerated() { try writer.write(frames[k].view, index: i) }
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("frame-00002.png")), Data("old frame 2".utf8), "nothing moves before commit")
        try writer.commit()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(names, ["frame-00000.png", "frame-00001.png"] + (2...7).map { "frame-0000\($0).png" } + ["notes.txt"])
        for i in 2...7 {
            XCTAssertEqual(try ImageFile.readPNG(writer.url(forFrame: i)).packedBytes, frames[i - 2].packedBytes)
        }
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("frame-00001.png")), Data("old frame 1".utf8))
    }
}

