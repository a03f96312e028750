import RasterKit
import RasterReference
import XCTest

/// K7 on every backend against the double-precision reference (docs/contract.md §3: max
/// <= 3 outside the pixels within 1 px of the boundary curve or a fold),
/// and its stages: the Hermite surface, the tessellation's (u, v) against
/// the reference's preimages, the fold rule.
final class MeshTests: XCTestCase {
    let bound = VerifySuite.meshTolerance[.exact]!

    /// Renders `mesh` over `background` on every backend into padded images
    /// and checks each against the reference outside the exclusion.
    func assertBackendsMatch(_ mesh: MeshGradient, width: Int, height: Int, background: Color = .transparent,
                             _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let canvas = try Image(width: width, height: height)
        canvas.fill(background.rgba8)
        let reference = Reference.over(Reference.meshColors(mesh, width: width, height: height), onto: canvas.view)
        let exclusion = Reference.meshExclusion(mesh, width: width, height: height)
        XCTAssertLessThan(exclusion.filter { $0 }.count, width * height, "\(what): everything excluded", file: file, line: line)
        for backend in backendMatrix {
            let image = try paddedImage(width: width, height: height)
            image.fill(background.rgba8)
            try backend.mesh(mesh, variant: .exact, onto: image.view, scratch: Scratch())
            let d = ImageDiff(image.view, reference: reference, excluding: exclusion)
            XCTAssert(bound.accepts(d), "\(what) on \(label(backend)): \(d) breaks \(bound)", file: file, line: line)
            assertPaddingIntact(image, file: file, line: line)
        }
    }

    /// Affine grids: the surface is the affine map itself (Catmull-Rom
    /// reproduces it), so the tessellation is one segment per cell and the
    /// (u, v) the raster interpolates is already exact.
    func testAffineGridsAreReproducedExactly() throws {
        for (c, r, w, h) in [(2, 2, 31, 17), (3, 5, 64, 48), (7, 4, 97, 61)] {
            let origin = Point(3.25, 2.5), du = Point(Double(w - 6) / Double(c - 1), 1.5), dv = Point(-2, Double(h - 6) / Double(r - 1))
            let m = try MeshFixtures.grid(columns: c, rows: r, origin: origin, du: du, dv: dv, seed: UInt64(c * 10 + r))
            // Stage: every patch's position is the affine map (power basis, Float).
            m.coefficients.withUnsafeBufferPointer { coeff in
                for j in 0..<(r - 1) {
                    for i in 0..<(c - 1) {
                        for (s, t) in [(0.0, 0.0), (0.3, 0.7), (1.0, 0.5), (0.9, 1.0)] {
                            let p = MeshShade.position(coeff.baseAddress! + (j * (c - 1) + i) * 96, Float(s), Float(t))
                            let e = origin + du * (Double(i) + s) + dv * (Double(j) + t)
                            XCTAssertEqual(Double(p.x), e.x, accuracy: 1e-3)
                            XCTAssertEqual(Double(p.y), e.y, accuracy: 1e-3)
                        }
                    }
                }
            }
            // Stage: one segment per cell, and the raster's (u, v) is the inverse affine map.
            let scratch = Scratch()
            let lattice = MeshLattice(m, tolerance: MeshVariant.exact.tolerance, width: w, height: h, scratch: scratch)
            XCTAssertEqual(lattice.nu, c)
            XCTAssertEqual(lattice.nv, r)
            let (pu, pv) = rasterPlanes(lattice, width: w, height: h)
            defer { pu.deallocate(); pv.deallocate(); withExtendedLifetime(scratch) {} }
            let det = du.x * dv.y - du.y * dv.x
            var covered = 0
            for y in 0..<h {
                for x in 0..<w where pv[y * w + x] >= 0 {
                    covered += 1
                    let q = Point(Double(x) + 0.5, Double(y) + 0.5) - origin
                    let u = (q.x * dv.y - q.y * dv.x) / det, v = (du.x * q.y - du.y * q.x) / det
                    XCTAssertEqual(Double(pu[y * w + x]), u, accuracy: 1e-4, "\(c)x\(r) at \(x),\(y)")
                    XCTAssertEqual(Double(pv[y * w + x]), v, accuracy: 1e-4, "\(c)x\(r) at \(x),\(y)")
                }
            }
            XCTAssertGreaterThan(covered, w * h / 2)
            try assertBackendsMatch(m, width: w, height: h, "affine \(c)x\(r)")
        }
    }

    /// Curved grids (vertices jittered by up to 0.35 of a cell), 2 x 2 to
    /// 32 x 32, odd sizes, translucent colours over a background.
    func testCurvedGrids() throws {
        let background = try Color(hex: "#40506080")
        for (c, r, w, h, seed) in [(2, 2, 23, 41, 1), (4, 3, 77, 53, 2), (8, 8, 101, 99, 3), (32, 32, 129, 131, 4), (5, 17, 61, 140, 5)] {
            let du = Point(Double(w) * 0.9 / Double(c - 1), 2), dv = Point(-3, Double(h) * 0.9 / Double(r - 1))
            let m = try MeshFixtures.grid(columns: c, rows: r, origin: Point(Double(w) * 0.06, Double(h) * 0.04), du: du, dv: dv,
                                          jitter: 0.35, opaque: seed % 2 == 0, seed: UInt64(seed))
            try assertBackendsMatch(m, width: w, height: h, background: background, "curved \(c)x\(r) on \(w)x\(h)")
        }
    }

    /// A mesh larger than the canvas (most of it off-canvas on every side)
    /// and one entirely off-canvas (nothing painted).
    func testMeshesOffCanvas() throws {
        let big = try MeshFixtures.grid(columns: 4, rows: 4, origin: Point(-80, -60), du: Point(70, 10), dv: Point(-8, 60),
                                        jitter: 0.3, seed: 9)
        try assertBackendsMatch(big, width: 57, height: 43, "partly off-canvas")
        let away = try MeshFixtures.grid(columns: 3, rows: 3, origin: Point(500, -400), du: Point(50, 0), dv: Point(0, 50), seed: 10)
        for backend in backendMatrix {
            let image = try Image(width: 20, height: 10)
            image.fill(RGBA8(r: 1, g: 2, b: 3, a: 4))
            try backend.mesh(away, variant: .exact, onto: image.view, scratch: Scratch())
            XCTAssertEqual(image.packedBytes, Array(repeating: [1, 2, 3, 4], count: 200).flatMap { $0 }, label(backend))
        }
    }

    /// The folded grid: the reference finds two or three preimages where the
    /// surface overlaps itself; the raster's winner is the reference's
    /// (largest v, then largest u) away from the folds; every backend holds
    /// the bound outside the exclusion.
    func testFoldRule() throws {
        let (w, h) = (101, 83)
        let m = try MeshFixtures.folded(width: w, height: h)
        let pre = Reference.meshPreimages(m, width: w, height: h)
        let exclusion = Reference.meshExclusion(m, width: w, height: h)
        let scratch = Scratch() // owns the lattice's memory: keep it alive
        let lattice = MeshLattice(m, tolerance: MeshVariant.exact.tolerance, width: w, height: h, scratch: scratch)
        let (pu, pv) = rasterPlanes(lattice, width: w, height: h)
        defer { pu.deallocate(); pv.deallocate(); withExtendedLifetime(scratch) {} }
        var multiple = 0
        for y in 0..<h {
            for x in 0..<w where !exclusion[y * w + x] {
                let roots = pre.roots(x, y)
                guard let winner = pre.winner(x, y) else {
                    XCTAssertLessThan(pv[y * w + x], 0, "\(x),\(y) has no preimage but was covered")
                    continue
                }
                if roots.count > 1 { multiple += 1 }
                XCTAssertEqual(winner, roots.max { ($0.y, $0.x) < ($1.y, $1.x) })
                // The raster picked the same sheet: its (u, v) is near the winner, not another root.
                XCTAssertEqual(Double(pu[y * w + x]), winner.x, accuracy: 0.05, "\(x),\(y) roots \(roots)")
                XCTAssertEqual(Double(pv[y * w + x]), winner.y, accuracy: 0.05, "\(x),\(y) roots \(roots)")
            }
        }
        XCTAssertGreaterThan(multiple, w * h / 20, "the fixture must overlap itself")
        try assertBackendsMatch(m, width: w, height: h, "folded")
    }

    /// Stage: the power-basis patches (Float, what backends evaluate) and the
    /// reference's Bezier patches (Double) both equal the formula of docs/contract.md §2.7 written
    /// out directly: Hermite basis, Catmull-Rom derivatives, zero twist.
    func testHermiteMatchesDirectFormula() throws {
        let m = try MeshFixtures.grid(columns: 4, rows: 3, origin: Point(10, 5), du: Point(40, 3), dv: Point(-4, 30),
                                      jitter: 0.3, opaque: false, seed: 21)
        func vertex(_ i: Int, _ j: Int) -> [Double] {
            let p = m.position(i, j), c = m.color(i, j)
            return [p.x, p.y, c.r, c.g, c.b, c.a]
        }
        func d(_ i: Int, _ j: Int, alongU: Bool) -> [Double] {
            let n = alongU ? m.columns : m.rows, k = alongU ? i : j
            func at(_ k: Int) -> [Double] { alongU ? vertex(k, j) : vertex(i, k) }
            let (a, b, scale) = k == 0 ? (at(1), at(0), 1.0) : k == n - 1 ? (at(n - 1), at(n - 2), 1.0) : (at(k + 1), at(k - 1), 0.5)
            return zip(a, b).map { ($0 - $1) * scale }
        }
        func h(_ s: Double) -> [Double] { [1 - 3 * s * s + 2 * s * s * s, 3 * s * s - 2 * s * s * s, s - 2 * s * s + s * s * s, s * s * s - s * s] }
        for j in 0..<2 {
            for i in 0..<3 {
                let patch = ReferenceMeshPatch(m, i: i, j: j)
                for (s, t) in [(0.0, 0.0), (0.25, 0.5), (0.8, 0.1), (1.0, 1.0), (0.5, 0.95)] {
                    let hs = h(s), ht = h(t)
                    var direct = [Double](repeating: 0, count: 6)
                    for a in 0..<2 {
                        for b in 0..<2 {
                            let v = vertex(i + a, j + b), vu = d(i + a, j + b, alongU: true), vv = d(i + a, j + b, alongU: false)
                            for ch in 0..<6 {
                                direct[ch] += hs[a] * ht[b] * v[ch] + hs[a + 2] * ht[b] * vu[ch] + hs[a] * ht[b + 2] * vv[ch]
                            }
                        }
                    }
                    let bezier = patch.value(s, t)
                    m.coefficients.withUnsafeBufferPointer { coeff in
                        let cell = coeff.baseAddress! + (j * 3 + i) * 96
                        for ch in 0..<6 {
                            XCTAssertEqual(bezier[ch], direct[ch], accuracy: 1e-9, "bezier cell \(i),\(j) ch \(ch)")
                            let power = Double(MeshShade.value(cell + 16 * ch, Float(s), Float(t)))
                            XCTAssertEqual(power, direct[ch], accuracy: 2e-3 * max(1, abs(direct[ch])), "power cell \(i),\(j) ch \(ch)")
                        }
                    }
                }
            }
        }
    }

    /// Stage: on a curved grid the raster's (u, v) maps to within the
    /// tessellation tolerance of each pixel centre, and after the Newton step
    /// to within 0.01 px: the (u, v) the colour is evaluated at is the
    /// reference's preimage.
    func testTessellationAgainstPreimages() throws {
        let (w, h) = (90, 70)
        let m = try MeshFixtures.grid(columns: 4, rows: 4, origin: Point(5, 4), du: Point(27, 4), dv: Point(-3, 21),
                                      jitter: 0.3, seed: 31)
        let pre = Reference.meshPreimages(m, width: w, height: h)
        let exclusion = Reference.meshExclusion(m, width: w, height: h)
        let scratch = Scratch() // owns the lattice's memory: keep it alive
        let lattice = MeshLattice(m, tolerance: MeshVariant.exact.tolerance, width: w, height: h, scratch: scratch)
        let (pu, pv) = rasterPlanes(lattice, width: w, height: h)
        defer { pu.deallocate(); pv.deallocate(); withExtendedLifetime(scratch) {} }
        let patches = (0..<3).flatMap { j in (0..<3).map { i in ReferenceMeshPatch(m, i: i, j: j) } }
        var checked = 0, worstRaw = 0.0, worstRefined = 0.0
        m.coefficients.withUnsafeBufferPointer { coeff in
            for y in 0..<h {
                for x in 0..<w where !exclusion[y * w + x] {
                    guard let winner = pre.winner(x, y) else { continue }
                    XCTAssertGreaterThanOrEqual(pv[y * w + x], 0, "\(x),\(y) has a preimage but was not covered")
                    guard pv[y * w + x] >= 0 else { continue }
                    checked += 1
                    let u = pu[y * w + x], v = pv[y * w + x]
                    let (i, s) = MeshShade.cell(u, 3), (j, t) = MeshShade.cell(v, 3)
                    let q = SIMD2<Double>(Double(x) + 0.5, Double(y) + 0.5)
                    let raw = patches[j * 3 + i].position(Double(s), Double(t)).p
                    worstRaw = max(worstRaw, ((raw - q) * (raw - q)).sum().squareRoot())
                    let (s1, t1) = MeshShade.refine(coeff.baseAddress! + (j * 3 + i) * 96, s, t, q: SIMD2<Float>(q), i: i, j: j, cc: 3, cr: 3)
                    let refined = patches[j * 3 + i].position(Double(s1), Double(t1)).p
                    worstRefined = max(worstRefined, ((refined - q) * (refined - q)).sum().squareRoot())
                    XCTAssertEqual(Double(i) + Double(s1), winner.x, accuracy: 1e-3)
                    XCTAssertEqual(Double(j) + Double(t1), winner.y, accuracy: 1e-3)
                }
            }
        }
        XCTAssertGreaterThan(checked, w * h / 2)
        XCTAssertLessThanOrEqual(worstRaw, Double(MeshVariant.exact.tolerance) + 1e-3, "tessellation chords")
        XCTAssertLessThanOrEqual(worstRefined, 0.01, "after the Newton step")
    }

    /// Results must not depend on the thread count (byte-identical), for
    /// both variants, with quads spanning many strips and bands.
    func testThreadCountsAreByteIdentical() throws {
        let meshes = [
            try MeshFixtures.scene(width: 75, height: 133, centre: Point(9, -7)),
            try MeshFixtures.grid(columns: 9, rows: 6, origin: Point(-10, -5), du: Point(11, 1), dv: Point(-1, 27), jitter: 0.4, seed: 41),
            try MeshFixtures.folded(width: 75, height: 133),
        ]
        for m in meshes {
            for v in MeshVariant.allCases {
                for kind in [BackendKind.simd, .openmp] {
                    var first: [UInt8]?
                    for t in [1, 2, 7] {
                        let image = try Image(width: 75, height: 133)
                        image.fill(RGBA8(r: 10, g: 20, b: 30, a: 255))
                        try kind.make(threads: t).mesh(m, variant: v, onto: image.view, scratch: Scratch())
                        if let first { XCTAssertTrue(first == image.packedBytes, "\(kind) \(v) at \(t) threads differs") } else { first = image.packedBytes }
                    }
                }
            }
        }
    }

    /// A scratch reused across frames (and across meshes of other sizes) gives the same image as a fresh one.
    func testScratchReuse() throws {
        let a = try MeshFixtures.grid(columns: 6, rows: 6, origin: Point(0, 0), du: Point(12, 0), dv: Point(0, 9), jitter: 0.3, seed: 51)
        let b = try MeshFixtures.scene(width: 64, height: 48, centre: Point(5, 5))
        for backend in backendMatrix {
            let scratch = Scratch()
            for m in [a, b, a] {
                let reused = try Image(width: 64, height: 48), fresh = try Image(width: 64, height: 48)
                try backend.mesh(m, variant: .exact, onto: reused.view, scratch: scratch)
                try backend.mesh(m, variant: .exact, onto: fresh.view, scratch: Scratch())
                XCTAssertTrue(reused.packedBytes == fresh.packedBytes, "\(label(backend)): reused scratch differs")
            }
        }
    }

    func testRejectsBadInput() {
        let p4 = [Point(0, 0), Point(1, 0), Point(0, 1), Point(1, 1)], c4 = [Color](repeating: .transparent, count: 4)
        XCTAssertThrowsError(try MeshGradient(columns: 1, rows: 4, positions: p4, colors: c4))
        XCTAssertThrowsError(try MeshGradient(columns: 33, rows: 2, positions: Array(repeating: Point(0, 0), count: 66),
                                              colors: Array(repeating: .transparent, count: 66)))
        XCTAssertThrowsError(try MeshGradient(columns: 2, rows: 2, positions: Array(p4.prefix(3)), colors: c4))
        XCTAssertThrowsError(try MeshGradient(columns: 2, rows: 2, positions: p4, colors: Array(c4.prefix(3))))
        XCTAssertThrowsError(try MeshGradient(columns: 2, rows: 2, positions: [Point(.nan, 0)] + p4.dropFirst(), colors: c4))
        XCTAssertThrowsError(try MeshGradient(columns: 2, rows: 2, positions: [Point(0, .infinity)] + p4.dropFirst(), colors: c4))
        XCTAssertThrowsError(try MeshGradient(columns: 2, rows: 2, positions: [Point(0, 2e6)] + p4.dropFirst(), colors: c4))
        XCTAssertThrowsError(try MeshGradient(columns: 2, rows: 2, positions: p4,
                                              colors: [Color(premultipliedR: .nan, g: 0, b: 0, a: 0)] + c4.dropFirst()))
        XCTAssertNoThrow(try MeshGradient(columns: 2, rows: 32, positions: Array(repeating: Point(0, 0), count: 64),
                                          colors: Array(repeating: .transparent, count: 64)))
    }

    /// The raster pass alone over the whole image (as the naive backend runs it).
    func rasterPlanes(_ lattice: MeshLattice, width: Int, height: Int) -> (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) {
        let n = width * height
        let pu = UnsafeMutablePointer<Float>.allocate(capacity: n), pv = UnsafeMutablePointer<Float>.allocate(capacity: n)
        pu.update(repeating: 0, count: n)
        pv.update(repeating: MeshRaster.empty, count: n)
        let raster = MeshRaster(lattice: lattice, width: width, originRow: 0, planeU: pu, planeV: pv)
        for q in 0..<((lattice.nu - 1) * (lattice.nv - 1)) { raster.quad(q, rows: 0..<height) }
        return (pu, pv)
    }
}

extension MeshTests {
    /// The Gouraud `coarse` variant within its measured floor on a curved
    /// grid over a background, on every backend, padding untouched.
    func testCoarseWithinItsFloor() throws {
        let floor = VerifySuite.meshTolerance[.coarse]!
        let (w, h) = (97, 71)
        let m = try MeshFixtures.grid(columns: 4, rows: 3, origin: Point(4, 3), du: Point(30, 2), dv: Point(-2, 32),
                                      jitter: 0.25, opaque: false, seed: 61)
        let canvas = try Image(width: w, height: h)
        canvas.fill(RGBA8(r: 30, g: 40, b: 50, a: 255))
        let reference = Reference.over(Reference.meshColors(m, width: w, height: h), onto: canvas.view)
        let exclusion = Reference.meshExclusion(m, width: w, height: h)
        for backend in backendMatrix {
            let image = try paddedImage(width: w, height: h)
            image.fill(RGBA8(r: 30, g: 40, b: 50, a: 255))
            try backend.mesh(m, variant: .coarse, onto: image.view, scratch: Scratch())
            let d = ImageDiff(image.view, reference: reference, excluding: exclusion)
            XCTAssert(floor.accepts(d), "coarse on \(label(backend)): \(d) breaks \(floor)")
            assertPaddingIntact(image)
        }
    }
}
