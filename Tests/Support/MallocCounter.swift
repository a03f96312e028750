import MallocInterposerSwift

/// Counts the malloc calls of the whole test process (ordo-one's
/// malloc-interposer, linked into the test binary ahead of libc so its
/// malloc wins symbol resolution): the one counter every allocation test uses.
public enum MallocCounter {
    /// Call once per test class (its `setUp()`), before counting.
    public static func initialize() { MallocInterposerSwift.initialize() }

    /// Mallocs and frees made by `body` on any thread.
    public static func count(_ body: () throws -> Void) rethrows -> (mallocs: Int, frees: Int) {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        defer { MallocInterposerSwift.unhook() }
        try body()
        let s = MallocInterposerSwift.getStatistics()
        return (s.mallocCount, s.freeCount)
    }

    /// Mallocs made by `body` on any thread.
    public static func mallocs(_ body: () throws -> Void) rethrows -> Int { try count(body).mallocs }

    /// The fewest mallocs of `tries` runs: the counter sees every thread of
    /// the test process, so a stray allocation elsewhere can land in any one
    /// measurement, but not in all of them.
    public static func fewestMallocs(tries: Int = 3, _ body: () throws -> Void) rethrows -> Int {
        try (0..<max(1, tries)).map { _ in try mallocs(body) }.min()!
    }

    /// Whether the interposer is in effect on this platform (elsewhere it
    /// needs LD_PRELOAD, and counts stay 0).
    public static var isInterposing: Bool {
        mallocs { UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16).deallocate() } > 0
    }
}
