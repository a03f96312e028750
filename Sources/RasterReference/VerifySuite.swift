import RasterKit

/// One check of `rasterbench verify` and of the cross-backend tests: a job
/// exercising one kernel variant, and the tolerance its result must meet
/// against `Reference.render` of the same job.
public final class VerifyCase: @unchecked Sendable {
    public let name: String
    public let kernel: String
    public let variant: String
    public let variants: VariantSelection
    public let job: Job
    public let tolerance: Tolerance
    private var cachedReference: [Double]?

    public init(name: String, kernel: String, variant: String, variants: VariantSelection = .exact,
                job: Job, tolerance: Tolerance) {
        self.name = name; self.kernel = kernel; self.variant = variant
        self.variants = variants; self.job = job; self.tolerance = tolerance
    }

    /// The reference image, computed once and shared by every backend.
    public func reference() throws -> [Double] {
        if let cachedReference { return cachedReference }
        let r = try Reference.render(job)
        cachedReference = r
        return r
    }

    /// Renders on `backend` and measures the difference.
    public func check(_ backend: any RasterBackend) throws -> ImageDiff {
        let image = try Renderer(backend: backend, variants: variants).render(job)
        return ImageDiff(image.view, reference: try reference())
    }
}

/// The fixed set of verification jobs (seeded, so every run checks the same
/// pixels). Kernels that land later add their cases here.
public enum VerifySuite {
    public static func cases() throws -> [VerifyCase] {
        try freeformCases() + gradientCases() + compositeCases() + fillCases()
    }

    /// Telegram's default palette at its loop's first phase, plus awkward
    /// inputs: off-canvas points, a fractional exponent, and an influence so
    /// short that most pixels fall back to the nearest point.
    static func freeformCases() throws -> [VerifyCase] {
        let w = 150, h = 267 // iphone-6 aspect, small enough for the double reference
        let palette = try ["#7FA381", "#FFF5C5", "#336F55", "#FBE37D"].map(Color.init(hex:))
        let positions = [Point(0.80, 0.10), Point(0.35, 0.25), Point(0.20, 0.90), Point(0.65, 0.75)]
        let telegram = try FreeformGradient(
            points: zip(positions, palette).map { .init(position: Point($0.x * Double(w), $0.y * Double(h)), color: $1) },
            influence: Double(w), exponent: 4)
        var cases: [VerifyCase] = []
        for v in FreeformVariant.allCases {
            var sel = VariantSelection(); sel.freeform = v
            cases.append(VerifyCase(
                name: "telegram \(w)x\(h)", kernel: "freeform", variant: v.rawValue, variants: sel,
                job: try Job(width: w, height: h, ops: [.freeform(telegram)]),
                tolerance: freeformTolerance[v]!))
        }
        var rng = SeededGenerator(seed: 11)
        let offCanvas = try FreeformGradient(
            points: (0..<7).map { _ in .init(position: Point(rng.uniform(-200...300), rng.uniform(-200...300)),
                                             color: rng.color()) },
            influence: 180, exponent: 2.5)
        cases.append(VerifyCase(name: "7 points off-canvas, e=2.5, translucent", kernel: "freeform", variant: "full",
                                job: try Job(width: 97, height: 61, ops: [.freeform(offCanvas)]),
                                tolerance: .exactGradient))
        let sparse = try FreeformGradient(
            points: (0..<3).map { _ in .init(position: Point(rng.uniform(0...120), rng.uniform(0...80)),
                                             color: rng.color(opaque: true)) },
            influence: 12, exponent: 7)
        cases.append(VerifyCase(name: "short influence: nearest-point fallback", kernel: "freeform", variant: "full",
                                job: try Job(width: 121, height: 83, ops: [.freeform(sparse)]),
                                tolerance: .exactGradient))
        return cases
    }

    /// Floors for K1's approximate variants on the Telegram case, set a
    /// little below what they measured when written (see the README's
    /// verify table).
    public static let freeformTolerance: [FreeformVariant: Tolerance] = [
        .full: .exactGradient,
        // measured: max 1, 79.8 dB
        .lut: Tolerance(maxError: 2, minPSNR: 75),
        // measured: max 1, 68.2 dB
        .down2: Tolerance(maxError: 2, minPSNR: 65),
        // measured: max 4, 62.6 dB
        .down4: Tolerance(maxError: 5, minPSNR: 58),
        // measured: max 8, 56.1 dB
        .down8: Tolerance(maxError: 10, minPSNR: 52),
        // measured: max 11, 53.3 dB (a 15x27 source image on this small case)
        .down10: Tolerance(maxError: 13, minPSNR: 50),
    ]

    static func gradientCases() throws -> [VerifyCase] {
        var rng = SeededGenerator(seed: 22)
        func stops(_ n: Int, opaque: Bool) -> [Gradient.Stop] {
            var offsets = (0..<n).map { _ in rng.unit() }.sorted()
            offsets[0] = 0.05; offsets[n - 1] = 0.93
            return offsets.map { Gradient.Stop(offset: $0, color: rng.color(opaque: opaque)) }
        }
        var cases: [VerifyCase] = []
        for extend in ExtendMode.allCases {
            let linear = try Gradient(shape: .linear(start: Point(13.3, 7.1), end: Point(61.7, 90.2)),
                                      stops: stops(4, opaque: true), extend: extend)
            cases.append(VerifyCase(name: "linear 4 stops, \(extend.rawValue)", kernel: "linear", variant: "exact",
                                    job: try Job(width: 131, height: 77, ops: [.gradient(linear)]),
                                    tolerance: .exactGradient))
            let radial = try Gradient(shape: .radial(center: Point(40.5, 30.25), radius: 27.7),
                                      stops: stops(5, opaque: false), extend: extend)
            cases.append(VerifyCase(name: "radial 5 translucent stops, \(extend.rawValue)", kernel: "radial",
                                    variant: "exact",
                                    job: try Job(width: 93, height: 65, background: try Color(hex: "#204060"),
                                                 ops: [.gradient(radial)]),
                                    tolerance: .exactGradient))
        }
        let steep = try Gradient(shape: .linear(start: Point(0, 0), end: Point(0, 200)),
                                 stops: stops(16, opaque: true), extend: .pad)
        cases.append(VerifyCase(name: "vertical linear, 16 stops", kernel: "linear", variant: "exact",
                                job: try Job(width: 33, height: 200, ops: [.gradient(steep)]),
                                tolerance: .exactGradient))
        let degenerate = try Gradient(shape: .radial(center: Point(5, 5), radius: 0), stops: stops(2, opaque: true))
        cases.append(VerifyCase(name: "degenerate radial (r = 0)", kernel: "radial", variant: "exact",
                                job: try Job(width: 17, height: 9, ops: [.gradient(degenerate)]),
                                tolerance: .exactGradient))
        return cases
    }

    static func compositeCases() throws -> [VerifyCase] {
        var rng = SeededGenerator(seed: 33)
        let w = 123, h = 71
        let under = try rng.image(width: w, height: h), over = try rng.image(width: w, height: h)
        return try [1.0, 0.6, 0.0].map { opacity in
            VerifyCase(name: "random over random, opacity \(opacity)", kernel: "composite", variant: "exact",
                       job: try Job(width: w, height: h, ops: [.image(under), .layer(opacity: opacity, ops: [.image(over)])]),
                       tolerance: .exactComposite)
        }
    }
}
