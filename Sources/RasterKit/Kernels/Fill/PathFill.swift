// K4, the path fill, is this folder: the maths and its accuracy argument
// here, the stages every schedule shares in Stages/, each backend's
// schedule beside them.
//
//   Stages/FillFlatten.swift      curves to chords (`Flattener`)
//   Stages/FillCrowding.swift     which curve pieces may be flattened coarsely (`CurvePieces`)
//   Stages/FillClip.swift         chords clipped to the canvas, winding kept (`EdgeClipper`)
//   Stages/FillEdges.swift        flatten + clip into one list, the naive schedule's (`FillEdges`)
//   Stages/FillStrips.swift       flatten + clip for a band of strips, each edge appended to
//                                 its 32-row strips' buckets as it is made (`FillStrips`)
//   Stages/FillCellLayout.swift   where a strip's cells sit (`CellLayout`)
//   Stages/FillFixed.swift        fixed-point winding and the rounding trick (`FillFixed`, `FillRounding`)
//   Stages/FillCrossingSort.swift a sub-scanline's crossings by x (`CrossingSort`)
//   Stages/FillCoverage.swift     the fill rule, scalar, lanes and samples
//   SIMD/                         the simd schedule: band, accumulate, sample, sweep, paint, lanes
//                                 (its bands come from Threads/RowBands.swift, as every simd kernel's)
//   Naive/NaiveFill.swift         the naive schedule: one cell per pixel, then a row sweep
//   OpenMP/OpenMPFill.swift       the openmp schedule's Swift side; its C is CRasterOMP's
//                                 include/raster_fill.h (entry points, every shared
//                                 constant), fill/fill_plan.c and fill/fill_band.c
//   FillStages.swift              each stage alone per backend, for differential tests
//                                 (each backend's half is its *FillWindings.swift)

/// K4, anti-aliased path fill (docs/contract.md §2.4).
///
/// A path (move/line/quadratic/cubic/close, canvas pixels, y down) is filled
/// with a solid premultiplied colour `c`, source-over:
///
///     d = c * m + d * (1 - m * c.a / 255)
///
/// where the coverage m of a pixel comes from its accumulated winding
///
///     a = sum over the edges of the flattened path of the signed area of
///         the pixel lying to the right of the edge (within the edge's rows),
///         + for edges going down, - for edges going up
///
/// and the fill rule: nonzero m = min(1, |a|); even-odd m = the distance of
/// |a| to the nearest even integer (a triangle wave). That is the exact
/// covered area wherever no two edges meet inside a pixel, and the standard
/// approximation (FreeType's gray rasteriser, font-rs, Blend2D) where they
/// do. Sub-paths are closed implicitly.
///
/// How a backend gets there (all share `FillEdges`, the flattened path
/// clipped to the canvas in Double and handed over as Float edges):
/// accumulate each edge's per-pixel area differences into a cell buffer,
/// prefix-sum along each row to get `a`, apply the rule, composite -- only
/// over the rows and spans the edges touch, with constant-coverage runs
/// between edge cells painted as runs.
///
/// Accumulation (every backend, exact and supersampled variants; the scale
/// is raster_fill.h's RASTER_OMP_FILL_ONE = 2^21, `FillFixed`): cells hold
/// winding in fixed point, units of u = 2^-21 pixel, summed in wrapping
/// 32-bit integers -- as FreeType's gray rasteriser and Blend2D do -- so
/// every sum after a row step's values are rounded is exact and does not
/// depend on order (a Float accumulation of N stacked copies loses
/// ~N * 2^-24 * |a| per add: 1,000 triangles were 5 off, 10,001 copies
/// under even-odd 243). Per row step (one edge within one pixel row):
/// - its winding (yz - ya) dir is taken as round(yz' u^-1) - round(ya' u^-1)
///   with y' measured from the row's top: a vertex shared by two edges
///   rounds the same for both and row boundaries are exact, so the steps of
///   a closed path telescope and the winding right of it is exactly 0;
/// - its cell values are computed in Float and written as differences of
///   rounded suffix sums, the first cell taking the exact winding less the
///   rounded rest: the winding it leaves at any pixel is within u/2 of its
///   Float value, however many cells it spans.
/// So at a pixel with k row steps in its row, |a - a_exact| <= k (u/2 + e),
/// e the Float evaluation error of one step (x interpolated in Float:
/// about |d| ulp(x), ~4e-6 px at x < 64, ~6e-5 at x ~ 1000). Hence, in
/// 8-bit units (255 |a - a_exact|, below one in the rounding): 1,000 stacked
/// copies of one edge add at most 1000 * 255 * 2^-22 = 0.06 from the
/// accumulation; 10^5 segments on 1,400 steps a row at most 0.09 (FillPrecisionTests
/// measures max 1, mean <= 0.011 against the reference on each).
/// Range: wrapping keeps a modulo 2^32 u = 2048. Even-odd needs only a
/// modulo 2, so any number of copies is exact in the rule; nonzero reads a
/// as signed, so min(1, |a|) is right for every |a| < 2047 (a winding of
/// +-1000 with room to spare) and beyond it unless |a| lies within 1 of a
/// multiple of 2048.
/// Compositing adds its own rounding on top: the Float blend is exact but
/// for the final rounding; the 15-bit blend that partly covered pixels take
/// under an opaque colour (raster_fill.h's `raster_fill_blend16_opaque`)
/// moves a channel at most 0.008 of a unit before it.
public struct PathFill: Sendable, Hashable {
    public let path: Path
    public let rule: FillRule
    public let color: Color

    public init(path: Path, rule: FillRule = .nonzero, color: Color) throws {
        try path.validate()
        for (v, name) in [(color.r, "r"), (color.g, "g"), (color.b, "b"), (color.a, "a")] {
            guard v.isFinite, (0...255).contains(v) else {
                throw RasterError.invalidArgument(name: "color.\(name)", value: "\(v)", accepted: "0...255 (premultiplied)")
            }
        }
        for (v, name) in [(color.r, "r"), (color.g, "g"), (color.b, "b")] where v > color.a {
            throw RasterError.invalidArgument(
                name: "color.\(name)", value: "\(v)", accepted: "0...color.a = \(color.a) (premultiplied)")
        }
        self.path = path
        self.rule = rule
        self.color = color
    }

    /// Parses SVG path data and fills it.
    public init(svg: String, rule: FillRule = .nonzero, color: Color) throws {
        try self.init(path: Path(svg: svg), rule: rule, color: color)
    }
}

public enum FillRule: String, CaseIterable, Sendable {
    case nonzero, evenodd = "evenodd"

    /// Accepts SVG/CSS spellings too (`even-odd`, `nonZero`).
    public init(parsing name: String) throws {
        switch name.lowercased() {
        case "nonzero", "non-zero": self = .nonzero
        case "evenodd", "even-odd": self = .evenodd
        default:
            throw RasterError.invalidArgument(name: "rule", value: "'\(name)'", accepted: "nonzero, evenodd")
        }
    }
}

/// K4's quality/time variants (docs/contract.md §4): how coverage is measured
/// (exact area or point samples) and how finely curves are flattened.
public enum FillVariant: String, CaseIterable, Sendable, KernelVariant {
    /// Exact area coverage, curves flattened to 1/1024 px (`exactTolerance`)
    /// where they crowd each other, to 1/280 px (`loneTolerance`) where not.
    case exact
    /// 4 point samples per pixel (a 2 x 2 grid), curves flattened to 0.25 px.
    case ss4
    /// 16 point samples per pixel (a 4 x 4 grid), curves flattened to 0.05 px.
    case ss16
    /// Exact area coverage of curves flattened to 0.05, 0.25 or 1 px.
    case tol005 = "tol0.05"
    case tol025 = "tol0.25"
    case tol1 = "tol1"

    /// The `exact` variant's flattening tolerance. A chord's sag of t px
    /// over a pixel it crosses changes that pixel's coverage by at most
    /// about t (1.4 t diagonally), and the errors of every curved edge
    /// through the pixel add up: at 1/1024 px one edge costs at most 0.35
    /// 8-bit units, so a pixel where four curves cross stays inside the max-2 bound of
    /// docs/contract.md §3 with the final rounding. 1/256 px (1.4 units an edge) gave
    /// max 3 where three curves crossed (Fuzz/findings, FillTests'
    /// crossing-curves test). Chords grow as 1/sqrt(t): 16x those of 0.25 px.
    /// Cost against 1/256 (`ab`, Results/studies/fill-precision/summary.md):
    /// the 750x1334 blob fill +27% on openmp, the liquid scene +7-14% on
    /// openmp, +3% on simd; line-only paths (the stars) unchanged.
    public static let exactTolerance = 1.0 / 1024

    /// The `exact` variant's tolerance for a piece of curve no other curve
    /// comes within a pixel of (`CurvePieces`, FillCrowding.swift, has the
    /// argument): such a pixel holds one nearly straight run of chords, so
    /// its error is at most 1.51 t px, 1.37 8-bit units at 1/280 -- the
    /// budget four crowded curves at `exactTolerance` already use. Half the
    /// chords of 1/1024 on a lone outline such as the blob.
    public static let loneTolerance = 1.0 / 280

    /// Maximum distance between a curve and its chords, in pixels.
    public var tolerance: Double {
        switch self {
        case .exact: return FillVariant.exactTolerance
        case .ss4, .tol025: return 0.25
        case .ss16, .tol005: return 0.05
        case .tol1: return 1
        }
    }

    /// The tolerance of curve pieces no other piece crowds (`tolerance`
    /// when the variant flattens every curve alike).
    public var loneTolerance: Double {
        self == .exact ? FillVariant.loneTolerance : tolerance
    }

    /// Samples per pixel along each axis for the supersampled variants, nil
    /// for exact-area coverage. The supersampled tolerances match their
    /// coverage step (1/4 and 1/16) to the nearest tolerance variant, so
    /// neither error source hides the other.
    public var samplesPerAxis: Int? {
        switch self {
        case .ss4: return 2
        case .ss16: return 4
        default: return nil
        }
    }

    public var isExact: Bool { self == .exact }
    public static let kernelName = "fill"
}
