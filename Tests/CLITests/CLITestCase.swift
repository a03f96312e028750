import Foundation
import XCTest

/// What every command-line test needs: a scratch directory, the built
/// `rasterbench` next to the test bundle, and a way to run it.
class CLITestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rasterbench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    var executable: URL {
        var url = Bundle(for: CLITestCase.self).bundleURL
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("rasterbench").path) {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("rasterbench")
    }

    struct Outcome { var status: Int32; var stdout: String; var stderr: String }

    func run(_ args: [String]) throws -> Outcome {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = dir
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Outcome(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                       stderr: String(decoding: e, as: UTF8.self))
    }
}
