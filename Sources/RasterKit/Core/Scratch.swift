/// Reusable scratch memory for kernels that need temporary planes (a
/// down-scaled gradient, a blur's intermediate, a coverage accumulator).
///
/// Buffers are keyed by a slot so that one kernel's temporaries do not
/// alias another's, and only grow: after the first frame of an animation a
/// steady stream of frames allocates nothing.
public final class Scratch: @unchecked Sendable {
    private var buffers: [Int: (pointer: UnsafeMutableRawPointer, bytes: Int)] = [:]

    public init() {}

    deinit { for (_, b) in buffers { b.pointer.deallocate() } }

    /// Memory for `count` values of `T` in `slot`, 64-byte aligned, contents
    /// unspecified. Valid until the next request for the same slot.
    public func buffer<T>(_ slot: Int, count: Int, of: T.Type = T.self) -> UnsafeMutablePointer<T> {
        let bytes = max(1, count * MemoryLayout<T>.stride)
        if let existing = buffers[slot], existing.bytes >= bytes {
            return existing.pointer.bindMemory(to: T.self, capacity: count)
        }
        buffers[slot]?.pointer.deallocate()
        let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        buffers[slot] = (p, bytes)
        return p.bindMemory(to: T.self, capacity: count)
    }

    /// Total bytes held, for tests that check steady-state reuse.
    public var bytesHeld: Int { buffers.values.reduce(0) { $0 + $1.bytes } }
}

/// Slot numbers, one per kernel temporary, so that kernels sharing one
/// `Scratch` never hand each other the same memory.
public enum ScratchSlot {
    public static let freeformSmall = 1
    public static let freeformRowWeights = 2
    public static let freeformTaps = 3
    public static let freeformTapWeights = 4
    public static let blurPlane = 10   // 10...19 reserved for K3
    public static let pathCoverage = 20 // 20...29 reserved for K4
    public static let layerStack = 100 // 100... one per nested job layer
}
