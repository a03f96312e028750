import Foundation
import XCTest

/// The README's "Where things are" map and the comments that cite docs/
/// must point at things that exist: a file moved or a section renumbered
/// without updating them fails here, so the map cannot drift silently.
final class ReadmeMapTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The part of the README between the map's markers.
    private func map() throws -> Substring {
        let readme = try text("README.md")
        let begin = try XCTUnwrap(readme.range(of: "<!-- map:begin -->"), "README has no map:begin marker")
        let end = try XCTUnwrap(readme.range(of: "<!-- map:end -->"), "README has no map:end marker")
        return readme[begin.upperBound..<end.lowerBound]
    }

    /// Backquoted cells that name a path (they hold a "/").
    static func paths(in text: Substring) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.contains("/") }
            .map { String($0.element) }
    }

    func testEveryPathInTheMapExists() throws {
        let paths = Self.paths(in: try map())
        XCTAssertGreaterThan(paths.count, 50, "the map lists too few paths: the markers or the quoting changed")
        for path in paths {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                          "README's map names \(path), which does not exist")
        }
    }

    /// One row per kernel, each naming in its columns the maths, each of
    /// the three backends' schedules, a C file, a reference, a test and the
    /// suite entry. By column, not by folder: a kernel may keep its
    /// schedules in Backends/<backend>/ or in its own folder (K4).
    func testEveryKernelHasAFullRow() throws {
        let rows = try map().split(separator: "\n")
        let columns = ["maths": 2, "naive": 3, "simd": 4, "openmp": 5, "reference": 6, "tests": 7, "suite entry": 8]
        for kernel in 1...7 {
            let row = try XCTUnwrap(rows.first { $0.hasPrefix("| K\(kernel) ") }, "no row for K\(kernel)")
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
            XCTAssertGreaterThanOrEqual(cells.count, 9, "K\(kernel)'s row has too few columns")
            guard cells.count >= 9 else { continue }
            for (name, index) in columns {
                XCTAssertFalse(Self.paths(in: cells[index]).isEmpty, "K\(kernel)'s row names no \(name) file")
            }
            XCTAssertTrue(Self.paths(in: cells[5]).contains { $0.hasPrefix("Sources/CRasterOMP/") },
                          "K\(kernel)'s openmp column names no C file")
            XCTAssertTrue(Self.paths(in: cells[8]).contains { $0.hasPrefix("Sources/RasterHarness/Suite") },
                          "K\(kernel)'s suite entry is not a Suite file")
        }
    }

    /// "docs/contract.md §2.4" in a comment must name a heading "## 2." /
    /// "### 2.4" of that document.
    func testCitedDocSectionsExist() throws {
        let docs = ["docs/contract.md", "docs/measurement.md"]
        var sections: [String: Set<String>] = [:]
        for doc in docs {
            sections[doc] = Set(try text(doc).split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("#") else { return nil }
                let number = line.drop { $0 == "#" || $0 == " " }.prefix { $0.isNumber || $0 == "." }
                return number.isEmpty ? nil : String(number.hasSuffix(".") ? number.dropLast() : number)
            })
        }
        let fm = FileManager.default
        for folder in ["Sources", "Tests", "Benchmarks", "scripts", "Fuzz"] {
            guard let files = fm.enumerator(atPath: Self.root.appendingPathComponent(folder).path) else { continue }
            for case let file as String in files where [".swift", ".c", ".h", ".sh", ".py"].contains(where: file.hasSuffix) {
                let source = try text("\(folder)/\(file)")
                for doc in docs {
                    var rest = source[...]
                    while let hit = rest.range(of: doc + " §") {
                        let number = rest[hit.upperBound...].prefix { $0.isNumber || $0 == "." }
                        let section = number.hasSuffix(".") ? String(number.dropLast()) : String(number)
                        XCTAssertTrue(sections[doc]!.contains(section), "\(folder)/\(file) cites \(doc) §\(section), which has no such heading")
                        rest = rest[hit.upperBound...]
                    }
                }
            }
        }
    }
}
