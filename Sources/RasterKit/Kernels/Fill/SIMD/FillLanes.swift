/// The fill's lane constants and its roundings. The lane types and the
/// generic helpers (conversions, min/max, `allEqual`) are in `Wide/`, with
/// the note on what they compile to.
enum FillLanes {
    /// One vector covers one chunk of cells (`CellLayout.chunk`, the C
    /// schedule's width too; FillStageTests holds it to
    /// `Float16Lanes.scalarCount`).
    static let width = CellLayout.chunk
    /// log2(width): cell index >> shift is its chunk (one bitmap bit).
    static let shift = CellLayout.chunkShift

    /// round(v * FillFixed.one) lane-wise as 32-bit two's complement, for
    /// |v * one| < 2^22 (row step values), by `FillRounding`.
    @_transparent
    static func quantise(_ v: Float16Lanes) -> Word16Lanes { FillRounding.round(v * FillFixed.scale) }

    /// round(units) lane-wise (values already scaled by `FillFixed.one`).
    @_transparent
    static func round(units v: Float16Lanes) -> Word16Lanes { FillRounding.round(v) }

    /// Rounds values known to lie in [0, 255.5) (half up = ties away from
    /// zero there) to integers, without clamping.
    @_transparent
    static func round(_ v: Float16Lanes) -> Word16Lanes {
        unsafeBitCast((v + 0.5).rounded(.down) + Lanes.magic, to: Word16Lanes.self) &- Lanes.magicBits
    }
}
