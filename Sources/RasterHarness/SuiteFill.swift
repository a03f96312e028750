import Foundation
import RasterKit
import RasterReference

extension Suite {
    /// K4 on the two workloads, scaled to the profile's frame: a
    /// liquid blob (8 anchors through K5, radius 300 px at 750 wide) and a
    /// field of 200 five-pointed even-odd stars (outer radius 40 px),
    /// every variant, quality against the double-precision reference.
    /// A fill composites onto the frame, so the timed runs draw over the
    /// previous run's result (same work each time); the quality run starts
    /// from the fixture's background. Not bandwidth-bound as a whole (edge
    /// work dominates the stars; the blob's interior is plain stores).
    public static let fill = SuiteEntry(
        name: FillVariant.kernelName,
        summary: "K4 path fill: liquid blob (8 anchors, K5) and 200 even-odd stars; exact, ss4/16, tol0.05/0.25/1",
        workloads: { r in
            let shapes = try Fixtures.fillShapes(width: r.width, height: r.height)
            let variants = r.exactOnly ? FillVariant.allCases.filter(\.isExact) : FillVariant.allCases
            return shapes.flatMap { shape in
                variants.map { variant in
                    var w = r.workload(kernel: FillVariant.kernelName, variant: variant.rawValue) {
                        let backend = try r.makeBackend()
                        let image = try Image(width: r.width, height: r.height)
                        image.fill(Fixtures.fillBackground)
                        let scratch = Scratch()
                        let view = image.view
                        let run = { try backend.fill(shape.fill, variant: variant, onto: view, scratch: scratch) }
                        return WorkloadInstance(owning: [image, scratch], body: run, output: {
                            view.fill(Fixtures.fillBackground)
                            try run()
                            return view
                        })
                    }
                    w.parameters = "shape=\(shape.name)"
                    w.work = KernelWork.fill(shape.fill, width: r.width, height: r.height)
                    if r.withQuality {
                        w.reference = ReferenceSource(key: "fill \(shape.name) \(r.width)x\(r.height)") {
                            let background = try Image(width: r.width, height: r.height)
                            background.fill(Fixtures.fillBackground)
                            return Reference.fill(shape.fill, onto: background.view)
                        }
                    }
                    return w
                }
            }
        })
}

extension Fixtures {
    /// The canvas K4's workloads draw on (opaque, so every pixel is defined).
    public static let fillBackground = RGBA8(r: 11, g: 16, b: 32, a: 255)

    /// K4's shapes at a frame size: lengths scale with width / 750.
    public static func fillShapes(width: Int, height: Int) throws -> [(name: String, fill: PathFill)] {
        let scale = Double(width) / 750
        var rng = SeededGenerator(seed: 4)
        // The liquid blob: one random angle per eighth of the circle, radius
        // 300 px with a little wobble, control points from K5 (in Double).
        let anchors = (0..<8).map { i -> Point in
            let angle = (Double(i) + rng.unit()) / 8 * 2 * Double.pi
            let radius = 300 * scale * (0.9 + 0.1 * rng.unit())
            return Point(Double(width) / 2 + radius * cos(angle), Double(height) / 2 + radius * sin(angle))
        }
        let blob = try ControlPoints.closedPath(anchors: anchors, controls: Reference.controlPoints(anchors))
        // 200 pentagrams ({5/2} star polygons, so even-odd leaves their centres empty).
        var stars = Path()
        for _ in 0..<200 {
            let cx = Double(width) * rng.unit(), cy = Double(height) * rng.unit()
            let turn = 2 * Double.pi * rng.unit(), radius = 40 * scale
            for k in 0..<5 {
                let a = turn + Double(k * 2 % 5) * 2 * Double.pi / 5
                let p = Point(cx + radius * cos(a), cy + radius * sin(a))
                k == 0 ? stars.move(to: p) : stars.line(to: p)
            }
            stars.close()
        }
        let green = Color(straightR: 0x32, g: 0xCB, b: 0x54)
        let gold = Color(straightR: 0xFF, g: 0xD7, b: 0x00)
        return [
            ("blob", try PathFill(path: blob, rule: .nonzero, color: green)),
            ("stars", try PathFill(path: stars, rule: .evenodd, color: gold)),
        ]
    }
}
