import Foundation
import XCTest
import TestSupport
import RasterKit
import RasterHarness

/// The soak: every scene rendered frame after frame on every
/// backend, as an app animates it (a job per frame, prepared, drawn into one
/// reused canvas), with the process's resident memory read at the start and
/// at the end, and the allocations of the last frames counted.
///
/// Its length and size come from the environment, so that one test serves
/// the normal suite (a few frames), CI's release soak (scripts/soak.sh, 300
/// frames) and the full documented soak (10,000 frames, Results/studies/soak/):
/// - RASTERBENCH_SOAK_FRAMES  frames per scene and backend (default 6)
/// - RASTERBENCH_SOAK_SIZE    canvas WIDTHxHEIGHT in pixels (default 48x80,
///                            iphone-6's aspect; scale and fps from iphone-6)
/// - RASTERBENCH_SOAK_THREADS threads of simd and openmp (default 2: the
///                            default profile's cores)
final class SoakTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        MallocCounter.initialize()
    }

    static func env(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

    /// The memory the soak watches, in KiB (Linux; nil elsewhere): VmRSS,
    /// or under a sanitizer its allocator's live bytes. Under ASan resident
    /// memory measures ASan's own allocator (freed blocks wait in its
    /// quarantine, up to 256 MB, and shadow pages follow): CI's ASan stage
    /// saw VmRSS +6.1 MiB over a soak whose plain run grew +0.2 MiB.
    static func memoryKiB() -> Int? {
        if let live = sanitizerAllocatedBytes { return live() / 1024 }
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    static var memoryLabel: String { sanitizerAllocatedBytes == nil ? "VmRSS" : "live heap (sanitizer allocator)" }

    /// `__sanitizer_get_current_allocated_bytes` when a sanitizer runtime is
    /// loaded (sanitizer/allocator_interface.h), looked up at run time.
    static let sanitizerAllocatedBytes: (@convention(c) () -> Int)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__sanitizer_get_current_allocated_bytes") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int).self)
    }()

    /// Resident memory may grow this much over a soak (KiB): malloc's arenas
    /// and the Swift runtime's caches settle after the first frames, which
    /// the warm-up covers; a leak of even 1 KB a frame exceeds this within
    /// 10,000 frames, and a leak of a canvas (15 KB at the default size)
    /// within 300.
    static let growthBoundKiB = 4096

    func testEverySceneOnEveryBackendHoldsMemoryFlat() throws {
        let frames = Int(Self.env("RASTERBENCH_SOAK_FRAMES") ?? "") ?? 6
        let threads = Int(Self.env("RASTERBENCH_SOAK_THREADS") ?? "") ?? 2
        let sizeText = Self.env("RASTERBENCH_SOAK_SIZE") ?? "48x80"
        let wh = sizeText.split(separator: "x").compactMap { Int($0) }
        guard frames >= 2, threads >= 1, wh.count == 2 else {
            return XCTFail("bad soak settings: RASTERBENCH_SOAK_FRAMES=\(frames) (>= 2), THREADS=\(threads), SIZE=\(sizeText)")
        }
        let profile = DeviceProfile.default
        let canvas = try SceneCanvas(width: wh[0], height: wh[1], scale: profile.scale, fps: profile.fps)
        // Counting is meaningful only in optimised code (-Onone allocates
        // for iterators and generics), only where the interposer works, and
        // only after 20 frames of each scene: scratch whose size follows
        // the frame grows over a scene's first frames (a release run of the
        // 6-frame default counted 9 mallocs, all freed, in mesh naive's
        // frames 1-5). So a soak of fewer than 200 frames counts none.
        let warmup = max(1, min(20, frames / 10))
        let tail = min(20, frames - warmup)
        let counting = BuildInfo.isOptimized && MallocCounter.isInterposing && warmup >= 20
        let start = Date()
        let startRSS = Self.memoryKiB()
        // Every backend and scene once before the whole-soak baseline: the
        // first use of a backend starts its worker threads or OpenMP team
        // (stacks, libomp's own tables), a one-time step of ~1-4 MiB that is
        // not growth. Per-backend growth is measured after its own warm-up.
        for kind in BackendKind.allCases {
            let backend = try kind.make(threads: kind == .naive ? 1 : threads)
            let renderer = try SceneVariant.exact.makeRenderer(backend: backend)
            let image = try Image(width: canvas.width, height: canvas.height)
            for scene in SceneCatalog.all {
                let instance = try scene.init(options: SceneOptions(), canvas: canvas)
                try renderer.render(renderer.prepare(instance.job(frame: 0)), into: image)
            }
        }
        var firstRSS: Int? = Self.memoryKiB()
        var lines: [String] = []
        for kind in BackendKind.allCases {
            let backend = try kind.make(threads: kind == .naive ? 1 : threads)
            let renderer = try SceneVariant.exact.makeRenderer(backend: backend)
            let image = try Image(width: canvas.width, height: canvas.height)
            for scene in SceneCatalog.all {
                let info = scene.info
                let instance = try scene.init(options: SceneOptions(), canvas: canvas)
                var rssAfterWarmup = 0
                var net = 0, drawMallocs = 0
                let t0 = Date()
                for f in 0..<frames {
                    let frame = f % info.cycle
                    if counting && f >= frames - tail {
                        // Drawing only (the job and its preparation allocate
                        // by design): it must allocate nothing at one thread
                        // and give back in the frame whatever the thread
                        // hand-off takes at more.
                        let prepared = try renderer.prepare(instance.job(frame: frame))
                        let drawn = try MallocCounter.count { try renderer.render(prepared, into: image) }
                        drawMallocs += drawn.mallocs
                        net += drawn.mallocs - drawn.frees
                    } else {
                        try renderer.render(renderer.prepare(instance.job(frame: frame)), into: image)
                    }
                    if f == warmup - 1 { rssAfterWarmup = Self.memoryKiB() ?? 0 }
                }
                let rssEnd = Self.memoryKiB() ?? 0
                if firstRSS == nil { firstRSS = rssAfterWarmup }
                let ms = Date().timeIntervalSince(t0) * 1000 / Double(frames)
                let growth = rssEnd - rssAfterWarmup
                var line = "\(info.name) \(kind.rawValue)@\(backend.threads): \(frames) frames, "
                    + String(format: "%.2f ms/frame", ms) + ", \(Self.memoryLabel) \(rssAfterWarmup) -> \(rssEnd) KiB (\(growth >= 0 ? "+" : "")\(growth))"
                if counting {
                    line += String(format: ", draw mallocs %.2f/frame, draw net %d over %d frames",
                                   Double(drawMallocs) / Double(tail), net, tail)
                }
                lines.append(line)
                print("soak: " + line)
                XCTAssertLessThanOrEqual(growth, Self.growthBoundKiB, "memory grew: \(line)")
                if counting {
                    XCTAssertLessThanOrEqual(net, 0, "drawing retained allocations: \(line)")
                    if backend.threads == 1 {
                        XCTAssertEqual(drawMallocs, 0, "drawing allocated at one thread: \(line)")
                    }
                }
            }
        }
        let endRSS = Self.memoryKiB() ?? 0
        let whole = endRSS - (firstRSS ?? startRSS ?? 0)
        print("soak: \(SceneCatalog.all.count) scenes x \(BackendKind.allCases.count) backends x \(frames) frames at "
              + "\(canvas.width)x\(canvas.height), threads \(threads): \(Self.memoryLabel) \(startRSS ?? 0) KiB at start, "
              + "\(firstRSS ?? 0) after warming every backend, \(endRSS) at the end (\(whole >= 0 ? "+" : "")\(whole)); "
              + String(format: "%.0f s", Date().timeIntervalSince(start)) + (counting ? "" : "; mallocs not counted (debug build, no interposer, or under 200 frames)"))
        XCTAssertLessThanOrEqual(whole, Self.growthBoundKiB, "memory grew over the whole soak")
    }
}
