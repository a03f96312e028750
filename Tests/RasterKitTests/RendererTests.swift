import Foundation
import RasterKit
import RasterReference
import XCTest

final class RendererTests: XCTestCase {
    func testVariantSelectionParsing() throws {
        XCTAssertEqual(try VariantSelection(parsing: "down4").freeform, .down4)
        XCTAssertEqual(try VariantSelection(parsing: "freeform=lut").freeform, .lut)
        XCTAssertEqual(try VariantSelection(parsing: "exact").freeform, .full, "exact is not a freeform variant")
        // K2 by shape; a bare name sets every kernel that has it.
        let radial = try VariantSelection(parsing: "radial=lut")
        XCTAssertEqual([radial.linear, radial.radial], [.exact, .lut])
        let lut = try VariantSelection(parsing: "lut")
        XCTAssertEqual([lut.linear, lut.radial], [.lut, .lut])
        XCTAssertEqual(lut.freeform, .lut)
        XCTAssertEqual(try VariantSelection(parsing: "linear=lut").description,
                       VariantSelection().description + ",linear=lut", "gradients named only when not exact")
        // Every pair the refusal lists as accepted parses.
        for info in KernelCatalog.all {
            for v in info.variants { XCTAssertNoThrow(try VariantSelection(parsing: "\(info.name)=\(v)"), "\(info.name)=\(v)") }
        }
        XCTAssertThrowsError(try VariantSelection(parsing: "down3"))
        XCTAssertThrowsError(try VariantSelection(parsing: "blur=down4x"))
        XCTAssertThrowsError(try VariantSelection(parsing: "nokernel=full"))
    }

    func testBackendNames() throws {
        XCTAssertEqual(try BackendKind(parsing: "openmp"), .openmp)
        XCTAssertThrowsError(try BackendKind(parsing: "cuda"))
        XCTAssertThrowsError(try BackendKind.simd.make(threads: 0))
        XCTAssertThrowsError(try BackendKind.simd.make(threads: 100_000))
    }

    /// A translucent gradient composites over the background instead of replacing it.
    func testTranslucentOpsCompositeOverTheCanvas() throws {
        let stops = [Gradient.Stop(offset: 0, color: try Color(hex: "#FF000080")),
                     Gradient.Stop(offset: 1, color: try Color(hex: "#FF000080"))]
        let g = try Gradient(shape: .linear(start: Point(0, 0), end: Point(4, 0)), stops: stops)
        let job = try Job(width: 4, height: 2, background: try Color(hex: "#0000FF"), ops: [.gradient(g)])
        for kind in BackendKind.allCases {
            let image = try Renderer(backend: kind.make(threads: 2)).render(job)
            XCTAssertEqual(image[1, 1], RGBA8(r: 128, g: 0, b: 127, a: 255), "\(kind)")
        }
    }

    /// A render draws each gradient with the variant selected for its shape.
    func testRendererDrawsEachGradientWithItsShapesVariant() throws {
        let stops = try ["#7FA381", "#FFF5C5", "#336F55"].enumerated().map {
            Gradient.Stop(offset: Double($0.offset) / 2, color: try Color(hex: $0.element))
        }
        let gradients = [try Gradient(shape: .linear(start: Point(0, 0), end: Point(37, 21)), stops: stops),
                         try Gradient(shape: .radial(center: Point(20, 10), radius: 9), stops: stops, extend: .reflect)]
        var lutDiffers = false // else the test could not tell the variants apart
        for kind in BackendKind.allCases {
            for g in gradients {
                var exact: [UInt8] = []
                for selection in ["exact", "linear=lut", "radial=lut", "lut"] {
                    let variants = try VariantSelection(parsing: selection)
                    let job = try Job(width: 40, height: 24, background: try Color(hex: "#000000"), ops: [.gradient(g)])
                    let rendered = try Renderer(backend: kind.make(threads: 2), variants: variants).render(job)
                    let direct = try Image(width: 40, height: 24)
                    try kind.make(threads: 1).gradient(g, variant: variants.variant(for: g), into: direct.view)
                    XCTAssertEqual(rendered.packedBytes, direct.packedBytes, "\(kind) \(selection) \(g.shape)")
                    if selection == "exact" { exact = rendered.packedBytes } else if rendered.packedBytes != exact { lutDiffers = true }
                }
            }
        }
        XCTAssertTrue(lutDiffers)
    }

    /// Re-rendering into the same canvas reuses the renderer's buffers.
    func testSteadyStateReusesScratch() throws {
        let palette = try ["#7FA381", "#FFF5C5"].map(Color.init(hex:))
        let g = try FreeformGradient(points: [.init(position: Point(3, 3), color: palette[0]),
                                              .init(position: Point(60, 40), color: palette[1])], influence: 64)
        var sel = VariantSelection(); sel.freeform = .down4
        let job = try Job(width: 64, height: 48, ops: [.layer(opacity: 0.5, ops: [.freeform(g)])])
        let renderer = Renderer(backend: SIMDBackend(threads: 2), variants: sel)
        let canvas = try Image(width: 64, height: 48)
        try renderer.render(job, into: canvas)
        let held = renderer.scratch.bytesHeld
        let first = canvas.packedBytes
        for _ in 0..<3 { try renderer.render(job, into: canvas) }
        XCTAssertEqual(renderer.scratch.bytesHeld, held)
        XCTAssertEqual(canvas.packedBytes, first)
        XCTAssertThrowsError(try renderer.render(job, into: try Image(width: 63, height: 48)))
    }

    /// Job-level reference and renderer agree on a nested job.
    func testNestedLayersMatchReference() throws {
        let data = Data(##"""
        { "width": 40, "height": 30, "background": "#10203040",
          "ops": [ { "op": "radial", "center": [20, 15], "radius": 18,
                     "stops": [ { "offset": 0, "color": "#FFFFFFC0" }, { "offset": 1, "color": "#00000000" } ] },
                   { "op": "layer", "opacity": 0.5, "ops": [
                       { "op": "freeform", "points": [ { "x": 5, "y": 5, "color": "#FF0000" }, { "x": 35, "y": 25, "color": "#0000FF" } ] },
                       { "op": "layer", "opacity": 0.25, "ops": [
                           { "op": "linear", "start": [0, 0], "end": [40, 0],
                             "stops": [ { "offset": 0, "color": "#00FF0080" }, { "offset": 1, "color": "#FFFF00" } ] } ] } ] } ] }
        """##.utf8)
        let job = try Job.decode(data, baseDirectory: URL(fileURLWithPath: "/"))
        let reference = try Reference.render(job)
        for kind in BackendKind.allCases {
            let image = try Renderer(backend: kind.make(threads: 2)).render(job)
            // Each op rounds to 8 bits; a 1-unit difference in an inner layer
            // can survive one composite, so two is the job-level bound here.
            XCTAssertLessThanOrEqual(ImageDiff(image.view, reference: reference).maxError, 2, "\(kind)")
        }
    }
}
