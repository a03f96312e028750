import CRasterOMP

extension OpenMPBackend {
    /// K4 in C (raster_omp_fill in CRasterOMP's fill/fill_plan.c): OpenMP threads take bands of
    /// 32-row strips, and each band's thread calls back here for its edges
    /// -- the path flattened and clipped for its own rows into strip
    /// buckets by the shared Swift code (`FillStrips`, in Double), as the
    /// simd backend's bands do -- then accumulates, applies the rule and
    /// composites in C.
    /// So the set-up is banded too: nothing runs serially before the team
    /// starts. The cell layout comes from the path's control box
    /// (`CellLayout`), so the image does not depend on the banding.
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        guard let layout = CellLayout(path: fill.path, width: dst.width, height: dst.height) else { return }
        let strips = FillStrips.covering(layout.rows)
        // The simd schedule's band count (without OpenMP, one band inline).
        let bands = FillStrips.bands(strips, threads: raster_omp_available() != 0 ? threads : 1).count
        scratch.reserveBands(bands)
        var plan = raster_omp_fill_plan(
            first_strip: Int32(strips.lowerBound), strip_count: Int32(strips.count), origin: Int32(layout.origin),
            cell_stride: Int32(layout.stride), words: Int32(layout.words),
            samples: Int32(variant.samplesPerAxis ?? 0), bands: Int32(bands))
        var band = OpenMPFillBands(fill: fill, variant: variant, width: dst.width, height: dst.height,
                                   scratch: scratch)
        var color = fill.color.simd
        withUnsafeMutablePointer(to: &band) { context in
            var source = raster_omp_fill_source(edges: OpenMPFillBands.edges, memory: OpenMPFillBands.memory,
                                                context: UnsafeMutableRawPointer(context))
            withUnsafePointer(to: &color) { c in
                c.withMemoryRebound(to: Float.self, capacity: 4) { c in
                    raster_omp_fill(&plan, &source, dst.base, Int32(dst.width), Int32(dst.height), dst.stride, c,
                                    fill.rule == .evenodd ? 1 : 0)
                }
            }
        }
    }
}

/// What the C bands call back for (`raster_omp_fill_source`): each band's
/// edges and memory, from the band's own scratch (`Scratch.band`), so the
/// threads share nothing they write.
struct OpenMPFillBands {
    let fill: PathFill
    let variant: FillVariant
    let width: Int, height: Int
    let scratch: Scratch

    /// Flattens and clips the path for strips [strip0, strip1) straight
    /// into their buckets, in the band's scratch.
    static let edges: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32,
                                      UnsafeMutablePointer<raster_omp_fill_buckets>?) -> Int32 = { context, band, strip0, strip1, out in
        let s = context!.assumingMemoryBound(to: OpenMPFillBands.self).pointee
        let strips = FillStrips.prepare(s.fill, variant: s.variant, width: s.width, height: s.height,
                                        range: Int(strip0)..<Int(strip1), scratch: s.scratch.band(Int(band)))
        out!.pointee = raster_omp_fill_buckets(
            blocks: UnsafeRawPointer(strips.blocks).assumingMemoryBound(to: Float.self),
            heads: UnsafePointer(strips.heads), edges: Int64(strips.edgeCount), crossings: Int64(strips.maxCrossings))
        return strips.isEmpty ? 0 : 1
    }

    /// The band's block of C working memory (cells, bitmap, crossing lists, lanes),
    /// and whether it is the block the band last had for this `layout`
    /// (the scratch key; the simd schedule keys its cells 0, never a C layout).
    static let memory: @convention(c) (UnsafeMutableRawPointer?, Int32, Int, UInt64,
                                       UnsafeMutablePointer<Int32>?) -> UnsafeMutableRawPointer? = { context, band, bytes, layout, same in
        let s = context!.assumingMemoryBound(to: OpenMPFillBands.self).pointee
        let block = s.scratch.band(Int(band)).buffer(ScratchSlot.fillCells, count: bytes, of: UInt8.self,
                                                     key: layout == 0 ? nil : Double(layout))
        same!.pointee = block.fresh ? 0 : 1
        return UnsafeMutableRawPointer(block.pointer)
    }
}
