/// How long and how often to time one workload.
///
/// The rule is criterion's and ordo-one's: warm up (page faults, lazily grown
/// scratch buffers, cold caches and branch predictors all land there), then
/// take samples until *both* a minimum count and a minimum time are reached,
/// so a fast kernel gets many samples and a slow one still gets enough to
/// have a median and a spread, and never more than `maxTime` per workload.
public struct SamplerSettings: Sendable, Equatable, Codable {
    /// Warm-up lasts at least this long (seconds) and at least one run.
    public var warmupTime: Double
    /// Samples to take at least...
    public var minSamples: Int
    /// ...and seconds to spend sampling at least.
    public var minTime: Double
    /// Seconds after which sampling stops even if `minSamples` is not
    /// reached (but never before `floorSamples`).
    public var maxTime: Double
    /// A sample lasts at least this long (seconds): shorter runs are batched
    /// and timed together, so clock resolution and the cost of reading the
    /// clock stay below 0.1% of a sample.
    public var minSampleTime: Double
    /// At most this many samples: when they are taken before `minTime`,
    /// neighbours are folded into samples of twice the batch, so reports stay
    /// small (criterion keeps 100) and short runs are batched more instead.
    /// Storage is reserved up front so the timed loop never grows it.
    public var maxSamples: Int

    /// Fewest samples taken whatever the time (only runs longer than
    /// `maxTime` stop there): 3 for a full run, since a median of fewer is no
    /// median; `--quick` takes 1, which keeps a 16-second naive blur from
    /// taking a minute of a two-minute budget.
    public var floorSamples: Int

    public init(warmupTime: Double, minSamples: Int, minTime: Double, maxTime: Double,
                minSampleTime: Double = 50e-6, maxSamples: Int = 200, floorSamples: Int = 3) {
        self.floorSamples = floorSamples
        self.warmupTime = warmupTime
        self.minSamples = minSamples
        self.minTime = minTime
        self.maxTime = maxTime
        self.minSampleTime = minSampleTime
        self.maxSamples = maxSamples
    }

    /// The full run: 10 samples and 0.5 s at least, 4 s at most per workload.
    public static let standard = SamplerSettings(warmupTime: 0.1, minSamples: 10, minTime: 0.5, maxTime: 4)
    /// `--quick`: 5 samples and 0.1 s at least, 0.6 s at most. Enough for a
    /// median and a rough spread; not for a 2% verdict.
    public static let quick = SamplerSettings(warmupTime: 0.03, minSamples: 5, minTime: 0.1, maxTime: 0.6, floorSamples: 1)

    /// `quick` or `standard`, with at least `minSamples` samples when given.
    public static func make(quick: Bool, minSamples: Int?) throws -> SamplerSettings {
        var sampler = quick ? SamplerSettings.quick : SamplerSettings.standard
        if let minSamples {
            sampler.minSamples = minSamples
            try sampler.validate()
        }
        return sampler
    }

    public func validate() throws {
        guard minSamples >= 1, minSamples <= maxSamples else {
            throw HarnessError.invalidArgument(name: "minSamples", value: "\(minSamples)", accepted: "1...\(maxSamples)")
        }
        guard warmupTime >= 0, minTime >= 0, maxTime > 0, minSampleTime > 0 else {
            throw HarnessError.invalidArgument(name: "sampler times", value: "\(self)", accepted: "non-negative seconds")
        }
    }
}

/// The raw result of sampling one workload.
public struct Samples: Sendable, Codable, Equatable {
    /// Time of one iteration in each sample, nanoseconds (sample time / batch).
    public var nanoseconds: [Double]
    /// Iterations timed together in each sample.
    public var batch: Int
    /// Runs made before sampling started.
    public var warmupRuns: Int
    /// Wall time spent on warm-up and sampling, seconds.
    public var elapsed: Double

    public var summary: Summary { Summary(nanoseconds) }

    public init(nanoseconds: [Double], batch: Int, warmupRuns: Int, elapsed: Double) {
        self.nanoseconds = nanoseconds; self.batch = batch; self.warmupRuns = warmupRuns; self.elapsed = elapsed
    }
}

/// Times a closure: warm-up, calibration of the batch size, then samples.
///
/// The timed loop does nothing but call the body `batch` times between two
/// clock reads; the sample goes into memory reserved before the loop
/// (HarnessTests prove with a malloc counter that it allocates nothing).
public enum Sampler {
    public static func measure(_ settings: SamplerSettings, _ body: () throws -> Void) throws -> Samples {
        let start = MonotonicClock.now()

        let capacity = max(settings.maxSamples, settings.floorSamples + 1)
        let storage = UnsafeMutableBufferPointer<Double>.allocate(capacity: capacity)
        defer { storage.deallocate() }
        var count = 0

        // Warm-up: at least one run and `warmupTime`. A first run longer
        // than `maxTime` is kept as a sample instead: a run that long has no
        // cold start worth discarding, and repeating it costs the most.
        var warmupRuns = 0
        repeat {
            try body()
            warmupRuns += 1
        } while MonotonicClock.seconds(since: start) < settings.warmupTime
        let perRun = MonotonicClock.seconds(since: start) / Double(warmupRuns)
        if warmupRuns == 1 && perRun >= settings.maxTime {
            storage[0] = perRun * 1e9
            count = 1
            warmupRuns = 0
        }

        // Batch runs shorter than minSampleTime.
        var batch = max(1, Int((settings.minSampleTime / max(perRun, 1e-9)).rounded(.up)))
        let samplingStart = MonotonicClock.now()
        // A kept long run may already be all the floor asks for.
        var done = count > 0 && count >= settings.floorSamples
        while !done {
            let t0 = MonotonicClock.now()
            for _ in 0..<batch { try body() }
            let t1 = MonotonicClock.now()
            storage[count] = Double(t1 &- t0) / Double(batch)
            count += 1
            let spent = Double(t1 &- samplingStart) / 1e9
            let enough = count >= settings.minSamples && spent >= settings.minTime
            let tooLong = count >= settings.floorSamples && spent >= settings.maxTime
            done = enough || tooLong
            if !done && count == capacity {
                // Full before minTime: fold neighbouring samples into one of
                // twice the batch (their mean is exactly what a doubled batch
                // would have measured) and go on with doubled batches.
                for i in 0..<(count / 2) { storage[i] = (storage[2 * i] + storage[2 * i + 1]) / 2 }
                if count % 2 == 1 { storage[count / 2] = storage[count - 1] }
                count = (count + 1) / 2
                batch *= 2
            }
        }
        return Samples(nanoseconds: Array(storage[0..<count]), batch: batch, warmupRuns: warmupRuns,
                       elapsed: MonotonicClock.seconds(since: start))
    }
}
