import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import RasterHarness
import RasterKit
import RasterReport
import XCTest

/// `rasterbench report`'s page: parsed as XML (Plot writes well-formed
/// markup), every chart and picture present for every scene, kernel and
/// report, nothing fetched from the network, the embedded pictures decode;
/// bad input is one typed error; and, where Chromium is installed, the page
/// renders to a screenshot with something on it.
final class ReportHTMLTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("report-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    // MARK: Synthetic reports

    static func row(_ kernel: String, _ variant: String = "exact", backend: BackendKind, threads: Int = 1, median: Double,
                    psnr: Double? = nil, param: String = "", scale: Double = 1, sweep: SweepKind? = nil, size: (Int, Int) = (750, 1334),
                    gb: Double? = nil, host: String, commit: String) -> ReportRow {
        var r = ReportRow()
        r.host = host; r.gitCommit = commit; r.hostCPU = "Test CPU"; r.hostCores = 2; r.date = "2026-11-22T00:00:00Z"
        r.profile = "iphone-6"; r.fps = 60; r.budgetMs = 1000.0 / 60 * 0.25; r.budgetShare = 0.25
        r.kernel = kernel; r.variant = variant; r.backend = backend; r.threads = threads
        r.width = size.0; r.height = size.1; r.parameters = param; r.renderScale = scale; r.sweep = sweep
        r.samples = 5; r.medianMs = median; r.p95Ms = median * 1.1; r.psnrDb = psnr
        if let gb { r.gbPerS = gb; r.copyGBPerS = 20; r.bwFraction = gb / 20; r.bytesPerRun = 1_000_000 }
        return r
    }

    /// Two scenes and two kernels on three backends, a size sweep for one
    /// kernel and bandwidth figures for another; `slow` scales every time.
    static func rows(host: String, commit: String, slow: Double = 1) -> [ReportRow] {
        var rows: [ReportRow] = []
        for (scene, base) in [("morph", 3.0), ("liquid", 5.0)] {
            for (backend, speed) in [(BackendKind.naive, 1.0), (.simd, 8.0), (.openmp, 10.0)] {
                for threads in backend == .naive ? [1] : [1, 2] {
                    let t = base / speed / Double(threads) * slow
                    rows.append(row(scene, backend: backend, threads: threads, median: t, psnr: .infinity, host: host, commit: commit))
                    rows.append(row(scene, "fill=ss4", backend: backend, threads: threads, median: t * 0.8, psnr: 52, host: host, commit: commit))
                    rows.append(row(scene, backend: backend, threads: threads, median: t * 0.4, psnr: 41, scale: 0.5, host: host, commit: commit))
                }
            }
        }
        for (backend, speed) in [(BackendKind.naive, 1.0), (.simd, 6.0)] {
            for threads in backend == .naive ? [1] : [1, 2] {
                let t = 2.0 / speed / Double(threads) * slow
                rows.append(row("fill", backend: backend, threads: threads, median: t, psnr: 80, param: "shape=blob", host: host, commit: commit))
                rows.append(row("fill", "ss4", backend: backend, threads: threads, median: t / 2, psnr: 55, param: "shape=blob", host: host, commit: commit))
                rows.append(row("composite", backend: backend, threads: threads, median: t, psnr: 90, param: "opacity=0.8",
                                gb: 8 / t, host: host, commit: commit))
                for side in [64, 256, 1024] {
                    rows.append(row("composite", backend: backend, threads: threads, median: t * Double(side * side) / 1e6,
                                    param: "opacity=0.8", sweep: .size, size: (side, side), host: host, commit: commit))
                }
            }
        }
        return rows
    }

    func writeReport(_ name: String, _ rows: [ReportRow]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try ReportCSV.document(rows).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static let quick = HTMLReport.Options(animationFrames: 2, mediaWidth: 32)

    // MARK: Structure

    /// What the XML parser saw: ids, images and every attribute value.
    final class Outline: NSObject, XMLParserDelegate {
        var ids: [String] = []
        var images: [(cls: String, src: String, alt: String)] = []
        var svgCount = 0
        var attributeValues: [(String, String)] = []
        var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if let id = attributes["id"] { ids.append(id) }
            if name == "img" { images.append((attributes["class"] ?? "", attributes["src"] ?? "", attributes["alt"] ?? "")) }
            if name == "svg" { svgCount += 1 }
            for (k, v) in attributes { attributeValues.append((k, v)) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }

    func outline(_ html: String) throws -> Outline {
        let parser = XMLParser(data: Data(html.utf8))
        let o = Outline()
        parser.delegate = o
        XCTAssertTrue(parser.parse(), "the page is not well-formed: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)")
        return o
    }

    func testEveryChartAndPictureIsPresentForTwoReportsSideBySide() throws {
        let a = try writeReport("before.csv", Self.rows(host: "hostA", commit: "aaaaaaa111"))
        let b = try writeReport("after.csv", Self.rows(host: "hostB", commit: "bbbbbbb222", slow: 0.7))
        let out = dir.appendingPathComponent("report.html").path
        let (url, bytes) = try HTMLReport.write(reports: [a, b], to: out, options: Self.quick)
        XCTAssertGreaterThan(bytes, 0)
        let html = try String(contentsOf: url, encoding: .utf8)
        let o = try outline(html)

        let p = "iphone-6"
        for scene in ["morph", "liquid"] {
            XCTAssertTrue(o.ids.contains("frametime-\(p)-\(scene)"), "frame-time chart of \(scene): \(o.ids)")
            XCTAssertTrue(o.ids.contains("front-\(p)-\(scene)"), "front of \(scene)")
            XCTAssertTrue(o.ids.contains("scene-\(p)-\(scene)"), "picture card of \(scene)")
            XCTAssertTrue(o.images.contains { $0.cls == "frame" && $0.alt.hasPrefix(scene) }, "frame of \(scene)")
            XCTAssertTrue(o.images.contains { $0.cls == "animation" && $0.alt.hasPrefix(scene) }, "animation of \(scene)")
        }
        // A kernel's front is keyed by its parameters, as choose keys it.
        for kernel in ["fill-shape-blob", "composite-opacity-0-8"] { XCTAssertTrue(o.ids.contains("front-\(p)-\(kernel)"), "front of \(kernel)") }
        // The answer table heads each report's part of the profile.
        XCTAssertTrue(o.ids.contains("answer-\(p)-1") && o.ids.contains("answer-\(p)-2"), "answer tables: \(o.ids)")
        for id in ["speedup-\(p)", "scaling-\(p)", "size-\(p)-composite-opacity-0-8", "bandwidth-\(p)"] {
            XCTAssertTrue(o.ids.contains(id), "\(id) missing from \(o.ids)")
        }
        // 2 frame-time + 4 fronts + speed-up + scaling + size + bandwidth.
        XCTAssertEqual(o.svgCount, 10)
        XCTAssertEqual(Set(o.ids).count, o.ids.count, "ids are unique")

        // Both reports are named, side by side.
        XCTAssertTrue(o.text.contains("hostA @aaaaaaa before.csv") && o.text.contains("hostB @bbbbbbb after.csv"), "series labels")
        XCTAssertTrue(o.text.contains("slope 1"), "the size chart gives the fitted slope")
        XCTAssertTrue(o.text.contains("chosen: "), "the front marks the choice")

        // Nothing is fetched: no URL but the SVG namespace name, which is never loaded.
        for (name, value) in o.attributeValues {
            if name == "xmlns" { XCTAssertEqual(value, "http://www.w3.org/2000/svg"); continue }
            XCTAssertFalse(value.lowercased().hasPrefix("http:") || value.lowercased().hasPrefix("https:") || value.hasPrefix("//"),
                           "external reference \(name)=\(value.prefix(60))")
            if name == "src" || name == "href" {
                XCTAssertTrue(value.hasPrefix("data:") || value.hasPrefix("#"), "\(name)=\(value.prefix(60))")
            }
        }
        XCTAssertEqual(html.components(separatedBy: "http").count - 1, o.svgCount, "only the svg namespaces mention http")

        // The embedded pictures decode: a PNG of the frame size and an animated WebP.
        for img in o.images {
            let parts = img.src.split(separator: ",", maxSplits: 1)
            XCTAssertEqual(parts.count, 2)
            let data = try XCTUnwrap(Data(base64Encoded: String(parts[1])), "base64 of \(img.alt)")
            if img.cls == "frame" {
                XCTAssertTrue(parts[0] == "data:image/png;base64")
                let file = dir.appendingPathComponent("frame.png")
                try data.write(to: file)
                let image = try ImageFile.readPNG(file)
                XCTAssertEqual(image.width, 32)
                XCTAssertEqual(image.height, Int((1334.0 * 32 / 750).rounded()))
            } else {
                XCTAssertTrue(parts[0] == "data:image/webp;base64")
                XCTAssertEqual(String(decoding: data.prefix(4), as: UTF8.self), "RIFF")
                XCTAssertEqual(String(decoding: data[8..<12], as: UTF8.self), "WEBP")
                XCTAssertNotNil(data.range(of: Data("ANIM".utf8)), "an animation, not a still")
            }
        }
    }

    /// The answer is stamped with rounds, load and host; a one-round report
    /// and one taken above the host's cores say so, a clean one does not.
    func testAnswerStampWarnsOfOneRoundAndOfLoadAboveTheCores() throws {
        let kernels = Self.rows(host: "h", commit: "c").filter { $0.kernel == "fill" && $0.sweep == nil }
        func page(rounds: Int?, load: Double) throws -> String {
            let rows = kernels.map { r -> ReportRow in var r = r; r.rounds = rounds; r.loadAverage = load; return r }
            return try HTMLReport.html([ReportSource(path: "r.csv", rows: rows, index: 0)], options: Self.quick)
        }
        let weak = try page(rounds: nil, load: 5)
        XCTAssertTrue(weak.contains("1 round · median load 5 on 2 cores · h (Test CPU)"), "stamp")
        XCTAssertTrue(weak.contains("class=\"warning\">⚠ One round"), "one-round warning")
        XCTAssertTrue(weak.contains("exceeded the host's 2 cores during \(kernels.count) of \(kernels.count) rows"), "load warning")
        let clean = try page(rounds: 3, load: 0.5)
        XCTAssertTrue(clean.contains("3 rounds · median load 0.5 on 2 cores"), "stamp")
        XCTAssertFalse(clean.contains("class=\"warning\""), "a clean report has no warning")
    }

    func testMissingSizeRowsAndScenesAreSaidNotHidden() throws {
        let rows = Self.rows(host: "h", commit: "c").filter { $0.sweep == nil && !["morph", "liquid"].contains($0.kernel) }
        let html = try HTMLReport.html([ReportSource(path: "k.csv", rows: rows, index: 0)], options: Self.quick)
        let o = try outline(html)
        XCTAssertTrue(o.text.contains("no sweep=size rows"), "says the size chart is absent")
        XCTAssertTrue(o.text.contains("No scene rows"), "says no scene is rendered")
        XCTAssertTrue(o.images.isEmpty)
        XCTAssertFalse(o.ids.contains { $0.hasPrefix("size-") })
    }

    func testFittedSlopeOfAPowerLaw() {
        let pts = [1e3, 1e4, 1e5, 1e6].map { ($0, 3e-5 * pow($0, 0.9)) }
        XCTAssertEqual(LogLogFit.slope(pts), 0.9, accuracy: 1e-9)
    }

    // MARK: Bad input

    func assertOneLine(_ error: Error, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        let message = "\(error)"
        XCTAssertFalse(message.contains("\n"), "one line: \(message)", file: file, line: line)
        XCTAssertTrue(message.contains(text), "'\(message)' should mention \(text)", file: file, line: line)
    }

    func testBadInputsAreOneLineErrorsAndWriteNothing() throws {
        let good = try writeReport("good.csv", Self.rows(host: "h", commit: "c"))
        let out = dir.appendingPathComponent("r.html").path
        XCTAssertThrowsError(try HTMLReport.write(reports: [dir.appendingPathComponent("nope.csv").path], to: out, options: Self.quick)) {
            assertOneLine($0, contains: "no such file")
        }
        let notReport = dir.appendingPathComponent("other.csv")
        try "name,value\r\na,1\r\n".write(to: notReport, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try HTMLReport.write(reports: [notReport.path], to: out, options: Self.quick)) {
            assertOneLine($0, contains: "rasterbench report")
        }
        XCTAssertThrowsError(try HTMLReport.write(reports: [good], to: dir.appendingPathComponent("missing/r.html").path, options: Self.quick)) {
            assertOneLine($0, contains: "does not exist")
        }
        XCTAssertThrowsError(try HTMLReport.write(reports: [good], to: dir.appendingPathComponent("r.txt").path, options: Self.quick)) {
            assertOneLine($0, contains: ".html")
        }
        XCTAssertThrowsError(try HTMLReport.write(reports: [dir.path], to: out, options: Self.quick)) {
            assertOneLine($0, contains: "not a regular file")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no partial output")
    }

    // MARK: A real browser

    func testChromiumRendersThePage() throws {
        guard let chromium = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(Self.which).first else {
            throw XCTSkip("no chromium on PATH")
        }
        let a = try writeReport("a.csv", Self.rows(host: "hostA", commit: "aaaaaaa"))
        let page = dir.appendingPathComponent("page.html")
        _ = try HTMLReport.write(reports: [a], to: page.path, options: Self.quick)
        let shot = dir.appendingPathComponent("shot.png")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--screenshot=\(shot.path)",
                       "--window-size=1000,1400", "--user-data-dir=\(dir.appendingPathComponent("profile").path)", page.absoluteString]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let image = try ImageFile.readPNG(shot)
        XCTAssertEqual(image.width, 1000)
        // Non-trivial: the dark page with light text and coloured bars has many distinct colours.
        var colours = Set<UInt32>()
        let bytes = image.view.packedBytes
        for i in stride(from: 0, to: bytes.count, by: 4 * 7) {
            colours.insert(UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]))
        }
        XCTAssertGreaterThan(colours.count, 200, "the screenshot looks blank")
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
