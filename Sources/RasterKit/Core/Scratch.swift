/// Reusable scratch memory for kernels that need temporary planes (a
/// down-scaled gradient, a blur's intermediate, a coverage accumulator).
///
/// Buffers are keyed by a slot so that one kernel's temporaries do not
/// alias another's, and only grow: after the first frame of an animation a
/// steady stream of frames allocates nothing.
public final class Scratch: @unchecked Sendable {
    private struct Entry {
        var pointer: UnsafeMutableRawPointer?
        var bytes = 0
        var key: Double?
    }

    /// Slots are small integers (see `ScratchSlot`), so a flat table indexed
    /// by slot: a Dictionary here cost three mallocs per lookup (measured),
    /// which is exactly what a steady-state frame must not do.
    public static let slotCount = 128
    private var entries = [Entry](repeating: Entry(), count: Scratch.slotCount)

    public init() {}

    deinit { for e in entries { e.pointer?.deallocate() } }

    /// Memory for `count` values of `T` in `slot`, 64-byte aligned, contents
    /// unspecified. Valid until the next request for the same slot.
    public func buffer<T>(_ slot: Int, count: Int, of: T.Type = T.self) -> UnsafeMutablePointer<T> {
        buffer(slot, count: count, of: T.self, key: nil).pointer
    }

    /// Like `buffer(_:count:of:)`, for contents derived from `key` (a table
    /// for one exponent, say): `fresh` is true when the memory is new or was
    /// last filled for another key, i.e. when the caller must (re)fill it.
    public func buffer<T>(_ slot: Int, count: Int, of: T.Type = T.self, key: Double?)
        -> (pointer: UnsafeMutablePointer<T>, fresh: Bool) {
        precondition((0..<Scratch.slotCount).contains(slot), "scratch slot \(slot) out of range")
        let bytes = max(1, count * MemoryLayout<T>.stride)
        return entries.withUnsafeMutableBufferPointer { entries in
            if let p = entries[slot].pointer, entries[slot].bytes >= bytes {
                let fresh = key == nil || entries[slot].key != key
                entries[slot].key = key
                return (p.bindMemory(to: T.self, capacity: count), fresh)
            }
            entries[slot].pointer?.deallocate()
            let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            entries[slot] = Entry(pointer: p, bytes: bytes, key: key)
            return (p.bindMemory(to: T.self, capacity: count), true)
        }
    }

    /// Scratch of the threads of a banded kernel beyond the first: each
    /// thread gets memory of its own, requested (and grown) inside the
    /// parallel loop, where one shared table could not be touched.
    private var helpers: [Scratch] = []

    /// Makes sure `band(1) ... band(count - 1)` exist. Call before the threads start.
    public func reserveBands(_ count: Int) {
        while helpers.count < count - 1 { helpers.append(Scratch()) }
    }

    /// The scratch of band `i`: this one for band 0, a helper for the rest.
    public func band(_ i: Int) -> Scratch { i == 0 ? self : helpers[i - 1] }

    /// Total bytes held (bands' scratch included), for tests that check steady-state reuse.
    public var bytesHeld: Int { entries.reduce(0) { $0 + $1.bytes } + helpers.reduce(0) { $0 + $1.bytesHeld } }
}

/// Slot numbers, one per kernel temporary, so that kernels sharing one
/// `Scratch` never hand each other the same memory.
public enum ScratchSlot {
    public static let freeformSmall = 1
    public static let freeformStretched = 2
    public static let freeformTaps = 3
    public static let freeformTapWeights = 4
    public static let influenceTable = 5
    public static let freeformRowTaps = 6
    public static let freeformRowTapWeights = 7
    public static let blurPlane = 10   // 10...19 reserved for K3
    // 20...29 reserved for K4 (FillEdges).
    /// 30...39: K7 (see MeshLattice).
    public static let meshLatticeU = 30
    public static let meshLatticeV = 31
    public static let meshNodes = 32
    public static let meshStripStart = 33
    public static let meshStripQuads = 34
    public static let meshWinnerU = 35
    public static let meshWinnerV = 36
    public static let meshPlanes = 37
    public static let meshNodeColors = 38
    public static let meshColorPlanes = 39
    /// `resample`: 40...45.
    public static let resampleStretched = 40
    public static let resampleTaps = 41
    public static let resampleTapWeights = 42
    public static let resampleRowTaps = 43
    public static let resampleRowTapWeights = 44
    public static let resampleRowsUsed = 45
    /// The `blob` op's K5 input and output (Float): 50...51.
    public static let blobAnchors = 50
    public static let blobControls = 51
}
