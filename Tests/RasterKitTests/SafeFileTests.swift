import CSafeFile
import Foundation
@testable import RasterKit
import XCTest

/// Files written safely and read safely (docs/contract.md §10, "Files
/// written safely" and "Hangs and waste").
final class SafeFileTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rasterkit-safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func entries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    private func kind(_ path: String) -> mode_t {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st.st_mode & S_IFMT
    }

    // MARK: temporary names

    func testTemporaryNamesAreUnpredictableAndInTheTargetsDirectory() throws {
        let target = dir.appendingPathComponent("x.png")
        let a = try AtomicFile.createTemporary(for: target), b = try AtomicFile.createTemporary(for: target)
        defer {
            for t in [a, b] { close(t.fd); unlink(t.path); rk_temp_release(t.slot) }
        }
        XCTAssertNotEqual(a.path, b.path)
        let prefix = AtomicFile.temporaryPrefix(for: target)
        for t in [a, b] {
            XCTAssertTrue(t.path.hasPrefix(prefix) && t.path.hasSuffix(".tmp"), t.path)
            let random = t.path.dropFirst(prefix.count).dropLast(4)
            XCTAssertEqual(random.count, 16, t.path)
            XCTAssertNotNil(UInt64(random, radix: 16), t.path)
            XCTAssertEqual(URL(fileURLWithPath: t.path).deletingLastPathComponent().path, dir.path)
        }
        XCTAssertEqual(rk_temp_live_count(), 2, "both registered for cleanup on a signal")
    }

    /// A file written over time (`AtomicFile.Pending`): nothing at the
    /// target until commit; dropped uncommitted, no temporary is left; a
    /// directory put at the target meanwhile is not replaced.
    func testPendingFilesAppearOnlyOnCommit() throws {
        let target = dir.appendingPathComponent("log.txt")
        let live = rk_temp_live_count()
        do {
            let file = try AtomicFile.Pending(target)
            try file.write(Data("partial".utf8))
            XCTAssertEqual(rk_temp_live_count(), live + 1)
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        }
        XCTAssertEqual(try entries(), [], "dropped uncommitted: removed")
        XCTAssertEqual(rk_temp_live_count(), live)
        let file = try AtomicFile.Pending(target)
        try file.write(Data("whole".utf8))
        try file.commit()
        XCTAssertEqual(try Data(contentsOf: target), Data("whole".utf8))
        let late = try AtomicFile.Pending(dir.appendingPathComponent("late"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("late"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try late.commit())
        XCTAssertEqual(try entries(), ["late", "log.txt"])
        XCTAssertThrowsError(try AtomicFile.Pending(URL(fileURLWithPath: "/dev/null")), "a device is written in place, not through a temporary")
    }

    /// A registered temporary directory: made exclusively, private to its
    /// owner, and counted until released.
    func testTemporaryDirectoriesAreExclusiveAndRegistered() throws {
        let path = dir.appendingPathComponent(".frames-test.tmp").path
        let live = rk_temp_live_count()
        var slot: Int32 = -1
        XCTAssertEqual(rk_tempdir_create(path, &slot), 0)
        XCTAssertEqual(rk_temp_live_count(), live + 1)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFDIR)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        var again: Int32 = -1
        XCTAssertEqual(rk_tempdir_create(path, &again), -1, "an existing name is never taken over")
        XCTAssertEqual(errno, EEXIST)
        rk_temp_release(slot)
        XCTAssertEqual(rk_temp_live_count(), live)
        rmdir(path)
    }

    func testExclusiveCreationNeverFollowsAPlantedLinkOrOpensAPlantedFIFO() throws {
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        let link = dir.appendingPathComponent(".x.png.0123456789abcdef.tmp").path
        XCTAssertEqual(symlink(victim.path, link), 0)
        var slot: Int32 = -1
        XCTAssertEqual(rk_temp_create(link, &slot), -1)
        XCTAssertEqual(errno, EEXIST)
        let dangling = dir.appendingPathComponent(".x.png.fedcba9876543210.tmp").path
        XCTAssertEqual(symlink(dir.appendingPathComponent("created-through-link").path, dangling), 0)
        XCTAssertEqual(rk_temp_create(dangling, &slot), -1, "O_EXCL refuses even a dangling link")
        let fifo = dir.appendingPathComponent(".x.png.00000000000000ff.tmp").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(rk_temp_create(fifo, &slot), -1, "a FIFO is not opened (would block)")
        XCTAssertEqual(rk_temp_live_count(), 0, "a failed creation leaves nothing registered")
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("created-through-link").path))
    }

    func testWriteWithLinksPlantedAtTheTemporaryPatternLeavesTheirTargetsAlone() throws {
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        let target = dir.appendingPathComponent("x.csv")
        let prefix = AtomicFile.temporaryPrefix(for: target)
        // The old, predictable name and a few guesses of the new pattern.
        for name in [dir.appendingPathComponent(".x.csv.\(getpid()).tmp").path, prefix + "0000000000000000.tmp",
                     prefix + "tmp", prefix + "ffffffffffffffff.tmp"] {
            XCTAssertEqual(symlink(victim.path, name), 0)
        }
        try AtomicFile.write("a,b\n", toPath: target.path)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "a,b\n")
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertEqual(kind(target.path), S_IFREG)
        XCTAssertEqual(try entries().filter { $0.hasSuffix(".tmp") }.count, 4, "only the planted links, no temporary left")
        XCTAssertEqual(rk_temp_live_count(), 0)
    }

    func testTheFileModeHonoursTheUmask() throws {
        let target = dir.appendingPathComponent("m.csv")
        let old = umask(0o027)
        defer { umask(old) }
        try AtomicFile.write("x", toPath: target.path)
        let mode = (try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as! NSNumber).intValue
        XCTAssertEqual(mode, 0o640)
    }

    // MARK: targets that are not regular files

    func testACharacterDeviceIsWrittenInPlaceNotReplaced() throws {
        try AtomicFile.write("report\n", toPath: "/dev/null")
        XCTAssertEqual(kind("/dev/null"), S_IFCHR)
        XCTAssertEqual(try OutputPath.target("/dev/null"), .characterDevice)
        // Only where /dev/full is still the device (on a shared host another
        // process's old build may have renamed a file over it).
        var full = stat()
        if lstat("/dev/full", &full) == 0, full.st_mode & S_IFMT == S_IFCHR {
            XCTAssertThrowsError(try AtomicFile.write("x", toPath: "/dev/full")) { error in
                XCTAssertTrue("\(error)".contains("No space left") || "\(error)".contains("write failed"), "\(error)")
            }
            XCTAssertEqual(kind("/dev/full"), S_IFCHR)
        }
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: "/dev").contains { $0.hasPrefix(".null.") })
    }

    func testAFIFODirectoryOrLinkTargetIsRefusedWithoutBlocking() throws {
        let fifo = dir.appendingPathComponent("f.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let folder = dir.appendingPathComponent("d.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let link = dir.appendingPathComponent("l.png").path
        XCTAssertEqual(symlink("/etc/hostname", link), 0)
        for (path, what) in [(fifo, "a FIFO"), (folder.path, "a directory"), (link, "a symbolic link")] {
            XCTAssertThrowsError(try AtomicFile.write(Data([1, 2, 3]), to: URL(fileURLWithPath: path))) { error in
                XCTAssertTrue("\(error)".contains(what), "\(error)")
            }
        }
        XCTAssertEqual(kind(fifo), S_IFIFO)
        XCTAssertEqual(kind(folder.path), S_IFDIR)
        XCTAssertEqual(kind(link), S_IFLNK)
        XCTAssertEqual(try entries(), ["d.png", "f.png", "l.png"], "no temporary left behind")
    }

    // MARK: output path arguments

    func testOutputArgumentsAreCheckedAsWritten() throws {
        func message(_ text: String, _ ext: [String]? = nil) -> String {
            do { try OutputPath.checkFileArgument(text, name: "-o", extensions: ext); return "accepted" } catch { return "\(error)" }
        }
        XCTAssertTrue(message("").contains("empty path"), message(""))
        XCTAssertTrue(message(dir.path + "/new.png/").contains("(a folder)"), message(dir.path + "/new.png/"))
        XCTAssertTrue(message(dir.path + "/..").contains("(a folder)"))
        XCTAssertTrue(message(dir.path + "/a.txt", ["png"]).contains(".png"))
        XCTAssertTrue(message(dir.path + "/missing/a.png").contains("does not exist"))
        XCTAssertEqual(message(dir.path + "/a.png", ["png"]), "accepted")
        XCTAssertEqual(message("/dev/null"), "accepted")
        XCTAssertNoThrow(try OutputPath.checkFileArgument(dir.path + "/new/sub/r.csv", name: "--out", createDirectory: true))
        XCTAssertThrowsError(try OutputPath.requireDistinct([("--out", dir.path + "/r.csv"), ("--json", dir.path + "/./r.csv")]))
        XCTAssertNoThrow(try OutputPath.requireDistinct([("--out", dir.path + "/r.csv"), ("--json", dir.path + "/r.json")]))
        XCTAssertTrue(message("a\nb.txt", ["png"]).contains("'a\\nb.txt'"), message("a\nb.txt", ["png"]))
    }

    /// An output that is one of the inputs, or another output, is refused
    /// however it is spelled: `./`, `..`, a hard link, a symbolic link (to
    /// the file or to its folder); a new output too, by its folder's
    /// identity and its name. Different files pass.
    func testOutputsThatAreAnInputOrEachOtherAreRefusedByIdentity() throws {
        let report = dir.appendingPathComponent("r.csv").path
        try Data("report".utf8).write(to: URL(fileURLWithPath: report))
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        XCTAssertEqual(link(report, dir.appendingPathComponent("hard.json").path), 0)
        XCTAssertEqual(symlink(report, dir.appendingPathComponent("soft.json").path), 0)
        XCTAssertEqual(symlink(dir.path, dir.appendingPathComponent("here").path), 0)
        func refused(_ output: String, inputs: [String] = [report], other: String? = nil) -> Bool {
            let outputs = [("--save", output)] + (other.map { [("--out", $0)] } ?? [])
            do { try OutputPath.requireDistinct(outputs, inputs: inputs.map { ("--from", $0) }); return false } catch {
                XCTAssertTrue("\(error)".contains("--save"), "\(error)")
                return true
            }
        }
        for same in [report, dir.path + "/./r.csv", sub.path + "/../r.csv", dir.path + "/hard.json", dir.path + "/soft.json",
                     dir.path + "/here/r.csv"] {
            XCTAssertTrue(refused(same), same)
        }
        // Two outputs not yet there, spelled differently.
        XCTAssertTrue(refused(dir.path + "/new.json", inputs: [], other: dir.path + "/here/new.json"))
        XCTAssertTrue(refused(dir.path + "/no/new.json", inputs: [], other: dir.path + "/no/./new.json"))
        XCTAssertFalse(refused(dir.path + "/new.json", other: dir.path + "/new.csv"))
        XCTAssertFalse(refused(sub.path + "/r.csv"))
        XCTAssertFalse(refused(dir.path + "/w.json", inputs: [report, dir.path + "/missing.csv"]))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: report)), Data("report".utf8))
    }

    // MARK: reading

    func testOnlyRegularFilesAreRead() throws {
        let fifo = dir.appendingPathComponent("in.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let start = Date()
        XCTAssertThrowsError(try InputFile.read(fifo)) { XCTAssertTrue("\($0)".contains("a FIFO"), "\($0)") }
        XCTAssertThrowsError(try ImageFile.read(URL(fileURLWithPath: fifo), width: 4, height: 4))
        XCTAssertThrowsError(try InputFile.read("/dev/zero")) { XCTAssertTrue("\($0)".contains("a device"), "\($0)") }
        XCTAssertThrowsError(try InputFile.read(dir.path)) { XCTAssertTrue("\($0)".contains("a directory"), "\($0)") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "nothing blocked")
        let job = dir.appendingPathComponent("job.json")
        try Data(#"{"width":4,"height":4,"ops":[{"op":"image","file":"in.png"}]}"#.utf8).write(to: job)
        XCTAssertThrowsError(try Job.load(contentsOf: job)) { XCTAssertTrue("\($0)".contains("FIFO"), "\($0)") }
        let jobFIFO = dir.appendingPathComponent("job-fifo.json").path
        XCTAssertEqual(mkfifo(jobFIFO, 0o600), 0)
        XCTAssertThrowsError(try Job.load(contentsOf: URL(fileURLWithPath: jobFIFO))) { XCTAssertTrue("\($0)".contains("FIFO"), "\($0)") }
    }

    /// A PNG signature and IHDR declaring `width` x `height`, 1-bit grey, and
    /// no pixel data: only the header can be the reason for the error.
    private func pngHeader(width: UInt32, height: UInt32) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        for v in [width, height] { d += [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        d += [1, 0, 0, 0, 0, 0, 0, 0, 0] // depth 1, grey, methods, CRC (unchecked here)
        return d
    }

    func testAPNGsDeclaredSizeIsCheckedFromItsHeaderBeforeDecoding() throws {
        let big = dir.appendingPathComponent("big.png")
        try pngHeader(width: 20000, height: 20000).write(to: big)
        XCTAssertThrowsError(try ImageFile.read(big, width: 16, height: 16)) { error in
            XCTAssertTrue("\(error)".contains("is 20000x20000, the canvas is 16x16"), "\(error)")
        }
        let absurd = dir.appendingPathComponent("absurd.png")
        try pngHeader(width: 0x7FFF_FFFF, height: 3).write(to: absurd)
        XCTAssertThrowsError(try ImageFile.readPNG(absurd)) { error in
            XCTAssertTrue("\(error)".contains("declares 2147483647x3"), "\(error)")
        }
        // A real PNG still reads, through the same path.
        let image = try Image(width: 3, height: 2)
        for y in 0..<2 { image.view.row(y).update(repeating: 255, count: 3 * 4) }
        let good = dir.appendingPathComponent("good.png")
        try ImageFile.write(image.view, to: good)
        let back = try ImageFile.read(good, width: 3, height: 2)
        withExtendedLifetime(back) { XCTAssertEqual(back.view.packedBytes, image.view.packedBytes) }
        XCTAssertThrowsError(try ImageFile.read(good, width: 2, height: 3))
    }

    func testACanvasTooLargeForPNGIsRefusedNamingTheOutput() throws {
        let out = URL(fileURLWithPath: "/tmp/frame.png")
        XCTAssertThrowsError(try ImageFile.checkCanvas(width: 32768, height: 32768, for: out)) { error in
            XCTAssertTrue("\(error)".contains("frame.png") && "\(error)".contains("32768x32768"), "\(error)")
        }
        XCTAssertNoThrow(try ImageFile.checkCanvas(width: 32768, height: 32767, for: out))
        XCTAssertNoThrow(try ImageFile.checkCanvas(width: 32768, height: 32768, for: URL(fileURLWithPath: "/tmp/f.rgba")))
    }
}
