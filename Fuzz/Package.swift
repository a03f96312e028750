// swift-tools-version:6.0
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer) for RasterBench's input parsers
// and a differential fill target. A package of its own, depending on the
// main one by path, so that `swift build` of the product never compiles
// them and the fuzzer's instrumentation never reaches the product.
// Build and run: scripts/fuzz.sh (it builds with
// `swift build -c release --sanitize=fuzzer --sanitize=address`).
// Each target is one file that is not `main.swift`, so SwiftPM compiles it
// as a library (-parse-as-library) and libFuzzer supplies `main`; the entry
// point is `@_cdecl("LLVMFuzzerTestOneInput")`.

let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "RasterBenchFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RasterBench", path: "..")],
    targets: [
        .executableTarget(name: "FuzzPathParser",
                          dependencies: [.product(name: "RasterKit", package: "RasterBench")],
                          swiftSettings: swift5),
        .executableTarget(name: "FuzzJobDecoder",
                          dependencies: [.product(name: "RasterKit", package: "RasterBench")],
                          swiftSettings: swift5),
        .executableTarget(name: "FuzzPNGReader",
                          dependencies: [.product(name: "RasterKit", package: "RasterBench")],
                          swiftSettings: swift5),
        .executableTarget(name: "FuzzReportCSV",
                          dependencies: [.product(name: "RasterHarness", package: "RasterBench")],
                          swiftSettings: swift5),
        .executableTarget(name: "FuzzFillDifferential",
                          dependencies: [.product(name: "RasterKit", package: "RasterBench"),
                                         .product(name: "RasterReference", package: "RasterBench")],
                          swiftSettings: swift5),
    ]
)
