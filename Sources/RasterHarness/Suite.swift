import RasterKit

/// What one kernel or scene contributes to the suite. Adding a kernel is
/// one file that builds its workloads (see SuiteFreeform.swift for the
/// pattern) and one line in `Suite.entries`.
public struct SuiteEntry {
    /// The command-line name (`--kernels freeform,blur`, `--scenes aurora`).
    public var name: String
    public var isScene: Bool
    public var summary: String
    /// False for workloads without a frame (K5 works on anchors), which the
    /// size sweep skips.
    public var hasFrame: Bool
    /// The workloads for one backend, thread count and frame size (a
    /// fixture that cannot be built at that size throws).
    public var workloads: (SuiteRequest) throws -> [Workload]
    /// For the sigma sweep (blur only): the workloads at one sigma.
    public var atSigma: ((SuiteRequest, Double) throws -> [Workload])?

    public init(name: String, isScene: Bool = false, summary: String, hasFrame: Bool = true,
                workloads: @escaping (SuiteRequest) throws -> [Workload],
                atSigma: ((SuiteRequest, Double) throws -> [Workload])? = nil) {
        self.name = name; self.isScene = isScene; self.summary = summary; self.hasFrame = hasFrame
        self.workloads = workloads; self.atSigma = atSigma
    }
}

/// The coordinates of one batch of workloads.
public struct SuiteRequest {
    public var backend: BackendKind
    /// Threads the backend will really use (see `Suite.effectiveThreads`).
    public var threads: Int
    public var width: Int
    public var height: Int
    public var profile: DeviceProfile
    /// Sweeps time only each kernel's exact variant(s), to keep them affordable.
    public var exactOnly: Bool
    /// Quality needs a double-precision reference of the whole frame; sweeps skip it.
    public var withQuality: Bool

    public func makeBackend() throws -> any RasterBackend { try backend.make(threads: threads) }

    /// A workload with this request's coordinates filled in.
    public func workload(kernel: String, variant: String, items: Int? = nil,
                         make: @escaping () throws -> WorkloadInstance) -> Workload {
        Workload(kernel: kernel, variant: variant, backend: backend, threads: threads,
                 width: width, height: height, items: items, make: make)
    }
}

public enum Suite {
    /// Every kernel and scene the suite knows, in report order. A scene's
    /// body draws the next of frames spread over its cycle per run, so its
    /// samples are per-frame times over the cycle (SuiteScenes.swift).
    public static var entries: [SuiteEntry] {
        [freeform, linear, radial, fill, composite, blur, controlPoints, mesh] + scenes
    }

    /// The threads a backend really runs: naive is single-threaded by
    /// definition, the C backend built without OpenMP too.
    public static func effectiveThreads(_ backend: BackendKind, requested: Int) -> Int {
        switch backend {
        case .naive: return 1
        case .openmp: return OpenMPBackend.isParallel ? requested : 1
        case .simd: return requested
        }
    }

    /// Picks entries by name; nil selects all of that kind. Unknown names
    /// are an error listing the accepted ones.
    public static func select(kernels: [String]?, scenes: [String]?) throws -> [SuiteEntry] {
        let all = entries
        func pick(_ names: [String]?, scene: Bool, parameter: String) throws -> [SuiteEntry] {
            let pool = all.filter { $0.isScene == scene }
            guard let names else { return pool }
            if names == ["all"] { return pool }
            if names == ["none"] { return [] }
            return try names.map { n in
                guard let e = pool.first(where: { $0.name == n }) else {
                    let accepted = pool.map(\.name)
                    throw HarnessError.invalidArgument(name: parameter, value: "'\(n)'",
                                                       accepted: accepted.isEmpty ? "none exist yet" : accepted.joined(separator: ", "))
                }
                return e
            }
        }
        // Naming only kernels (or only scenes) selects only those: `--kernels
        // blur` times the blur, not every scene besides.
        let (k, s) = (kernels == nil && scenes != nil ? [] : kernels, scenes == nil && kernels != nil ? [] : scenes)
        return try pick(k, scene: false, parameter: "kernels") + pick(s, scene: true, parameter: "scenes")
    }
}

/// The sweeps that show how cost grows with one parameter.
public enum SweepKind: String, CaseIterable, Sendable, Codable {
    /// Frame sizes from 64x64 to the largest profile: cost per pixel should be flat.
    case size
    /// Blur sigma 1...256: an O(1) variant stays flat, an O(sigma) one climbs.
    case sigma

    public static func parse(_ list: String) throws -> Set<SweepKind> {
        var out = Set<SweepKind>()
        for part in list.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if part == "all" { out.formUnion(SweepKind.allCases); continue }
            guard let k = SweepKind(rawValue: part) else {
                throw HarnessError.invalidArgument(name: "sweep", value: "'\(RasterError.escaped(part))'",
                                                   accepted: (SweepKind.allCases.map(\.rawValue) + ["all"]).joined(separator: ", "))
            }
            out.insert(k)
        }
        return out
    }

    /// Square sizes doubling from 64, then the largest profile's frame.
    public static var sizes: [(Int, Int)] {
        [(64, 64), (128, 128), (256, 256), (512, 512), (1024, 1024),
         (DeviceProfile.largest.width, DeviceProfile.largest.height)]
    }

    /// Powers of two from 1 to 256 px (docs/contract.md §2.3: sigma up to at least 256 works).
    public static let sigmas: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
}

/// Everything `run` decides before measuring: which workloads, in what order.
public struct SuitePlan {
    public var profile: DeviceProfile
    public var backends: [BackendKind]
    /// One or more thread counts; the suite runs at each (naive once).
    public var threads: [Int]
    public var entries: [SuiteEntry]
    public var sweeps: Set<SweepKind>
    /// Frame size, default the profile's.
    public var width: Int
    public var height: Int
    /// The sigma sweep's sigmas (`run --sigmas`).
    public var sigmas: [Double] = SweepKind.sigmas

    public init(profile: DeviceProfile, backends: [BackendKind], threads: [Int], entries: [SuiteEntry],
                sweeps: Set<SweepKind> = [], width: Int? = nil, height: Int? = nil) {
        self.profile = profile; self.backends = backends; self.threads = threads
        self.entries = entries; self.sweeps = sweeps
        self.width = width ?? profile.width; self.height = height ?? profile.height
    }

    /// The workloads in run order: the suite at each thread count, then the sweeps.
    public func workloads() throws -> [Workload] {
        var out: [Workload] = []
        var seen = Set<String>()
        func add(_ ws: [Workload]) {
            for w in ws where seen.insert("\(w.label) \(w.sweep?.rawValue ?? "")").inserted { out.append(w) }
        }
        func requests(width: Int, height: Int, threadCounts: [Int], exactOnly: Bool, quality: Bool) -> [SuiteRequest] {
            var rs: [SuiteRequest] = []
            for b in backends {
                var counts: [Int] = []
                for t in threadCounts {
                    let e = Suite.effectiveThreads(b, requested: t)
                    if !counts.contains(e) { counts.append(e) }
                }
                for t in counts {
                    rs.append(SuiteRequest(backend: b, threads: t, width: width, height: height, profile: profile,
                                           exactOnly: exactOnly, withQuality: quality))
                }
            }
            return rs
        }
        for entry in entries {
            for r in requests(width: width, height: height, threadCounts: threads, exactOnly: false, quality: true) {
                add(try entry.workloads(r))
            }
        }
        let sweepThreads = [threads.max() ?? 1]
        if sweeps.contains(.size) {
            for entry in entries where entry.hasFrame {
                for (w, h) in SweepKind.sizes {
                    for r in requests(width: w, height: h, threadCounts: sweepThreads, exactOnly: true, quality: false) {
                        add(try entry.workloads(r).map { var x = $0; x.sweep = .size; x.reference = nil; return x })
                    }
                }
            }
        }
        if sweeps.contains(.sigma) {
            for entry in entries {
                guard let atSigma = entry.atSigma else { continue }
                for sigma in sigmas {
                    for r in requests(width: width, height: height, threadCounts: sweepThreads, exactOnly: false, quality: false) {
                        add(try atSigma(r, sigma).map { var x = $0; x.sweep = .sigma; x.reference = nil; return x })
                    }
                }
            }
        }
        return out
    }
}
