import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench`: one executable for the suite, rendering, verification and
/// reports (SPEC section 8). Each subcommand lives in its own file and only
/// parses and validates arguments; the work happens in the libraries.
@main
struct RasterBench: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "rasterbench",
        abstract: "GPU-free raster kernels for animated backgrounds: render, verify and benchmark them.",
        version: version,
        subcommands: [Run.self, Bench.self, Compare.self, Render.self, Verify.self, List.self],
        defaultSubcommand: Run.self
    )

    /// Errors print as one line and exit non-zero (SPEC section 10).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as RasterError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            Foundation.exit(2)
        } catch let error as HarnessError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            Foundation.exit(2)
        } catch {
            exit(withError: error)
        }
    }
}

/// Options shared by the commands that run a backend.
struct BackendOptions: ParsableArguments {
    @Option(name: .long, help: "Backend: naive, simd or openmp.")
    var backend: String = "simd"

    @Option(name: .long, help: "Threads for the simd and openmp backends (1...\(BackendKind.maxThreads)).")
    var threads: Int = 1

    @Option(name: .long, help: "Variant: a name (e.g. down4) for every kernel that has it, or kernel=variant,...")
    var variant: String?

    func makeRenderer() throws -> Renderer {
        let backend = try BackendKind(parsing: backend).make(threads: threads)
        let variants = try variant.map(VariantSelection.init(parsing:)) ?? .exact
        return Renderer(backend: backend, variants: variants)
    }
}
