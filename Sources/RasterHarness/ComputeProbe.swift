import CRasterOMP

/// The compute ceiling a kernel is held against: the floating-point
/// operations one core of this build retires per second, measured in the
/// same run as the kernels (as `BandwidthProbe` measures the memory one).
///
/// The probe is a loop of independent float multiply-adds on the widest
/// vector the build targets (`raster_fma_probe`, in C so that it is
/// vectorised as the C kernels are; `lanes` floats a vector).
/// The ceiling is the fastest sample's rate, not the median's: a ceiling
/// is what the core can do, and on a shared host every slower sample is
/// time the core spent on something else. A multiply-add counts as two
/// operations.
public struct ComputePeak: Sendable, Codable, Equatable {
    /// Floating-point operations per second on one core.
    public var flopsPerSecond: Double
    public var samples: Samples

    public var gigaflopsPerSecond: Double { flopsPerSecond / 1e9 }
    /// Floats per vector of the probe: 16 with AVX-512, else 8.
    public static var lanes: Int { Int(raster_fma_probe_lanes()) }

    public init(flopsPerSecond: Double, samples: Samples) {
        self.flopsPerSecond = flopsPerSecond
        self.samples = samples
    }
}

public enum ComputeProbe {
    /// Rounds per probe run: about 0.1-1 ms on a current core, long enough
    /// that the call costs nothing and short enough for many samples.
    static let iterations = 100_000

    public static func measure(settings: SamplerSettings) throws -> ComputePeak {
        // An opaque C call: Swift cannot drop it, and the C function
        // returns its accumulators' sum so its own compiler keeps the loop.
        let samples = try Sampler.measure(settings) { _ = raster_fma_probe(iterations, 1) }
        let flops = Double(raster_fma_probe_flops(iterations))
        return ComputePeak(flopsPerSecond: flops / (samples.summary.min / 1e9), samples: samples)
    }
}
