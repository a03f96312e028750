#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The benchmark's only time source: the monotonic clock, in nanoseconds.
///
/// `CLOCK_MONOTONIC` never jumps with NTP or wall-clock changes (unlike
/// `gettimeofday`), and on Linux it is read through the vDSO in ~20 ns, so it
/// can bracket every sample without disturbing it. Its resolution (1 ns
/// here) is checked at run time: `Sampler` batches iterations so that one
/// sample spans thousands of ticks.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; only differences mean anything.
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The clock's advertised tick, in nanoseconds.
    public static var resolutionNanoseconds: UInt64 {
        var ts = timespec()
        clock_getres(CLOCK_MONOTONIC, &ts)
        return max(1, UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }

    /// Seconds elapsed since `start` (a value of `now()`).
    @inline(__always)
    public static func seconds(since start: UInt64) -> Double {
        Double(now() &- start) / 1e9
    }
}
