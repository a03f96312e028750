import CRasterOMP

/// K2, linear and radial gradients.
///
/// A parameter u is computed per pixel centre q:
///
///     linear:  u = dot(q - s, t - s) / |t - s|^2
///     radial:  u = |q - c| / r
///
/// then the extend mode maps u into [0, 1] (pad clamps, repeat takes the
/// fractional part, reflect folds every other period; pad leaves u as it is),
/// giving t, and the colour follows one rule for every t:
///
///     t <  o_0:                     c_0 (before the first stop, its colour)
///     otherwise, k = the LAST stop with o_k <= t:
///         k == n - 1:               c_{n-1} (from the last stop on, its colour)
///         else:                     lerp(c_k, c_{k+1}, (t - o_k) / (o_{k+1} - o_k))
///
/// So where stops coincide at o, t < o interpolates towards the first of
/// them and t >= o away from the last of them; beyond the last offset (even
/// 1, with pad) the last stop's colour wins, as CSS does. Pad needs no clamp
/// of its own: the rule pads (backends clamp u to [-1, 2], which keeps every
/// comparison with offsets in [0, 1] and keeps lane arithmetic finite).
/// Degenerate geometry (s == t, r == 0) paints the last stop's colour.
public struct Gradient: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        case linear(start: Point, end: Point)
        case radial(center: Point, radius: Double)
    }

    public struct Stop: Sendable, Hashable {
        public var offset: Double
        public var color: Color
        public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
    }

    public static let maxStops = Int(RASTER_GRADIENT_MAX_STOPS)

    public let shape: Shape
    /// Stops with offsets made non-decreasing (an offset smaller than the one
    /// before it is raised to it, as CSS does), and closer than `InputRange.minStopGap` to the one before made coincident.
    public let stops: [Stop]
    public let extend: ExtendMode
    /// The stops as affine pieces, computed once here so that no kernel call
    /// allocates.
    public let ramp: GradientRamp
    /// The `lut` variant's table, built with the gradient.
    public let table: GradientTable

    /// The length a linear gradient's vector is checked by: s != t whose
    /// difference underflows when squared is not 0 (not degenerate).
    static func vectorLength(_ s: Point, _ t: Point) -> Double {
        let d = t - s
        return s == t ? 0 : max(d.length, abs(d.x), abs(d.y))
    }

    public init(shape: Shape, stops: [Stop], extend: ExtendMode = .pad) throws {
        guard (2...Gradient.maxStops).contains(stops.count) else {
            throw RasterError.invalidArgument(name: "stops", value: "\(stops.count) stops", accepted: "2...\(Gradient.maxStops)")
        }
        switch shape {
        case let .linear(s, t):
            try InputRange.requireCoordinate(s, "start")
            try InputRange.requireCoordinate(t, "end")
            try InputRange.requireLength(Gradient.vectorLength(s, t), "|end - start|", zeroAllowed: true)
        case let .radial(c, r):
            try InputRange.requireCoordinate(c, "center")
            try InputRange.requireLength(r, "radius", zeroAllowed: true)
        }
        var previous = 0.0
        var normalised: [Stop] = []
        for (i, stop) in stops.enumerated() {
            guard stop.offset.isFinite, (0...1).contains(stop.offset) else {
                throw RasterError.invalidArgument(name: "stops[\(i)].offset", value: "\(stop.offset)", accepted: "0...1")
            }
            // A gap below minStopGap is closed (the stops become coincident:
            // a hard edge), so that no ramp is steeper than Float can hold
            // and the reference sees the stops the backends see.
            var offset = max(previous, stop.offset)
            if offset - previous < InputRange.minStopGap, i > 0 { offset = previous }
            previous = offset
            normalised.append(Stop(offset: offset, color: stop.color))
        }
        self.shape = shape
        self.stops = normalised
        self.extend = extend
        self.ramp = GradientRamp(normalised)
        self.table = GradientTable(ramp)
    }

    /// True when the geometry cannot define u (s == t or r == 0).
    public var isDegenerate: Bool {
        switch shape {
        case let .linear(s, t): return s == t
        case let .radial(_, r): return r == 0
        }
    }

    public var isOpaque: Bool { stops.allSatisfy { $0.color.isOpaque } }
}

/// How u outside [0, 1] is mapped back into it.
public enum ExtendMode: String, CaseIterable, Sendable {
    case pad, `repeat`, reflect
}

/// Precomputed per-interval colour ramps shared by the fast backends.
///
/// Between stops k and k+1 the colour is affine in u: colour = u * slope_k +
/// bias_k. Storing (slope, bias) per interval turns the per-pixel search for
/// "the two stops around u" into one compare per stop and a fused multiply-add.
public struct GradientRamp: Sendable, Hashable {
    /// Offsets at which each interval starts (interval 0 starts at -inf: the
    /// pad colour before the first stop).
    public var starts: [Float] = []
    public var slopes: [SIMD4<Float>] = []
    public var biases: [SIMD4<Float>] = []

    init(_ stops: [Gradient.Stop]) {
        // Before the first stop: constant first colour.
        starts.append(-.infinity)
        slopes.append(.zero)
        biases.append(stops[0].color.simd)
        for k in 0..<(stops.count - 1) {
            let a = stops[k], b = stops[k + 1]
            let width = b.offset - a.offset
            guard width > 0 else { continue } // a hard stop: no interval of its own
            let ca = a.color.components, cb = b.color.components
            let slope = (cb - ca) / width
            let bias = ca - slope * a.offset
            starts.append(Float(a.offset))
            slopes.append(SIMD4<Float>(slope))
            biases.append(SIMD4<Float>(bias))
        }
        // From the last stop on: constant last colour.
        starts.append(Float(stops[stops.count - 1].offset))
        slopes.append(.zero)
        biases.append(stops[stops.count - 1].color.simd)
        flat = slopes.map { $0 == .zero }
        packed = biases.map { b in
            // raster_quantize's rule: clamp, then round half up.
            let q = (0..<4).map { UInt32(min(max(b[$0], 0), 255) + 0.5) }
            return q[0] | q[1] << 8 | q[2] << 16 | q[3] << 24
        }
    }

    /// Per interval: whether its colour is constant (a run of it is a fill),
    /// and that colour packed as RGBA8 words are.
    public var flat: [Bool] = []
    public var packed: [UInt32] = []
}
