import ArgumentParser
import Foundation
import RasterKit
import RasterReference

/// `rasterbench verify`: every backend and variant against the reference.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every backend and variant against the double-precision reference; exit 1 on a broken bound.")

    @Option(name: .long, parsing: .unconditional, help: "Comma-separated thread counts to check the simd and openmp backends at.")
    var threads: String = "1,2"

    @Option(name: .long, parsing: .unconditional, help: "Only kernels with these names (comma-separated).")
    var kernels: String?

    func run() throws {
        // The shared parsers: an empty or meaningless selection is an error,
        // never a check of nothing that prints "all bounds hold".
        let threadCounts = try parseThreads(threads, default: 1)
        var cases = try VerifySuite.cases()
        if let kernels {
            let wanted = Set(try parseList(kernels, flag: "--kernels"))
            let known = Set(cases.map(\.kernel))
            if let unknown = wanted.subtracting(known).sorted().first {
                throw RasterError.invalidArgument(name: "--kernels", value: "'\(Console.escaped(unknown))'",
                                                  accepted: known.sorted().joined(separator: ", "))
            }
            cases = cases.filter { wanted.contains($0.kernel) }
        }
        if !OpenMPBackend.isParallel { print("note: built without OpenMP; the openmp backend runs single-threaded") }
        print(row("kernel", "variant", "case", "backend", "thr", "max", "mean", "PSNR dB", "bound", "ok", "excluded px"))
        var failures = 0
        for c in cases {
            for kind in BackendKind.allCases {
                for t in kind == .naive ? [1] : threadCounts {
                    let result: (String, String, String, Bool)
                    var excluded = ""
                    do {
                        let d = try c.check(try kind.make(threads: t))
                        // The K7 exclusion of docs/contract.md §2.7 (boundary and folds), left out of the statistics.
                        if d.excluded > 0 { excluded = "\(d.excluded)" }
                        result = (String(format: "%.0f", d.maxError), String(format: "%.4f", d.meanError),
                                  d.psnr.isInfinite ? "inf" : String(format: "%.2f", d.psnr), c.tolerance.accepts(d))
                    } catch let e as RasterError {
                        result = ("-", "-", "\(e)", false)
                    }
                    if !result.3 { failures += 1 }
                    print(row(c.kernel, c.variant, c.name, kind.rawValue, "\(t)", result.0, result.1, result.2,
                              c.tolerance.description, result.3 ? "ok" : "FAIL", excluded))
                }
            }
        }
        print("\(failures == 0 ? "all bounds hold" : "\(failures) check(s) broke their bound")")
        if failures > 0 { throw ExitCode(ExitStatus.checkFailed) }
    }

    private func row(_ cols: String...) -> String {
        let widths = [10, 8, 42, 7, 4, 4, 7, 8, 28, 4, 0]
        return zip(cols, widths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }
            .joined(separator: " ")
    }
}
