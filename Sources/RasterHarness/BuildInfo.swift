import RasterKit

/// How this binary was built. A debug build of a benchmark measures the
/// compiler's bounds checks and missing inlining, not the kernels, so the
/// harness says so loudly and every CSV row carries the fact.
public enum BuildInfo {
    /// False in a `-Onone` build (`swift build` without `-c release`).
    /// `_isDebugAssertConfiguration()` is decided when this module is
    /// compiled, and SwiftPM compiles every target of a build alike.
    public static var isOptimized: Bool { !_isDebugAssertConfiguration() }

    public static var configuration: String { isOptimized ? "release" : "debug" }

    /// Whether the C backend was compiled with -fopenmp.
    public static var openMP: Bool { OpenMPBackend.isParallel }

    /// The flags Package.swift applies, as far as the binary can know them:
    /// the optimisation level is observed, `-march=native` is Package.swift's
    /// default unless RASTERBENCH_PORTABLE=1 was set when building.
    public static var compilerFlags: String {
        var parts = [isOptimized ? "swift -O" : "swift -Onone"]
        #if arch(x86_64)
        parts.append("-Xcc -march=native (unless RASTERBENCH_PORTABLE)")
        #endif
        parts.append("C -O3 -ffp-contract=fast" + (openMP ? " -fopenmp" : " (no OpenMP)"))
        return parts.joined(separator: "; ")
    }

    /// The warning printed before and after a run of an unoptimised build.
    public static let debugWarning = """
        WARNING: this is a DEBUG (-Onone) build. Its times measure bounds checks and \
        missing inlining, not the kernels; they are marked optimized=false in the CSV. \
        Use: swift run -c release rasterbench
        """
}

/// The version of the suite's methodology and CSV layout; bump it when a
/// change makes old reports incomparable.
public enum SuiteVersion {
    public static let current = "1.1"
}
