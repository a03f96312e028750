import Foundation
import RasterKit

/// K7 meshes used by `verify`, the tests and the benchmark suite.
public enum MeshFixtures {
    /// The `mesh` scene palette of docs/contract.md §5.4, row-major.
    public static let scenePalette = ["#FF3B30", "#AF52DE", "#5856D6", "#FF9500", "#FFFFFF", "#007AFF",
                                      "#FFCC00", "#34C759", "#00C7BE"]

    /// The `mesh` scene's 3 x 3 grid at rest (vertices at 0, 1/2 and 1 of
    /// the frame) with its centre displaced by `centre` pixels.
    public static func scene(width: Int, height: Int, centre: Point = Point(0, 0)) throws -> MeshGradient {
        let w = Double(width), h = Double(height)
        var points: [Point] = []
        for j in 0..<3 { for i in 0..<3 { points.append(Point(w * Double(i) / 2, h * Double(j) / 2)) } }
        points[4] = points[4] + centre
        return try MeshGradient(columns: 3, rows: 3, positions: points, colors: scenePalette.map(Color.init(hex:)))
    }

    /// A C x R grid: vertex (i, j) at origin + i * du + j * dv, displaced by
    /// up to `jitter` cell widths at random (0: an affine grid), with random colours.
    public static func grid(columns: Int, rows: Int, origin: Point, du: Point, dv: Point, jitter: Double = 0,
                            opaque: Bool = true, seed: UInt64) throws -> MeshGradient {
        var rng = SeededGenerator(seed: seed)
        var points: [Point] = []
        for j in 0..<rows {
            for i in 0..<columns {
                let p = origin + du * Double(i) + dv * Double(j)
                points.append(p + du * rng.uniform(-jitter...jitter) + dv * rng.uniform(-jitter...jitter))
            }
        }
        let colors = (0..<(columns * rows)).map { _ in rng.color(opaque: opaque) }
        return try MeshGradient(columns: columns, rows: rows, positions: points, colors: colors)
    }

    /// A 3 x 3 grid whose middle column is pushed past the right one: the
    /// surface folds over itself, so pixels there have two or three
    /// preimages and the fold rule of docs/contract.md §2.7 chooses. Rows are tilted so that the
    /// sheets' v differ where they overlap (with level rows both sheets would
    /// have the same v and the rule would be decided by rounding).
    public static func folded(width: Int, height: Int, seed: UInt64 = 5) throws -> MeshGradient {
        var rng = SeededGenerator(seed: seed)
        let w = Double(width), h = Double(height)
        let xs = [0.1 * w, 0.85 * w, 0.6 * w]
        var points: [Point] = []
        for j in 0..<3 { for i in 0..<3 { points.append(Point(xs[i] + 0.05 * w * Double(j), (0.1 + 0.35 * Double(j) + 0.1 * Double(i)) * h)) } }
        return try MeshGradient(columns: 3, rows: 3, positions: points, colors: (0..<9).map { _ in rng.color(opaque: true) })
    }
}

extension VerifySuite {
    /// K7: the mesh scene's grid at rest with a displaced centre (every
    /// variant), then exact-only awkward meshes: a curved 5 x 4 grid with
    /// translucent colours over a background and partly off-canvas, a fold,
    /// and a 32 x 32 grid on an odd-sized canvas.
    static func meshCases() throws -> [VerifyCase] {
        let w = 150, h = 267
        let scene = try MeshFixtures.scene(width: w, height: h, centre: Point(14, -9))
        var cases: [VerifyCase] = []
        for v in MeshVariant.allCases {
            var sel = VariantSelection(); sel.mesh = v
            cases.append(VerifyCase(name: "scene 3x3, centre displaced, \(w)x\(h)", kernel: "mesh", variant: v.rawValue,
                                    variants: sel, job: try Job(width: w, height: h, ops: [.mesh(scene)]),
                                    tolerance: meshTolerance[v]!))
        }
        let curved = try MeshFixtures.grid(columns: 5, rows: 4, origin: Point(-20, 10), du: Point(35, 6), dv: Point(-5, 30),
                                           jitter: 0.3, opaque: false, seed: 71)
        cases.append(VerifyCase(name: "curved 5x4, translucent, off-canvas", kernel: "mesh", variant: "exact",
                                job: try Job(width: 121, height: 97, background: try Color(hex: "#203040"), ops: [.mesh(curved)]),
                                tolerance: meshTolerance[.exact]!))
        cases.append(VerifyCase(name: "folded 3x3", kernel: "mesh", variant: "exact",
                                job: try Job(width: 101, height: 83, ops: [.mesh(try MeshFixtures.folded(width: 101, height: 83))]),
                                tolerance: meshTolerance[.exact]!))
        let large = try MeshFixtures.grid(columns: 32, rows: 32, origin: Point(3, 2), du: Point(4.1, 0.3), dv: Point(-0.2, 3.7),
                                          jitter: 0.2, seed: 72)
        cases.append(VerifyCase(name: "32x32 grid, 133x119", kernel: "mesh", variant: "exact",
                                job: try Job(width: 133, height: 119, ops: [.mesh(large)]),
                                tolerance: meshTolerance[.exact]!))
        return cases
    }

    /// docs/contract.md §3 for the exact variant (outside the excluded pixels); a
    /// measured floor for `coarse`.
    public static let meshTolerance: [MeshVariant: Tolerance] = [
        .exact: Tolerance(maxError: 3),
        // measured: max 7, mean 0.30, 51.8 dB on every backend (a 150x267
        // frame: cells of 75x133 px get 7 segments, triangles ~11x19 px)
        .coarse: Tolerance(maxError: 9, minPSNR: 49),
    ]
}
