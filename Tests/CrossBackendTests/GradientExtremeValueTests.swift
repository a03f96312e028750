import RasterKit
import RasterReference
import XCTest

/// Values beyond Float's range or precision: seeded random
/// K2 jobs drawn from extreme values (coordinates at +-1e6 and beyond, radii
/// from 1e-50 to 1e8, stops 1e-39 apart or coincident, offsets 1 - 1e-16),
/// every backend at 1/2/7 threads against the reference.
///
/// A value outside `InputRange` must be refused with a typed error. An
/// accepted job must match the reference within the 1 level of docs/contract.md §3 at a
/// parameter within Float's resolution of the exact one: the backend's
/// colour must lie within 1 of the reference's colours over
/// [u - delta, u + delta], delta = 2^-18 * M, where M is the largest |u| on
/// the canvas (and 1) — the backends compute u in Float from terms up to M,
/// so no Float implementation can place u closer. Where that window spans a
/// repeat/reflect period the pixel is unconstrained (counted, and the test
/// requires most pixels to be constrained, so it cannot pass vacuously).
final class GradientExtremeValueTests: XCTestCase {
    static let jobs = 400

    func testRandomExtremeValueJobsMatchTheReferenceOrAreRefused() throws {
        var rng = SeededGenerator(seed: 0x13_0004)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func coordinate() -> Double {
            pick([rng.uniform(-30...60), 1e6, -1e6, 999_999.75, -999_999.5, 1e-30, -1e-300, 0, 8.25,
                  rng.uniform(-1e6...1e6), rng.uniform(-1e3...1e3), 1e308, -1e30, 1.000001e6, 5e-324])
        }
        func length() -> Double {
            pick([1e-3, 1.0001e-3, 0.5, rng.uniform(0.5...60), 1e7, 1e6, 0, 3e-3, 1e-50, 1e-4, 1e8, 1e300])
        }
        func stops() -> [Gradient.Stop] {
            var offsets: [Double] = []
            for _ in 0..<(2 + Int(rng.next() % 5)) {
                let prev = offsets.last ?? 0
                offsets.append(min(1, pick([0, 1, 1e-39, 1e-12, prev + 1e-39, prev + 0x1p-20, prev + 0x1p-19, prev + 3e-6, prev,
                                            rng.unit(), 0.9999999999999999, 1 - 1e-7, 0.5, prev + rng.unit() * (1 - prev)])))
            }
            return offsets.map { Gradient.Stop(offset: $0, color: rng.color()) }
        }

        var accepted = 0, refused = 0, constrained = 0, unconstrained = 0
        for job in 0..<GradientExtremeValueTests.jobs {
            let w = 3 + Int(rng.next() % 14), h = 1 + Int(rng.next() % 9)
            let shape: Gradient.Shape = rng.coin()
                ? .linear(start: Point(coordinate(), coordinate()), end: Point(coordinate(), coordinate()))
                : .radial(center: Point(coordinate(), coordinate()), radius: length())
            let extend = pick(ExtendMode.allCases)
            let g: Gradient
            do { g = try Gradient(shape: shape, stops: stops(), extend: extend) } catch {
                guard case RasterError.invalidArgument = error else { return XCTFail("job \(job): \(error)") }
                XCTAssertFalse("\(error)".contains("\n"))
                refused += 1
                continue
            }
            accepted += 1
            let window = Window(g, width: w, height: h)
            for (bi, backend) in backendMatrix.enumerated() {
                let image = try Image(width: w, height: h)
                try backend.gradient(g, into: image.view)
                var failures = 0
                for y in 0..<h {
                    for x in 0..<w {
                        guard let (lo, hi) = window.range(x, y) else {
                            if bi == 0 { unconstrained += 1 }
                            continue
                        }
                        if bi == 0 { constrained += 1 }
                        let p = image[x, y]
                        let v = SIMD4<Double>(Double(p.r), Double(p.g), Double(p.b), Double(p.a))
                        if any(v .< lo - 1) || any(v .> hi + 1) {
                            failures += 1
                            if failures == 1 {
                                XCTFail("job \(job) \(g.shape) \(extend) stops \(g.stops.map(\.offset)) \(w)x\(h) on \(label(backend)): "
                                        + "pixel (\(x), \(y)) = \(p), reference range \(lo)...\(hi)")
                            }
                        }
                    }
                }
            }
        }
        print("extreme K2 jobs: \(accepted) accepted, \(refused) refused; pixels constrained \(constrained), unconstrained \(unconstrained)")
        // The pools give both outcomes, and the comparison is not vacuous.
        XCTAssertGreaterThan(accepted, GradientExtremeValueTests.jobs / 4)
        XCTAssertGreaterThan(refused, GradientExtremeValueTests.jobs / 10)
        XCTAssertGreaterThan(constrained, 4 * unconstrained, "constrained \(constrained), unconstrained \(unconstrained)")
    }

    /// The reference's colours over a pixel's window of u.
    struct Window {
        let g: Gradient
        let delta: Double
        let u: (Double, Double) -> Double

        init(_ g: Gradient, width: Int, height: Int) {
            self.g = g
            switch g.shape {
            case let .linear(s, t):
                let d = t - s
                u = { x, y in s == t ? 0 : (Point(x, y) - s).dot(d) / d.dot(d) }
            case let .radial(c, r):
                u = { x, y in r == 0 ? 0 : (Point(x, y) - c).length / r }
            }
            let w = Double(width), h = Double(height)
            let m = [u(0, 0), u(w, 0), u(0, h), u(w, h), 1].map(abs).max()!
            delta = 0x1p-18 * m
        }

        func range(_ x: Int, _ y: Int) -> (SIMD4<Double>, SIMD4<Double>)? {
            let last = g.stops[g.stops.count - 1].color.components
            if g.isDegenerate { return (last, last) }
            let u0 = u(Double(x) + 0.5, Double(y) + 0.5)
            // Only an input the decoder should have refused gets here (e.g.
            // with InputRange's checks removed): leave it to other pixels.
            guard u0.isFinite, delta.isFinite else { return nil }
            let a = u0 - delta, b = u0 + delta
            var points = [a, u0, b]
            let offsets = g.stops.map(\.offset)
            switch g.extend {
            case .pad:
                points += offsets
            case .repeat, .reflect:
                guard delta < 0.25 else { return nil }
                for n in stride(from: (a / 2).rounded(.down) - 1, through: (b / 2).rounded(.up) + 1, by: 1) {
                    for o in offsets + [0, 1] { points += [2 * n + o, 2 * n - o, 2 * n + 1 + o, 2 * n + 1 - o] }
                }
            }
            var lo = SIMD4<Double>(repeating: .infinity), hi = -lo
            for p in points where p >= a && p <= b {
                for q in [p.nextDown, p, p.nextUp] where q >= a && q <= b {
                    let c = Reference.gradientColor(g, parameter: q)
                    lo = pointwiseMin(lo, c); hi = pointwiseMax(hi, c)
                }
            }
            return (lo, hi)
        }
    }
}
