import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench`: one executable for the suite, rendering, verification and
/// reports (docs/contract.md §8). Each subcommand lives in its own file and only
/// parses and validates arguments; the work happens in the libraries.
@main
struct RasterBench: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "rasterbench",
        abstract: "GPU-free raster kernels for animated backgrounds: render, verify and benchmark them.",
        discussion: ExitStatus.help,
        version: version,
        subcommands: [Run.self, Bench.self, Compare.self, AB.self, Render.self, Verify.self, List.self, Choose.self, GovernorBench.self, Report.self],
        defaultSubcommand: Run.self
    )

    /// Every error prints as one line on stderr and exits with its kind's
    /// status (`ExitStatus`): a refused value or file 1, whether our own
    /// reader or argument-parser's refused it; the command line's shape 2.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = configuration.subcommands.map { $0._commandName }
        if let unknown = CommandSuggestion.unknownCommand(arguments, commands: commands) {
            fail(unknown, code: ExitStatus.usage)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let error as RasterError {
            fail("\(ParameterFlags.flagged(error))", code: ExitStatus.badInput)
        } catch let error as HarnessError {
            fail("\(ParameterFlags.flagged(error))", code: ExitStatus.badInput)
        } catch let error as GovernorError {
            fail("\(error)", code: ExitStatus.badInput)
        } catch let error as UsageError {
            fail(error.description, code: ExitStatus.usage)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue) // a command's own status, already reported
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error)) // --help, --version
                Foundation.exit(0)
            }
            // A value refused by an `OptionValue` reader, in its own words.
            if let refused = OptionValue.refused { fail(refused, code: ExitStatus.badInput) }
            let message = self.message(for: error)
            fail(message.split(separator: "\n").first.map(String.init) ?? message,
                 code: ExitStatus.forParserMessage(message))
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        Console.writeError("error: \(oneLine(message))\n")
        Foundation.exit(code)
    }

    /// The last guard of "one line": whatever a message quotes (a value, a
    /// JSON key, the argument parser's echo of a 100,000-character option),
    /// control characters are escaped and a long message keeps its start
    /// and its end (where "accepted: ..." is) around an ellipsis.
    static func oneLine(_ message: String, limit: Int = 400) -> String {
        let flat = RasterError.escaped(message, limit: Int.max)
        guard flat.count > limit else { return flat }
        return String(flat.prefix(limit / 2)) + " ... " + String(flat.suffix(limit / 2))
    }
}

/// Options shared by the commands that run a backend.
struct BackendOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Backend: naive, simd or openmp.")
    var backend: String = "simd"

    @Option(name: .long, parsing: .unconditional, help: "Threads for the simd and openmp backends (1...\(BackendKind.maxThreads)).",
            transform: OptionValue.threads)
    var threads: Int = 1

    @Option(name: .long, parsing: .unconditional, help: "Variant: a name (e.g. down4) for every kernel that has it, or kernel=variant,...")
    var variant: String?

    @Option(name: .long, parsing: .unconditional, help: "The most memory one job may need (e.g. 512M, 2G); default: half the physical memory (\(MemoryBudget.default)).")
    var maxMemory: String?

    @Option(name: .long, parsing: .unconditional,
            help: "Stop with an error once rendering has taken this many seconds (checked between ops; 0: no limit). Default: none for render, \(Int(BackendOptions.benchSeconds)) s for bench.",
            transform: OptionValue.decimal("--max-seconds", TimeBudget.acceptedText) { (0...TimeBudget.maxSeconds).contains($0) })
    var maxSeconds: Double?

    /// `bench`'s default limit: a job file is anyone's, and its cost is not
    /// known before it runs; ten minutes is far beyond any frame's budget.
    static let benchSeconds = 600.0

    /// The time budget from now: `--max-seconds`, else `defaultSeconds`.
    func timeBudget(default defaultSeconds: Double?) throws -> TimeBudget? {
        guard let seconds = maxSeconds ?? defaultSeconds, seconds > 0 else { return nil }
        return try TimeBudget(seconds: seconds)
    }

    func memoryBudget() throws -> MemoryBudget {
        try maxMemory.map(MemoryBudget.init(parsing:)) ?? .default
    }

    func makeRenderer(scale: Double = 1, defaultSeconds: Double? = nil) throws -> Renderer {
        let backend = try BackendKind(parsing: backend).make(threads: threads)
        let variants = try variant.map(VariantSelection.init(parsing:)) ?? .exact
        let renderer = try Renderer(backend: backend, variants: variants, scale: scale)
        renderer.memoryBudget = try memoryBudget()
        renderer.timeBudget = try timeBudget(default: defaultSeconds)
        return renderer
    }
}
