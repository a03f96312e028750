/// K4's accumulation stage alone, per backend, for differential tests (a
/// failure then names the stage, not just the image): the fixed-point
/// winding `FillFixed` cells hold after every edge's area differences are
/// added and each row is prefix-summed -- before the fill rule and the
/// composite. Not a fast path: it allocates.
///
/// This file only checks the input and picks the backend: each backend's
/// schedule runs its own accumulation in its own folder
/// (`NaiveBackend.fillWindings`, `SIMDBackend.fillWindings`,
/// `OpenMPBackend.fillWindings`), so the stage API builds none of a
/// backend's internal types.
public enum FillStages {
    /// Units per pixel of the windings returned (raster_fill.h's RASTER_OMP_FILL_ONE).
    public static let one = Int(FillFixed.one)

    /// The winding of `edges` -- (x0, y0, x1, y1) with 0 <= x <= width,
    /// 0 <= y <= height, y0 != y1, as `EdgeClipper` hands them to the
    /// rasterisers -- on a width x height canvas, by `backend`'s own
    /// accumulation: height rows of width + 2 values (the pixels, then the
    /// two guard cells; right of every edge the winding is final), in
    /// units of 1 / `one` pixel, read as signed 32-bit.
    public static func windings(_ edges: [SIMD4<Float>], width: Int, height: Int, backend: BackendKind) throws -> [Int32] {
        guard width > 0, height > 0, width <= 32768, height <= 32768 else {
            throw RasterError.invalidArgument(name: "size", value: "\(width)x\(height)", accepted: "1...32768 each")
        }
        for e in edges where !(e.x >= 0 && e.z >= 0 && e.x <= Float(width) && e.z <= Float(width)
                               && e.y >= 0 && e.w >= 0 && e.y <= Float(height) && e.w <= Float(height) && e.y != e.w) {
            throw RasterError.invalidArgument(name: "edge", value: "\(e)", accepted: "inside the canvas, not horizontal")
        }
        switch backend {
        case .naive: return NaiveBackend.fillWindings(edges, width: width, height: height)
        case .simd: return SIMDBackend.fillWindings(edges, width: width, height: height)
        case .openmp: return OpenMPBackend.fillWindings(edges, width: width, height: height)
        }
    }
}
