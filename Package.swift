// swift-tools-version:6.0
import PackageDescription
import Foundation

// MARK: - OpenMP discovery
//
// The `openmp` backend is C compiled with `-fopenmp` against LLVM's libomp.
// The Swift toolchain's clang understands `-fopenmp` but ships no `omp.h` or
// runtime, so we look for Debian's `libomp-dev` (or Homebrew's `libomp`).
// Where none is found the C target still builds: without `-fopenmp` the
// pragmas are ignored, `_OPENMP` is undefined, and the backend reports that
// it runs single-threaded. Set RASTERBENCH_NO_OPENMP=1 to force that build.

struct OpenMP { let include: String; let lib: String }

func findOpenMP() -> OpenMP? {
    let env = ProcessInfo.processInfo.environment
    if env["RASTERBENCH_NO_OPENMP"] == "1" { return nil }
    let fm = FileManager.default
    var roots: [String] = []
    if let root = env["RASTERBENCH_OMP_ROOT"] { roots.append(root) }
    // Debian/Ubuntu: /usr/lib/llvm-N/{lib/libomp.so, lib/clang/V/include/omp.h}
    if let entries = try? fm.contentsOfDirectory(atPath: "/usr/lib") {
        let llvm = entries.filter { $0.hasPrefix("llvm-") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) > (Int($1.dropFirst(5)) ?? 0) }
        roots += llvm.map { "/usr/lib/\($0)" }
    }
    roots += ["/opt/homebrew/opt/libomp", "/usr/local/opt/libomp", "/usr"]
    for root in roots {
        let lib = "\(root)/lib"
        guard fm.fileExists(atPath: "\(lib)/libomp.so") || fm.fileExists(atPath: "\(lib)/libomp.dylib")
        else { continue }
        var includes = ["\(root)/include"]
        if let clangVersions = try? fm.contentsOfDirectory(atPath: "\(lib)/clang") {
            includes += clangVersions.map { "\(lib)/clang/\($0)/include" }
        }
        if let inc = includes.first(where: { fm.fileExists(atPath: "\($0)/omp.h") }) {
            return OpenMP(include: inc, lib: lib)
        }
    }
    return nil
}

let openMP = findOpenMP()

// MARK: - Code generation
//
// A benchmark is meant to be built on the machine it measures, so by default
// both the Swift and the C code are compiled for the host CPU (AVX2/AVX-512
// here). Without it x86-64's SSE2 baseline has no vector floor/round and the
// SIMD code degrades into per-lane libm calls. RASTERBENCH_PORTABLE=1 builds
// for the baseline ISA instead (e.g. to ship a binary).
let portable = ProcessInfo.processInfo.environment["RASTERBENCH_PORTABLE"] == "1"
#if arch(x86_64)
let nativeCPU = !portable
#else
let nativeCPU = false
#endif

// -fno-math-errno: Swift's Float.squareRoot() goes through C's sqrtf, and
// with errno semantics LLVM keeps it scalar (a vsqrtss plus a libcall for
// negative inputs) instead of one vsqrtps per vector. Nothing here reads errno.
let swiftCodegen: [SwiftSetting] = [.unsafeFlags(
    ["-Xcc", "-fno-math-errno"] + (nativeCPU ? ["-Xcc", "-march=native"] : []))]

var cFlags: [String] = ["-O3", "-std=c11", "-ffp-contract=fast", "-fno-math-errno"]
if nativeCPU { cFlags.append("-march=native") }
var cLinker: [LinkerSetting] = [.linkedLibrary("m")]
if let omp = openMP {
    cFlags += ["-fopenmp", "-I\(omp.include)"]
    cLinker += [
        .unsafeFlags(["-L\(omp.lib)", "-Xlinker", "-rpath", "-Xlinker", omp.lib]),
        .linkedLibrary("omp"),
    ]
}

let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "RasterBench",
    // Synchronization (the simd pool's atomics) needs macOS 15; Linux has it.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RasterKit", targets: ["RasterKit"]),
        // For the fuzz package (Fuzz/), which depends on this one by path.
        .library(name: "RasterReference", targets: ["RasterReference"]),
        // Wisdom (`choose --save`) and the quality/time front, for apps that load them.
        .library(name: "RasterHarness", targets: ["RasterHarness"]),
        .executable(name: "rasterbench", targets: ["rasterbench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Counts malloc calls in HarnessTests, to prove the timed loop allocates nothing.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        // The HTML report's document (escaped text, well-formed elements).
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "CRasterOMP",
            path: "Sources/CRasterOMP",
            cSettings: [.unsafeFlags(cFlags)],
            linkerSettings: cLinker
        ),
        // Temporary output files: exclusive creation and a signal-safe
        // registry that removes them when the process is interrupted.
        .target(name: "CSafeFile", path: "Sources/CSafeFile"),
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // PNG reading through libpng's classic interface (see cpng_read.h).
        .target(
            name: "CPNGRead",
            dependencies: ["CPNG"],
            path: "Sources/CPNGRead",
            cSettings: [.unsafeFlags(["-O2", "-std=c11"])]
        ),
        // Animated WebP output: libwebpmux's WebPAnimEncoder on libwebp's
        // encoder (libwebpmux.pc requires libwebp); libwebpdemux for reading back.
        .systemLibrary(
            name: "CWebP",
            path: "Sources/CWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .target(
            name: "RasterKit",
            dependencies: ["CRasterOMP", "CSafeFile", "CPNG", "CPNGRead", "CWebP"],
            path: "Sources/RasterKit",
            swiftSettings: swift5 + swiftCodegen
        ),
        .target(
            name: "RasterReference",
            dependencies: ["RasterKit"],
            path: "Sources/RasterReference",
            swiftSettings: swift5
        ),
        // Records the checkout's git commit in the build (Plugins/BuildCommit).
        .plugin(name: "BuildCommit", capability: .buildTool(), path: "Plugins/BuildCommit"),
        .target(
            name: "RasterHarness",
            dependencies: ["RasterKit", "RasterReference"],
            path: "Sources/RasterHarness",
            swiftSettings: swift5,
            plugins: ["BuildCommit"]
        ),
        // Evaluation code for the runtime governor (the Unreal-style reference
        // heuristic, frame-time traces, simulators): linked by the tests and
        // the benchmark only, never part of the library's API.
        .target(
            name: "GovernorLab",
            dependencies: ["RasterKit", "RasterHarness"],
            path: "Sources/GovernorLab",
            swiftSettings: swift5
        ),
        // `rasterbench report`: one self-contained HTML page of SVG charts and rendered scenes.
        .target(
            name: "RasterReport",
            dependencies: ["RasterKit", "RasterHarness", .product(name: "Plot", package: "Plot")],
            path: "Sources/RasterReport",
            swiftSettings: swift5
        ),
        .executableTarget(
            name: "rasterbench",
            dependencies: [
                "RasterKit", "RasterReference", "RasterHarness", "GovernorLab", "RasterReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/rasterbench",
            swiftSettings: swift5
        ),
        .testTarget(
            name: "RasterKitTests",
            dependencies: ["RasterKit", "RasterReference"],
            path: "Tests/RasterKitTests",
            swiftSettings: swift5
        ),
        // Test support: the malloc counter the allocation tests share.
        .target(
            name: "TestSupport",
            dependencies: [.product(name: "MallocInterposerSwift", package: "malloc-interposer")],
            path: "Tests/Support",
            swiftSettings: swift5
        ),
        .testTarget(
            name: "HarnessTests",
            dependencies: ["RasterKit", "RasterReference", "RasterHarness", "RasterReport", "TestSupport"],
            path: "Tests/HarnessTests",
            exclude: ["Fixtures"],
            swiftSettings: swift5
        ),
        .testTarget(
            name: "GovernorTests",
            dependencies: ["RasterKit", "RasterHarness", "GovernorLab", "TestSupport"],
            path: "Tests/GovernorTests",
            swiftSettings: swift5
        ),
        .testTarget(
            name: "CLITests",
            // RasterReport and RasterHarness: the report's page built in
            // process, to hold it to what the `choose` executable prints.
            dependencies: ["rasterbench", "RasterReport", "RasterHarness"],
            path: "Tests/CLITests",
            swiftSettings: swift5
        ),
        // The host's code generation, as RasterKit's: these tests call the C
        // kernels' inline 8-lane helpers (raster_pack8.h) directly, and
        // without it they would test the portable fallbacks instead of the
        // AVX2 code both backends run.
        .testTarget(
            name: "CrossBackendTests",
            dependencies: ["RasterKit", "RasterReference", "RasterHarness", "CRasterOMP"],
            path: "Tests/CrossBackendTests",
            swiftSettings: swift5 + swiftCodegen
        ),
    ]
)
