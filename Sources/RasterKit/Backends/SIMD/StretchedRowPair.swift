/// The two stretched source rows a band of a bilinear up-sampler reads
/// (the openmp backend's raster_row_pair is the same schedule in C).
///
/// Output row y blends source rows y0 and y0 + 1, and consecutive output
/// rows move through the source rows in order, so each source row is
/// stretched once per band into one of two slots of the worker's scratch
/// and is still in cache while the rows that read it are blended. A
/// frame-sized buffer of stretched rows, written in one pass and read in a
/// second, made the up-sampler bound by memory traffic (8 MB of floats for
/// a half-scale 750x1334 frame).
struct StretchedRowPair {
    private let slots: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    private var held = (-1, -1)

    /// `memory` holds two slots of `floats` each.
    init(memory: UnsafeMutablePointer<Float>, floats: Int) {
        slots = (memory, memory + floats)
    }

    /// Source row `r`, stretched by `stretch(r, slot)` into the slot that
    /// does not hold row `keep` when neither slot holds it.
    @inline(__always)
    mutating func row(_ r: Int, keeping keep: Int, _ stretch: (Int, UnsafeMutablePointer<Float>) -> Void) -> UnsafePointer<Float> {
        if held.0 == r { return UnsafePointer(slots.0) }
        if held.1 == r { return UnsafePointer(slots.1) }
        if held.0 == keep {
            stretch(r, slots.1); held.1 = r
            return UnsafePointer(slots.1)
        }
        stretch(r, slots.0); held.0 = r
        return UnsafePointer(slots.0)
    }
}
