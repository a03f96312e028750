import Foundation
import RasterKit

/// Reports saved under a name (`compare --save-as NAME REPORT`) so later runs
/// can be compared with them by that name (`compare @NAME NEW.csv`) instead of
/// by a path that a new run or a `git clean` may move. The store is a folder
/// of CSV reports, `runs/baselines` under the working directory by default,
/// which the repository ignores: a saved baseline is a fact about one machine,
/// not something to commit.
public struct BaselineStore: Sendable {
    public static let defaultDirectory = "runs/baselines"
    /// What an argument starts with to name a saved baseline rather than a file.
    public static let prefix = "@"
    static let maxNameLength = 100

    public let directory: String

    public init(directory: String = BaselineStore.defaultDirectory) { self.directory = directory }

    /// Letters, digits, `-`, `_` and `.`, not starting with `.`: the name is a
    /// file name in the store, so nothing in it may reach another folder, hide
    /// the file or smuggle a control character into a message.
    public static func validate(_ name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy { s in
            s.isASCII && (("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "-_.".unicodeScalars.contains(s))
        }
        guard allowed, !name.isEmpty, !name.hasPrefix("."), name.count <= maxNameLength else {
            throw HarnessError.invalidArgument(name: "baseline name", value: "'\(RasterError.escaped(name, limit: 60))'",
                                               accepted: "1 to \(maxNameLength) letters, digits, - _ . not starting with .")
        }
    }

    public func path(of name: String) -> String { (directory as NSString).appendingPathComponent(name + ".csv") }

    /// The saved names, sorted (none when the store does not exist yet); a
    /// file put there by hand under a name `validate` refuses is left out.
    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
            .filter { (try? Self.validate($0)) != nil }.sorted()
    }

    /// Saves `rows` as `name` (replacing an earlier baseline of that name)
    /// through the atomic writer, so a reader never sees half a baseline;
    /// returns the file's path.
    @discardableResult
    public func save(_ rows: [ReportRow], as name: String) throws -> String {
        try Self.validate(name)
        let path = path(of: name)
        try AtomicFile.write(ReportCSV.document(rows), toPath: path, createDirectory: true)
        return path
    }

    /// The report file a command-line argument names: `@NAME` a saved
    /// baseline (refused with the saved names when there is none), anything
    /// else a path, returned as given.
    public func resolve(_ argument: String) throws -> String {
        guard argument.hasPrefix(Self.prefix) else { return argument }
        let name = String(argument.dropFirst(Self.prefix.count))
        try Self.validate(name)
        let path = path(of: name)
        guard FileManager.default.fileExists(atPath: path) else {
            let saved = names()
            throw HarnessError.invalidArgument(
                name: "baseline", value: "'\(name)'",
                accepted: saved.isEmpty ? "none saved in \(RasterError.escaped(directory)) yet; save one with compare --save-as NAME REPORT.csv"
                                        : "one saved in \(RasterError.escaped(directory)): \(saved.joined(separator: ", "))")
        }
        return path
    }
}
