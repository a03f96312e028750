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

    /// Slots are small integers (`ScratchSlot`'s raw values, all below
    /// `slotCount`, which a test checks), so a flat table indexed by slot: a Dictionary here cost three mallocs per lookup (measured),
    /// which is exactly what a steady-state frame must not do.
    public static let slotCount = 128
    private var entries = [Entry](repeating: Entry(), count: Scratch.slotCount)

    public init() {}

    deinit { for e in entries { e.pointer?.deallocate() } }

    /// Memory for `count` values of `T` in `slot`, 64-byte aligned, contents
    /// unspecified. Valid until the next request for the same slot.
    public func buffer<T>(_ slot: ScratchSlot, count: Int, of: T.Type = T.self) -> UnsafeMutablePointer<T> {
        buffer(slot, count: count, of: T.self, key: nil).pointer
    }

    /// Like `buffer(_:count:of:)`, for contents derived from `key` (a table
    /// for one exponent, say): `fresh` is true when the memory is new or was
    /// last filled for another key, i.e. when the caller must (re)fill it.
    public func buffer<T>(_ slot: ScratchSlot, count: Int, of: T.Type = T.self, key: Double?)
        -> (pointer: UnsafeMutablePointer<T>, fresh: Bool) {
        let slot = slot.rawValue
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

    /// How many values of `T` the memory `slot` holds now (0 before its
    /// first use): a kernel that can detect overrunning it may try that
    /// much before paying for an exact size.
    public func capacity<T>(_ slot: ScratchSlot, of: T.Type = T.self) -> Int {
        entries[slot.rawValue].bytes / MemoryLayout<T>.stride
    }

    /// Reusable objects of a kernel (a plan whose arrays keep their
    /// capacity from frame to frame), one per slot, made on first use.
    private var objects = [AnyObject?](repeating: nil, count: Scratch.slotCount)

    /// The object in `slot`, made by `make` if the slot holds none (or one
    /// of another type).
    func object<T: AnyObject>(_ slot: ScratchSlot, make: () -> T) -> T {
        if let o = objects[slot.rawValue] as? T { return o }
        let o = make()
        objects[slot.rawValue] = o
        return o
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

/// One slot per kernel temporary, so that kernels sharing one `Scratch`
/// never hand each other the same memory. An enum with explicit raw values:
/// the compiler refuses two slots with the same number.
public enum ScratchSlot: Int, CaseIterable, Sendable {
    case freeformSmall = 1
    case freeformStretched = 2
    case freeformTaps = 3
    case freeformTapWeights = 4
    case influenceTable = 5
    case freeformRowTaps = 6
    case freeformRowTapWeights = 7
    /// K1's column table (the x part of each point's squared distance).
    case freeformColumns = 8
    /// K3 (`BlurSlot` names them as the blur uses them): the full-resolution
    /// intermediate, per-worker lines, the down-sampled image and its
    /// intermediate, tap tables, per-worker resample rows, right-edge spare
    /// pixels, up-sampling taps.
    case blurPlane = 10
    case blurLines = 11
    case blurSmall = 12
    case blurSmallPlane = 13
    case blurTable = 14
    case blurResampleRows = 15
    case blurEdgeSpare = 16
    case blurResampleTaps = 17
    /// K4's edges carried from strip to strip (`FillStripWalk`).
    case fillCarry = 20
    /// K4's clipped edges: a list (`FillEdges`) or strip buckets' blocks (`FillStrips`).
    case fillEdges = 21
    /// K4's per-band cell buffers and touched-chunk bitmaps.
    case fillCells = 22
    case fillBitmap = 23
    /// K4's strip buckets: each strip's first and last block.
    case fillBucketHeads = 24
    case fillBucketTails = 25
    /// K4's supersampling crossing lists.
    case fillCrossings = 26
    case fillCrossingCounts = 27
    /// K4's curve pieces (`CurvePieces`, an object slot).
    case fillCurvePieces = 28
    /// The SIMD backend's per-band lane spill buffers.
    case fillLanes = 29
    /// K7 (see MeshLattice).
    case meshLatticeU = 30
    case meshLatticeV = 31
    case meshNodes = 32
    case meshStripStart = 33
    case meshStripQuads = 34
    case meshWinnerU = 35
    case meshWinnerV = 36
    case meshPlanes = 37
    case meshNodeColors = 38
    case meshColorPlanes = 39
    /// `resample`.
    case resampleStretched = 40
    case resampleTaps = 41
    case resampleTapWeights = 42
    case resampleRowTaps = 43
    case resampleRowTapWeights = 44
    /// The `blob` op's K5 input and output (Float).
    case blobAnchors = 50
    case blobControls = 51
}
