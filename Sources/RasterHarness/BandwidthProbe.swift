import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The physical limit a memory-bound kernel is held against: how fast this
/// host copies memory, measured in the same run as the kernels.
///
/// Convention: *traffic* counts the bytes read plus the bytes written, so a
/// copy of N bytes moves 2N. Kernels' `bytesPerRun` count the same way (K6
/// reads the source and the destination and writes the destination: 12
/// bytes per pixel), so `achieved / copy` is a fraction of what the memory
/// system delivered to the simplest possible loop. A fraction near 1 means
/// the kernel is memory-bound and done; far below 1 means arithmetic or
/// latency bound. Two sizes are probed: one frame (what the kernel touches,
/// often cache-resident) and a buffer larger than the last-level cache (DRAM).
public struct CopyBandwidth: Sendable, Codable, Equatable {
    /// "frame" or "dram".
    public var label: String
    /// Bytes copied per run (the buffer size).
    public var bytes: Int
    public var threads: Int
    /// Median traffic, bytes per second (2 * bytes / median time).
    public var bytesPerSecond: Double
    public var samples: Samples

    public var gigabytesPerSecond: Double { bytesPerSecond / 1e9 }
    /// Traffic of the fastest sample: the ceiling a floor divides by (a
    /// kernel's fastest sample is held against the best copy of the run,
    /// as the compute peak is the fastest FMA sample).
    public var fastestBytesPerSecond: Double { 2 * Double(bytes) / (samples.summary.min / 1e9) }

    public init(label: String, bytes: Int, threads: Int, bytesPerSecond: Double, samples: Samples) {
        self.label = label; self.bytes = bytes; self.threads = threads
        self.bytesPerSecond = bytesPerSecond; self.samples = samples
    }
}

public enum BandwidthProbe {
    /// The DRAM probe's buffer: twice the last-level cache so that at most
    /// half of it can be cache-resident, at least 64 MiB (when the cache size
    /// is unknown), at most 1 GiB (two such buffers must fit in memory).
    public static func dramBytes(lastLevelCache: Int) -> Int {
        let mib = 1 << 20
        return min(1024 * mib, max(64 * mib, 2 * lastLevelCache))
    }

    /// Times `memcpy` of `bytes` bytes, split into `threads` contiguous
    /// bands copied concurrently (one band inline when `threads` is 1).
    public static func measure(label: String, bytes: Int, threads: Int, settings: SamplerSettings) throws -> CopyBandwidth {
        let size = max(64, bytes)
        let src = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        let dst = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer { src.deallocate(); dst.deallocate() }
        // Touch every page first so page faults are not timed.
        memset(src, 0x5A, size)
        memset(dst, 0, size)
        let bands = max(1, threads)
        let copy: () -> Void = {
            if bands == 1 {
                memcpy(dst, src, size)
            } else {
                DispatchQueue.concurrentPerform(iterations: bands) { i in
                    // Band edges on 64-byte lines so no two threads share one.
                    let lo = (size * i / bands) & ~63
                    let hi = i == bands - 1 ? size : (size * (i + 1) / bands) & ~63
                    memcpy(dst + lo, src + lo, hi - lo)
                }
            }
        }
        let samples = try Sampler.measure(settings) { copy() }
        let median = samples.summary.median
        return CopyBandwidth(label: label, bytes: size, threads: bands,
                             bytesPerSecond: 2 * Double(size) / (median / 1e9), samples: samples)
    }
}

/// Copy bandwidths measured so far in a run, by (label, bytes, threads), so
/// each size and thread count is probed once; and the compute peak, probed
/// once: the two ceilings of a run's rows.
public final class BandwidthTable: @unchecked Sendable {
    public private(set) var results: [CopyBandwidth] = []
    public private(set) var peak: ComputePeak?
    let settings: SamplerSettings

    public init(settings: SamplerSettings) { self.settings = settings }

    public func frame(bytes: Int, threads: Int) throws -> CopyBandwidth {
        try lookup(label: "frame", bytes: bytes, threads: threads)
    }

    public func computePeak() throws -> ComputePeak {
        if let peak { return peak }
        let p = try ComputeProbe.measure(settings: settings)
        peak = p
        return p
    }

    public func dram(lastLevelCache: Int, threads: Int) throws -> CopyBandwidth {
        try lookup(label: "dram", bytes: BandwidthProbe.dramBytes(lastLevelCache: lastLevelCache), threads: threads)
    }

    private func lookup(label: String, bytes: Int, threads: Int) throws -> CopyBandwidth {
        if let r = results.first(where: { $0.label == label && $0.bytes == max(64, bytes) && $0.threads == threads }) { return r }
        let r = try BandwidthProbe.measure(label: label, bytes: bytes, threads: threads, settings: settings)
        results.append(r)
        return r
    }
}
