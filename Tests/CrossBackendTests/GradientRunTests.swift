import CRasterOMP
import RasterKit
import RasterReference
import XCTest

/// K2 drawn as runs (rows split where the stop interval or extend period
/// changes): the run finder as a stage, and the backends' run path against
/// the reference, the per-pixel path and across thread counts.
final class GradientRunTests: XCTestCase {
    /// The stop and extend rules, written out again: (interval, period, mirrored).
    struct PixelClass: Equatable { var interval: Int; var period: Float; var mirrored: Bool }

    static func classify(_ u: Float, _ starts: [Float], _ extend: Int32) -> PixelClass {
        var c = PixelClass(interval: 0, period: 0, mirrored: false)
        var t: Float
        switch extend {
        case 0: t = min(max(u, RASTER_GRADIENT_PAD_LOW), RASTER_GRADIENT_PAD_HIGH)
        case 1: c.period = u.rounded(.down); t = u - c.period
        default:
            c.period = 2 * (u * 0.5).rounded(.down)
            let m = u - c.period
            c.mirrored = m > 1
            t = c.mirrored ? 2 - m : m
        }
        c.interval = starts.lastIndex { $0 <= t } ?? 0
        return c
    }

    static func randomStops(_ rng: inout SeededGenerator) -> [Gradient.Stop] {
        let n = Int(rng.next() % 6) + 2
        var offsets = (0..<n).map { _ in rng.unit() }.sorted()
        // Coincident stops (hard edges) and stops at the ends.
        if rng.coin() { offsets[n / 2] = offsets[(n - 1) / 2] }
        if rng.coin() { offsets[0] = 0; offsets[n - 1] = 1 }
        return offsets.map { Gradient.Stop(offset: $0, color: rng.color()) }
    }

    /// Vectors from a tenth of a pixel (`tiny`; there Float's u over a
    /// canvas of repeats is too coarse for the bound of docs/contract.md §3, whatever the path)
    /// or 3 pixels to a thousand times the canvas.
    static func randomGradient(_ rng: inout SeededGenerator, _ extend: ExtendMode, width: Int, height: Int,
                               tiny: Bool = true) throws -> Gradient {
        let scale = [tiny ? 0.1 : 3, 3, Double(width), 1000 * Double(width)][Int(rng.next() % 4)]
        if rng.coin() {
            let s = Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-0.5...1.5) * Double(height))
            let angle = rng.uniform(0...(2 * Double.pi))
            return try Gradient(shape: .linear(start: s, end: s + Point(cos(angle), sin(angle)) * scale),
                                stops: randomStops(&rng), extend: extend)
        }
        return try Gradient(shape: .radial(center: Point(rng.uniform(-0.5...1.5) * Double(width), rng.uniform(-0.5...1.5) * Double(height)),
                                           radius: scale), stops: randomStops(&rng), extend: extend)
    }

    /// Every class change along a row is a run boundary, and every run
    /// boundary a class change: each crossing found once, none invented.
    func testRunFinderFindsEveryCrossingOnceAndNoOther() throws {
        var rng = SeededGenerator(seed: 0x18_0001)
        var boundaries = 0
        for job in 0..<300 {
            let width = 1 + Int(rng.next() % 300), height = 1 + Int(rng.next() % 40)
            let g = try Self.randomGradient(&rng, ExtendMode.allCases[job % 3], width: width, height: height)
            let starts = g.ramp.starts
            var geometry: (Double, Double, Double)
            let shape: Int32
            switch g.shape {
            case let .linear(s, t):
                let d = t - s, k = 1 / d.dot(d)
                geometry = (d.x * k, d.y * k, (Point(0.5, 0.5) - s).dot(d) * k); shape = 0
            case let .radial(c, r): geometry = (c.x - 0.5, c.y - 0.5, 1 / r); shape = 1
            }
            let extend: Int32 = switch g.extend { case .pad: 0; case .repeat: 1; case .reflect: 2 }
            let y = Int(rng.next() % UInt64(height))
            var row = withUnsafeBytes(of: &geometry) { geo in
                raster_gradient_row_at(shape, extend, starts, Int32(starts.count), Int32(width),
                                       geo.bindMemory(to: Double.self).baseAddress, Int32(y))
            }
            let classes = (0..<width).map { Self.classify(raster_gradient_u(&row, Int32($0)), starts, extend) }
            var expected = Set((1..<max(width, 1)).filter { classes[$0] != classes[$0 - 1] })
            // A radial row also splits where u turns (the centre column).
            if shape == 1, row.mid > 0, row.mid < width { expected.insert(Int(row.mid)) }
            var x = 0, found: [Int] = []
            var span = raster_gradient_span()
            starts.withUnsafeBufferPointer { p in
                row.starts = p.baseAddress
                while x < width {
                    let end = Int(raster_gradient_next_span(&row, Int32(x), &span))
                    XCTAssert(end > x && end <= width, "job \(job): run \(x)..<\(end)")
                    let c = PixelClass(interval: Int(span.interval), period: span.period, mirrored: span.sign < 0)
                    for i in x..<max(end, x) where classes[i] != c {
                        XCTFail("job \(job) \(g.shape) \(g.extend) row \(y): pixel \(i) is \(classes[i]), run \(x)..<\(end) says \(c)")
                        break
                    }
                    if end < width { found.append(end) }
                    x = max(end, x + 1)
                }
            }
            let invented = Set(found).subtracting(expected), missed = expected.subtracting(found)
            XCTAssert(invented.isEmpty && missed.isEmpty && found.count == Set(found).count,
                      "job \(job) \(g.shape) \(g.extend): invented \(invented.sorted()), missed \(missed.sorted())")
            boundaries += found.count
        }
        XCTAssertGreaterThan(boundaries, 300) // the jobs do cross stops
    }

    /// Canvases wide enough for runs, odd sizes, every extend mode: every
    /// backend within the bound of docs/contract.md §3 of the reference and byte-identical at
    /// 1, 2 and 7 threads; openmp's runs equal its per-pixel path (a canvas
    /// too narrow for runs) column for column.
    func testRunsMatchReferenceThreadCountsAndThePerPixelPath() throws {
        var rng = SeededGenerator(seed: 0x18_0002)
        for job in 0..<36 {
            let (w, h) = [(301, 7), (257, 5), (1023, 3), (129, 9)][job % 4]
            let g = try Self.randomGradient(&rng, ExtendMode.allCases[job % 3], width: w, height: h, tiny: false)
            let reference = Reference.gradient(g, width: w, height: h)
            var byKind: [String: [UInt8]] = [:]
            for backend in backendMatrix {
                let image = try paddedImage(width: w, height: h)
                try backend.gradient(g, into: image.view)
                assertWithin(.exactGradient, image.view, reference, "job \(job) \(g.shape) \(g.extend) \(w)x\(h) on \(label(backend))")
                assertPaddingIntact(image)
                if let first = byKind[backend.name] {
                    XCTAssert(first == image.packedBytes, "job \(job): \(label(backend)) differs from 1 thread")
                } else { byKind[backend.name] = image.packedBytes }
            }
            let narrow = 11
            let perPixel = try Image(width: narrow, height: h)
            try BackendKind.openmp.make(threads: 1).gradient(g, into: perPixel.view)
            let runs = byKind["openmp"]!
            for y in 0..<h {
                let a = Array(runs[(4 * w * y)..<(4 * w * y + 4 * narrow)])
                let b = Array(perPixel.packedBytes[(4 * narrow * y)..<(4 * narrow * (y + 1))])
                XCTAssertEqual(a, b, "job \(job) \(g.shape) \(g.extend) row \(y): runs and per-pixel differ")
            }
        }
    }
}
