import Foundation
import RasterKit

/// What `choose --save` keeps (as FFTW keeps its wisdom): the fronts and
/// the choices of one profile, with the host and build that measured them.
///
/// Times belong to the host and the build that took them, and choices to
/// the profile and budget they were made for, so wisdom is checked before
/// use: `check(against:)` lists every difference, `validated(against:)`
/// throws them. Nothing here silently uses stale or foreign wisdom.
public struct Wisdom: Sendable, Codable, Equatable {
    /// The layout of this file; bumped when old files can no longer be read.
    public static let formatVersion = 1

    public var format = Wisdom.formatVersion
    public var suiteVersion = SuiteVersion.current
    /// ISO 8601, UTC, when the choices were made.
    public var date: String
    public var host: Host
    public var build: Build
    public var profile: DeviceProfile
    /// The threads the options were measured at most (the profile's cores
    /// capped by the host's).
    public var measuredThreads: Int?
    public var fps: Double
    public var share: Double
    public var headroom: Double
    public var minPSNR: Double?
    public var threads: Int?
    public var fronts: [QualityFront]
    public var choices: [Choice]

    /// The machine the times were taken on.
    public struct Host: Sendable, Codable, Equatable {
        public var cpu: String
        public var cores: Int
        public var os: String
        public var hostname: String

        public init(cpu: String, cores: Int, os: String, hostname: String = "") {
            self.cpu = cpu; self.cores = cores; self.os = os; self.hostname = hostname
        }

        public init(_ h: HostInfo) { self.init(cpu: h.cpuModel, cores: h.cores, os: h.os, hostname: h.hostname) }

        /// The host a report row was measured on.
        public init(row r: ReportRow) { self.init(cpu: r.hostCPU, cores: r.hostCores, os: r.os, hostname: r.host) }
    }

    /// The binary that took them (BuildInfo and the checkout's commit).
    public struct Build: Sendable, Codable, Equatable {
        public var commit: String
        public var flags: String
        public var optimized: Bool
        public var openMP: Bool
        public var swiftVersion: String

        public init(commit: String, flags: String, optimized: Bool, openMP: Bool, swiftVersion: String) {
            self.commit = commit; self.flags = flags; self.optimized = optimized
            self.openMP = openMP; self.swiftVersion = swiftVersion
        }

        public init(_ h: HostInfo) {
            self.init(commit: h.gitCommit, flags: h.compilerFlags, optimized: h.optimized, openMP: h.openMP,
                      swiftVersion: h.swiftVersion)
        }

        /// The build a report row was measured with.
        public init(row r: ReportRow) {
            self.init(commit: r.gitCommit, flags: r.compilerFlags, optimized: r.optimized, openMP: r.openMP,
                      swiftVersion: r.swiftVersion)
        }
    }

    public init(date: String, host: Host, build: Build, profile: DeviceProfile, measuredThreads: Int? = nil,
                budget: Budget, headroom: Double, minPSNR: Double? = nil, threads: Int? = nil,
                fronts: [QualityFront], choices: [Choice]) {
        self.date = date; self.host = host; self.build = build; self.profile = profile
        self.measuredThreads = measuredThreads; self.fps = budget.fps; self.share = budget.share
        self.headroom = headroom; self.minPSNR = minPSNR; self.threads = threads
        self.fronts = fronts; self.choices = choices
    }

    // MARK: - Files

    public func encoded() throws -> Data { try JSONOutput.encode(self) }

    public func save(to url: URL) throws {
        try AtomicFile.write(String(decoding: try encoded(), as: UTF8.self), toPath: url.path, createDirectory: true)
    }

    /// The most a wisdom file may hold, checked before it is read (its
    /// size) and while it is parsed (its values): a real one (every row of a
    /// few-hundred-row report on its fronts) is a few hundred kilobytes,
    /// and an unbounded one (280k choices) took 1 GB.
    public static let limits = StrictJSON.Limits(maxValues: 1_000_000, maxDepth: 32)
    public static let maxBytes = 16 << 20

    public static func decode(_ data: Data, path: String = "<wisdom>") throws -> Wisdom {
        // Strictly first: JSONDecoder keeps one value of a duplicated key
        // silently, gives no position, and builds whatever it is given.
        guard data.count <= maxBytes else {
            throw WisdomError.unreadable(path: path, reason: "is \(data.count) bytes, more than the \(maxBytes) accepted")
        }
        do { try StrictJSON.validate(data, limits: limits) } catch {
            switch error {
            case let .syntax(line, column, reason):
                throw WisdomError.unreadable(path: "\(path):\(line):\(column)", reason: "not valid JSON (\(reason))")
            case let .duplicateKey(key, line, column):
                throw WisdomError.unreadable(path: path, reason: "\(key): duplicate key (again at line \(line), column \(column))")
            case let .tooLarge(line, column, reason):
                throw WisdomError.unreadable(path: "\(path):\(line):\(column)", reason: "\(reason), the most a wisdom file may hold")
            }
        }
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        // The format first, so a future file says so instead of failing on a field.
        struct Header: Decodable { var format: Int? }
        guard let header = try? d.decode(Header.self, from: data) else {
            throw WisdomError.unreadable(path: path, reason: "not a JSON object")
        }
        guard header.format == Wisdom.formatVersion else {
            throw WisdomError.unreadable(path: path, reason: "wisdom format \(header.format.map(String.init) ?? "missing"), this build reads \(Wisdom.formatVersion)")
        }
        do { return try d.decode(Wisdom.self, from: data) } catch let e as DecodingError {
            throw WisdomError.unreadable(path: path, reason: Wisdom.describe(e))
        }
    }

    public static func load(from url: URL) throws -> Wisdom {
        let data: Data
        // Only a regular file, no larger than `maxBytes`: InputFile says why not.
        do { data = try InputFile.read(url.path, limit: maxBytes) } catch let RasterError.io(_, reason) {
            throw WisdomError.unreadable(path: url.path, reason: reason)
        }
        return try decode(data, path: url.path)
    }

    static func describe(_ e: DecodingError) -> String {
        switch e {
        case let .keyNotFound(key, ctx): return "missing field '\((ctx.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case let .typeMismatch(_, ctx), let .valueNotFound(_, ctx), let .dataCorrupted(ctx):
            return "bad value at '\(ctx.codingPath.map(\.stringValue).joined(separator: "."))'"
        @unknown default: return "does not decode"
        }
    }

    // MARK: - Checking

    /// Every way this wisdom differs from the host, build and profile it
    /// would be used on; empty when it applies. The hostname is not
    /// compared (containers rename hosts); the CPU, cores and OS are.
    public func check(host: Host, build: Build, profile: String) -> [WisdomMismatch] {
        var out: [WisdomMismatch] = []
        if suiteVersion != SuiteVersion.current { out.append(.suiteVersion(saved: suiteVersion, current: SuiteVersion.current)) }
        if self.profile.name != profile { out.append(.profile(saved: self.profile.name, current: profile)) }
        if self.host.cpu != host.cpu { out.append(.host(field: "cpu", saved: self.host.cpu, current: host.cpu)) }
        if self.host.cores != host.cores { out.append(.host(field: "cores", saved: "\(self.host.cores)", current: "\(host.cores)")) }
        if self.host.os != host.os { out.append(.host(field: "os", saved: self.host.os, current: host.os)) }
        if self.build.commit != build.commit { out.append(.build(field: "commit", saved: self.build.commit, current: build.commit)) }
        if self.build.flags != build.flags { out.append(.build(field: "flags", saved: self.build.flags, current: build.flags)) }
        if self.build.optimized != build.optimized {
            out.append(.build(field: "optimized", saved: "\(self.build.optimized)", current: "\(build.optimized)"))
        }
        if self.build.openMP != build.openMP { out.append(.build(field: "openmp", saved: "\(self.build.openMP)", current: "\(build.openMP)")) }
        if self.build.swiftVersion != build.swiftVersion {
            out.append(.build(field: "swift", saved: self.build.swiftVersion, current: build.swiftVersion))
        }
        return out
    }

    /// `check` against this process's host and build.
    public func check(profile: String, host: HostInfo = .current()) -> [WisdomMismatch] {
        check(host: Host(host), build: Build(host), profile: profile)
    }

    /// This wisdom, or a `WisdomError.mismatch` listing why it does not apply.
    public func validated(host: Host, build: Build, profile: String) throws -> Wisdom {
        let m = check(host: host, build: build, profile: profile)
        guard m.isEmpty else { throw WisdomError.mismatch(m) }
        return self
    }

    public func validated(profile: String, host: HostInfo = .current()) throws -> Wisdom {
        try validated(host: Host(host), build: Build(host), profile: profile)
    }

    // MARK: - Using it

    /// The choice for a scene or kernel ("fill shape=blob" for a kernel
    /// with parameters: `Choice.name`).
    public func choice(for target: String) throws -> Choice {
        guard let c = choices.first(where: { $0.name == target }) ?? choices.first(where: { $0.target == target && $0.param.isEmpty }) else {
            throw WisdomError.noChoice(target: target, known: choices.map(\.name))
        }
        return c
    }

    /// The option chosen for `target`; when nothing fitted, the fastest one
    /// only if `orFastest` (otherwise `WisdomError.nothingFits`).
    public func option(for target: String, orFastest: Bool = false) throws -> FrontOption {
        let c = try choice(for: target)
        if let chosen = c.chosen { return chosen }
        if orFastest, let f = c.fastest { return f }
        throw WisdomError.nothingFits(target: target, missByMs: c.missByMs)
    }

    /// A renderer configured as wisdom chose for the scene: its backend and
    /// thread count, kernel variants and render scale. Check the wisdom
    /// (`validated`) first; this does not.
    public func renderer(for scene: String, orFastest: Bool = false) throws -> Renderer {
        try Wisdom.renderer(for: try option(for: scene, orFastest: orFastest))
    }

    /// The renderer an option describes.
    public static func renderer(for option: FrontOption) throws -> Renderer {
        let backend = try option.backend.make(threads: option.threads)
        return try SceneVariant(option.variant, scale: option.scale).makeRenderer(backend: backend)
    }
}

/// One way saved wisdom does not apply here.
public enum WisdomMismatch: Sendable, Equatable, CustomStringConvertible {
    case host(field: String, saved: String, current: String)
    case build(field: String, saved: String, current: String)
    case profile(saved: String, current: String)
    case suiteVersion(saved: String, current: String)

    public var description: String {
        switch self {
        case let .host(f, s, c): return "other host: \(f) '\(s)' in the wisdom, '\(c)' here"
        case let .build(f, s, c): return "other build: \(f) '\(s)' in the wisdom, '\(c)' here"
        case let .profile(s, c): return "other profile: wisdom for '\(s)', asked for '\(c)'"
        case let .suiteVersion(s, c): return "other suite version: \(s) in the wisdom, \(c) here"
        }
    }
}

public enum WisdomError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Stale or foreign wisdom: every difference found.
    case mismatch([WisdomMismatch])
    case noChoice(target: String, known: [String])
    case nothingFits(target: String, missByMs: Double?)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): \(reason)"
        case let .mismatch(m): return "wisdom does not apply here: " + m.map(\.description).joined(separator: "; ")
        case let .noChoice(t, known): return "no choice for '\(t)' in the wisdom (it has: \(known.joined(separator: ", ")))"
        case let .nothingFits(t, miss):
            return "nothing fitted the budget for '\(t)'" + (miss.map { " (the fastest missed by \(NumberFormat.decimal($0, significant: 3)) ms)" } ?? "")
        }
    }
}
