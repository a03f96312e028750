import CRasterOMP

/// K7, the mesh gradient (SwiftUI's `MeshGradient` with smoothed colours).
///
/// A grid of C x R vertices (2 <= C, R <= 32), row-major, each with a
/// position in pixels and a premultiplied colour. Vertex (i, j) (column i,
/// row j) sits at parameter (u, v) = (i, j) of the domain [0, C-1] x [0, R-1].
/// Position and colour form one bicubic Hermite surface V(u, v): on each cell
/// the tensor-product cubic Hermite patch through its four corners, with
///
///     dV/du(i, j) = (V[i+1, j] - V[i-1, j]) / 2      inside the grid
///                 = V[1, j] - V[0, j]                at i = 0
///                 = V[C-1, j] - V[C-2, j]            at i = C - 1
///
/// likewise dV/dv, and zero cross derivative (Catmull-Rom's rule: C1 across
/// cell borders; an affine grid is reproduced exactly, and a border through
/// collinear vertices stays straight). After interpolation each channel is
/// clamped to [0, 255] and the colour channels to at most alpha.
///
/// A pixel is painted, source-over, iff its centre q has a preimage (u, v) in
/// the domain with position(u, v) = q. Where the surface folds and q has
/// several, the one with the largest v wins, then the largest u (PDF's rule
/// for patch meshes). The outer boundary is not anti-aliased.
public struct MeshGradient: Sendable, Hashable {
    public static let sizes = 2...32

    /// C and R.
    public let columns: Int
    public let rows: Int
    /// Vertex positions in pixels, row-major (`columns * rows`).
    public let positions: [Point]
    /// Premultiplied vertex colours, row-major (`columns * rows`).
    public let colors: [Color]

    /// The largest accepted |coordinate|: the patches' cubic terms stay far
    /// inside Double's and Float's range.
    public static let maxCoordinate = 1e6

    public init(columns: Int, rows: Int, positions: [Point], colors: [Color]) throws {
        guard MeshGradient.sizes.contains(columns) else {
            throw RasterError.invalidArgument(name: "columns", value: "\(columns)", accepted: "\(MeshGradient.sizes)")
        }
        guard MeshGradient.sizes.contains(rows) else {
            throw RasterError.invalidArgument(name: "rows", value: "\(rows)", accepted: "\(MeshGradient.sizes)")
        }
        guard positions.count == columns * rows else {
            throw RasterError.invalidArgument(name: "points", value: "\(positions.count) points",
                                              accepted: "columns x rows = \(columns * rows)")
        }
        guard colors.count == columns * rows else {
            throw RasterError.invalidArgument(name: "colors", value: "\(colors.count) colours",
                                              accepted: "columns x rows = \(columns * rows)")
        }
        for (i, p) in positions.enumerated() {
            guard p.isFinite, abs(p.x) <= MeshGradient.maxCoordinate, abs(p.y) <= MeshGradient.maxCoordinate else {
                throw RasterError.invalidArgument(name: "points[\(i)]", value: "\(p)",
                                                  accepted: "finite coordinates within +-\(MeshGradient.maxCoordinate)")
            }
        }
        for (i, c) in colors.enumerated() {
            guard c.r.isFinite, c.g.isFinite, c.b.isFinite, c.a.isFinite else {
                throw RasterError.invalidArgument(name: "colors[\(i)]", value: "\(c)", accepted: "finite components")
            }
        }
        self.columns = columns
        self.rows = rows
        self.positions = positions
        self.colors = colors
        let patches = MeshPatches(columns: columns, rows: rows, positions: positions, colors: colors)
        coefficients = patches.coefficients
        bendU = patches.bendU
        bendV = patches.bendV
        colorSlope = patches.colorSlope
        newtonCells = patches.colorSlope.map { $0 * MeshVariant.exact.tolerance > RASTER_MESH_SKIP_NEWTON ? 1 : 0 }
    }

    /// Per cell, an estimate of the steepest colour change per pixel
    /// (8-bit units per pixel; infinite where the cell folds), see
    /// `MeshPatches.colorSlope`. The exact variant skips the Newton step in
    /// cells where slope x tolerance <= RASTER_MESH_SKIP_NEWTON: there the
    /// tessellation's (u, v), off by at most the tolerance, already puts the
    /// colour within that many units.
    public let colorSlope: [Float]

    /// Per cell, 1 where the exact variant's pixels take the Newton step.
    public let newtonCells: [UInt8]

    /// Calls `body` with the per-cell Newton flags of `variant` (nil: none).
    public func withNewtonCells<R>(_ variant: MeshVariant, _ body: (UnsafePointer<UInt8>?) throws -> R) rethrows -> R {
        guard variant.refines else { return try body(nil) }
        return try newtonCells.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Per cell (row-major, (C-1) x cells) the power-basis
    /// coefficients of its patch in local coordinates (s, t) = (u - i, v - j)
    /// in [0, 1]^2: `MeshPatches.channels` channels (x, y, r, g, b, a) of 16
    /// values, a[ch][l * 4 + k] multiplying s^k t^l. Built once here (in
    /// Double, stored as Float) so that no kernel call allocates.
    public let coefficients: [Float]
    /// Per cell, bounds on |d2P/ds2| + |d2P/dsdt| and |d2P/dt2| + |d2P/dsdt|
    /// over the cell (pixels per unit parameter squared): what a
    /// tessellation needs to keep its chords within a tolerance.
    public let bendU: [Double], bendV: [Double]

    public var cellColumns: Int { columns - 1 }
    public var cellRows: Int { rows - 1 }

    /// The vertex at column i, row j.
    @inlinable public func position(_ i: Int, _ j: Int) -> Point { positions[j * columns + i] }
    @inlinable public func color(_ i: Int, _ j: Int) -> Color { colors[j * columns + i] }
}

/// K7's quality/time variants.
public enum MeshVariant: String, CaseIterable, Sendable, KernelVariant {
    /// Held to the bound of docs/contract.md §3 (max 3 away from boundary and folds): the
    /// tessellation's (u, v) at each pixel is refined by one Newton step on
    /// position(u, v) = q before the bicubic colour is evaluated.
    case exact
    /// Gouraud shading: chords within `RASTER_MESH_COARSE_TOLERANCE` px,
    /// the colour evaluated (bicubic, clamped) at the tessellation's nodes
    /// only and interpolated linearly across each triangle; no per-pixel
    /// bicubic, no Newton step. Measured, not bound.
    case coarse

    /// The tessellation's chord tolerance in pixels.
    public var tolerance: Float {
        self == .exact ? RASTER_MESH_TOLERANCE : RASTER_MESH_COARSE_TOLERANCE
    }
    /// Whether pixels of steep cells get a Newton step (see `newtonCells`).
    public var refines: Bool { self == .exact }
    /// Whether colour is interpolated per triangle from the nodes (Gouraud)
    /// instead of evaluated per pixel.
    public var interpolatesColor: Bool { self == .coarse }

    public var isExact: Bool { self == .exact }
    public static let kernelName = "mesh"
}
