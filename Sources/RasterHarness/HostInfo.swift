import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What measured a report: a time without its host is a rumour.
public struct HostInfo: Sendable, Codable, Equatable {
    public var hostname: String
    public var cpuModel: String
    /// Cores the OS lets this process use.
    public var cores: Int
    public var os: String
    public var swiftVersion: String
    /// Last-level cache size in bytes, 0 if unknown.
    public var lastLevelCacheBytes: Int
    /// Vector extensions the CPU reports (x86: avx2, avx512f, fma; arm: asimd).
    public var cpuFeatures: String
    /// `git rev-parse --short=12 HEAD` of the checkout this binary was built
    /// from, "-dirty" when tracked files had uncommitted changes, "unknown"
    /// when built outside a checkout (RASTERBENCH_GIT_COMMIT at build time
    /// names it then).
    public var gitCommit: String
    public var optimized: Bool
    public var build: String
    public var compilerFlags: String
    public var openMP: Bool

    public static func current() -> HostInfo {
        let cpu = HostInfo.cpuInfo()
        return HostInfo(
            hostname: ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host",
            cpuModel: cpu.model,
            cores: ProcessInfo.processInfo.activeProcessorCount,
            os: HostInfo.osDescription(),
            swiftVersion: HostInfo.swiftVersion,
            lastLevelCacheBytes: HostInfo.lastLevelCache(),
            cpuFeatures: cpu.features,
            gitCommit: HostInfo.buildCommit,
            optimized: BuildInfo.isOptimized,
            build: BuildInfo.configuration,
            compilerFlags: BuildInfo.compilerFlags,
            openMP: BuildInfo.openMP)
    }

    /// The 1-minute load average (runnable processes), nil where unavailable.
    /// A benchmark on a host whose load exceeds its cores measures contention.
    public static func loadAverage() -> Double? {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 1) == 1 ? loads[0] : nil
    }

    /// The compiler that built this binary (decided at compile time).
    public static var swiftVersion: String {
        #if compiler(>=6.5)
        return "6.5+"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #elseif compiler(>=6.0)
        return "6.0"
        #else
        return "5.x"
        #endif
    }

    static func cpuInfo() -> (model: String, features: String) {
        let interesting = ["avx2", "avx512f", "fma", "asimd", "sve"]
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
            #if arch(arm64)
            return (sysctlString("machdep.cpu.brand_string") ?? "unknown", "asimd")
            #else
            return (sysctlString("machdep.cpu.brand_string") ?? "unknown", "")
            #endif
        }
        var model = "unknown", flags: [String] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if model == "unknown", parts[0] == "model name" || parts[0] == "Model" { model = parts[1] }
            if flags.isEmpty, parts[0] == "flags" || parts[0] == "Features" {
                let all = Set(parts[1].split(separator: " ").map(String.init))
                flags = interesting.filter { all.contains($0) }
            }
        }
        return (model, flags.joined(separator: " "))
    }

    static func sysctlString(_ name: String) -> String? {
        #if canImport(Darwin)
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var buf = [CChar](repeating: 0, count: size)
        guard sysctlbyname(name, &buf, &size, nil, 0) == 0 else { return nil }
        return String(cString: buf)
        #else
        return nil
        #endif
    }

    static func osDescription() -> String {
        var pretty = ""
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                pretty = String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        var u = utsname()
        uname(&u)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let kernel = "\(field(u.sysname)) \(field(u.release)) \(field(u.machine))"
        return pretty.isEmpty ? kernel : "\(pretty) (\(kernel))"
    }

    static func lastLevelCache() -> Int {
        // Linux exposes every cache level; the highest index is the last level.
        let base = "/sys/devices/system/cpu/cpu0/cache"
        var best = 0
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: base) {
            for e in entries where e.hasPrefix("index") {
                guard let s = try? String(contentsOfFile: "\(base)/\(e)/size", encoding: .utf8) else { continue }
                let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
                var bytes = Int(t.filter(\.isNumber)) ?? 0
                if t.hasSuffix("K") { bytes *= 1024 } else if t.hasSuffix("M") { bytes *= 1024 * 1024 }
                best = max(best, bytes)
            }
        }
        return best
    }

    /// The commit this binary was built from, recorded when it was built
    /// (Plugins/BuildCommit): the same wherever the binary runs, so the
    /// base build of an A/B names its own commit, not the new tree's.
    public static var buildCommit: String { BuildCommit.value }
}
