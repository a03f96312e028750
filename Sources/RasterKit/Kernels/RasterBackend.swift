/// One computing engine for every kernel (docs/contract.md §3).
///
/// The maths of each kernel is defined once, in its parameter type's doc
/// comment and in `RasterReference`; a backend is a *schedule* of that maths
/// (Halide's split): scalar loops, Swift SIMD lanes and threads, or C with
/// OpenMP. All backends must produce the reference's image within the bounds of
/// docs/contract.md §3 at any thread count, and a backend that cannot run a kernel or a
/// variant throws `RasterError.unsupported` instead of delegating elsewhere.
///
/// Kernels that *generate* colour (K1, K2) overwrite every pixel of `dst`;
/// kernels that *draw* (K4, K6) composite source-over onto it.
public protocol RasterBackend: Sendable {
    var kind: BackendKind { get }
    /// The thread count the caller asked for.
    var threads: Int { get }

    /// K1: writes the freeform gradient into every pixel of `dst`.
    func freeform(_ gradient: FreeformGradient, variant: FreeformVariant, into dst: ImageView, scratch: Scratch) throws

    /// K2: writes the linear or radial gradient into every pixel of `dst`.
    func gradient(_ gradient: Gradient, variant: GradientVariant, into dst: ImageView) throws

    /// K6: composites `src` source-over onto `dst` with a global opacity in [0, 1].
    func composite(_ src: ImageView, onto dst: ImageView, opacity: Double) throws

    /// K3: blurs `image` in place.
    func blur(_ blur: GaussianBlur, variant: BlurVariant, image: ImageView, scratch: Scratch) throws

    /// K4: fills a path with a solid colour, source-over onto `dst`.
    func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws

    /// K7: paints the mesh gradient source-over onto `dst` (pixels whose
    /// centre has no preimage are left untouched).
    func mesh(_ mesh: MeshGradient, variant: MeshVariant, onto dst: ImageView, scratch: Scratch) throws

    /// Bilinear resampling of a whole image into `dst` (any sizes): the
    /// up-sampling step of a scene rendered at a reduced render scale.
    /// Target pixel centre x + 0.5 reads source position
    /// (x + 0.5) * src.width / dst.width - 0.5 (likewise y), with the edge
    /// value held beyond the outermost source centres; every channel is
    /// interpolated on the premultiplied values and rounded to nearest.
    /// Down-sampling is the same plain bilinear (two taps per axis, no
    /// pre-filter), so beyond a factor of 2 it skips source pixels and
    /// aliases; it is meant for up-sampling a reduced render scale. The
    /// double-precision reference is `Reference.resample`; every backend is
    /// within 1 of it.
    func resample(_ src: ImageView, into dst: ImageView, scratch: Scratch) throws

    /// K5: the Liquid article's tangent control points, two per anchor
    /// (`out.count == 2 * anchors.count`).
    func controlPoints(_ anchors: UnsafeBufferPointer<SIMD2<Float>>, into out: UnsafeMutableBufferPointer<SIMD2<Float>>) throws
}

extension RasterBackend {
    public var name: String { kind.rawValue }

    /// K2's exact variant.
    public func gradient(_ gradient: Gradient, into dst: ImageView) throws {
        try self.gradient(gradient, variant: .exact, into: dst)
    }
}

/// The three backends, by the name used on the command line.
public enum BackendKind: String, CaseIterable, Sendable {
    case naive, simd, openmp

    public var summary: String {
        switch self {
        case .naive: return "plain scalar Swift loops, one thread: the baseline"
        case .simd: return "Swift SIMD vectors, parallel across row bands"
        case .openmp: return OpenMPBackend.isParallel
            ? "C99 with OpenMP pragmas (libomp)"
            : "C99 built WITHOUT OpenMP: runs single-threaded"
        }
    }

    /// Builds a backend; `threads` must lie in 1...maxThreads.
    public func make(threads: Int = 1) throws -> any RasterBackend {
        guard (1...BackendKind.maxThreads).contains(threads) else {
            throw RasterError.invalidArgument(name: "threads", value: "\(threads)", accepted: "1...\(BackendKind.maxThreads)")
        }
        switch self {
        case .naive: return NaiveBackend()
        case .simd: return SIMDBackend(threads: threads)
        case .openmp: return OpenMPBackend(threads: threads)
        }
    }

    public static let maxThreads = 256

    public init(parsing name: String) throws {
        guard let kind = BackendKind(rawValue: name) else {
            throw RasterError.invalidArgument(
                name: "backend", value: "'\(name)'", accepted: BackendKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = kind
    }
}

/// A named variant of one kernel: its quality/time trade-off (docs/contract.md §4).
public protocol KernelVariant: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {
    /// The kernel's command-line name.
    static var kernelName: String { get }
    /// True for the variant that must match the reference within the bounds of
    /// docs/contract.md §3; the others are measured, not bound.
    var isExact: Bool { get }
}
