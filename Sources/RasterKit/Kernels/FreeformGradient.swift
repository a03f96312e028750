/// K1, the freeform ("four-colour") gradient of Telegram's backgrounds.
///
/// For each pixel centre q and point p_i with premultiplied colour c_i:
///
///     d_i = |q - p_i|,  m_i = max(0, 1 - d_i / L),  f_i = m_i^e
///     colour = sum(f_i c_i) / sum(f_i)            if sum(f_i) > 0
///            = colour of the nearest p_i          otherwise (lowest index on ties)
///
/// L is the influence distance and e >= 1 the exponent. The weights are an
/// inverse-distance blend with compact support: each point dominates its own
/// neighbourhood and the colours cross-fade smoothly between points.
///
/// Coordinate space (`space`): in `pixels` (the default) q, p_i and L are in
/// canvas pixels. In `unit` they are in unit coordinates of the canvas,
/// q = ((x + 0.5) / W, (y + 0.5) / H), so distances stretch with the
/// image's aspect (Telegram's renderers work this way).
///
/// Swirl s >= 0 (Telegram iOS's warp; `unit` space only): before the
/// distances, q is rotated about m = (0.5, 0.5) by theta = s |q - m|^2,
///
///     q' = m + (dx cos theta - dy sin theta, dx sin theta + dy cos theta),  (dx, dy) = q - m
///
/// and each coordinate clamped to [0, 1]. Telegram iOS ships s = 0.784,
/// L = 0.92, e = 3. Checked against Telegram's own software renderer
/// (Telegram-iOS submodules/GradientBackground/Sources/
/// SoftwareGradientBackground.swift, `generateGradient`; TelegramSwift's
/// packages/TGUIKit/Sources/SoftwareGradientBackground.swift is the same
/// code): theta = (0.35 |q - m|)^2 * 0.8 * 8 = 0.784 |q - m|^2, the rotation
/// above in the image's row order (y down, as here), then a clamp of each
/// coordinate, and the weight max(0, 0.92 - d)^3, which is 0.92^3 m^3.
/// Two differences that belong to the caller, not to this kernel: Telegram
/// samples at the pixel corner (x / W, y / H), not the centre, and it
/// stores its points at (x, 1 - y) of its position list (a y-up list).
public struct FreeformGradient: Sendable, Hashable {
    public struct Stop: Sendable, Hashable {
        public var position: Point
        public var color: Color
        public init(position: Point, color: Color) { self.position = position; self.color = color }
    }

    /// The C rows keep per-point state in arrays of this size (raster_omp.h).
    public static let maxPoints = Int(RASTER_OMP_FREEFORM_MAX_POINTS)
    public static let maxExponent = 64.0

    public let points: [Stop]
    /// L, in the gradient's space (pixels, or unit coordinates).
    public let influence: Double
    /// e.
    public let exponent: Double
    /// Whether q, the points and L are in pixels or unit coordinates.
    public let space: FreeformSpace
    /// s: the swirl's strength (0: none). Only in `unit` space.
    public let swirl: Double
    /// The points as the backends read them (Float positions and colours),
    /// converted once here so that no kernel call allocates.
    let packedX: [Float], packedY: [Float], packedColors: [SIMD4<Float>]

    /// The largest accepted swirl: theta = s |q - m|^2 stays within
    /// [0, 32] (|q - m|^2 <= 1/2 in unit space), the range over which the
    /// backends' polynomial sin/cos is measured (raster_k1_sincos16).
    public static let maxSwirl = 64.0

    public init(points: [Stop], influence: Double, exponent: Double = 4,
                space: FreeformSpace = .pixels, swirl: Double = 0) throws {
        guard (1...FreeformGradient.maxPoints).contains(points.count) else {
            throw RasterError.invalidArgument(name: "points", value: "\(points.count) points", accepted: "1...\(FreeformGradient.maxPoints)")
        }
        for (i, s) in points.enumerated() {
            try InputRange.requireCoordinate(s.position, "points[\(i)]")
        }
        // Bounded so that d^2 / L^2 stays a finite Float: influence 1e39
        // with a point at 1e20 made it inf * 0 = NaN, which trapped the lut
        // variant's table index (Float -> Int).
        try InputRange.requireLength(influence, "influence", zeroAllowed: false)
        guard exponent.isFinite, exponent >= 1, exponent <= FreeformGradient.maxExponent else {
            throw RasterError.invalidArgument(name: "exponent", value: "\(exponent)", accepted: "1...\(FreeformGradient.maxExponent)")
        }
        guard swirl.isFinite, swirl >= 0, swirl <= FreeformGradient.maxSwirl else {
            throw RasterError.invalidArgument(name: "swirl", value: "\(swirl)", accepted: "0...\(FreeformGradient.maxSwirl)")
        }
        guard swirl == 0 || space == .unit else {
            throw RasterError.invalidArgument(name: "swirl", value: "\(swirl) in pixel space",
                                              accepted: "0, or any swirl with space 'unit'")
        }
        self.points = points
        self.influence = influence
        self.exponent = exponent
        self.space = space
        self.swirl = swirl
        packedX = points.map { Float($0.position.x) }
        packedY = points.map { Float($0.position.y) }
        packedColors = points.map { $0.color.simd }
    }

    /// Calls `body` with the points in the coordinates of a canvas scaled by
    /// `factor` (1 for full resolution, 1/n for the down-scaled variants).
    /// Scaled positions live in stack memory: no allocation per call.
    public func withPoints<R>(scaledBy factor: Double, _ body: (FreeformPoints) throws -> R) rethrows -> R {
        try packedColors.withUnsafeBufferPointer { colors in
            if factor == 1 {
                return try packedX.withUnsafeBufferPointer { px in
                    try packedY.withUnsafeBufferPointer { py in
                        try body(FreeformPoints(x: px, y: py, colors: colors, influence: influence))
                    }
                }
            }
            return try withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * points.count) { buffer in
                for (i, p) in points.enumerated() {
                    buffer[i] = Float(p.position.x * factor)
                    buffer[points.count + i] = Float(p.position.y * factor)
                }
                let px = UnsafeBufferPointer(rebasing: buffer[0..<points.count])
                let py = UnsafeBufferPointer(rebasing: buffer[points.count...])
                return try body(FreeformPoints(x: px, y: py, colors: colors, influence: influence * factor))
            }
        }
    }

    /// Whether the exponent is a small whole number, which backends evaluate
    /// by repeated multiplication instead of `pow`.
    public var integerExponent: Int? {
        exponent == exponent.rounded() && exponent <= 16 ? Int(exponent) : nil
    }
}

/// K1's coordinate spaces (see `FreeformGradient`).
public enum FreeformSpace: String, CaseIterable, Sendable {
    case pixels, unit
}

/// K1's quality/time variants (docs/contract.md §4).
public enum FreeformVariant: String, CaseIterable, Sendable, KernelVariant {
    /// Every pixel evaluated.
    case full
    /// Rendered at 1/n scale, then bilinearly up-sampled: Telegram's own
    /// trick (its clients render about 80x80 and let the GPU scale it).
    /// The small grid is ceil(W/n) x ceil(H/n); its cell i is centred on
    /// frame position (i + 0.5) n, and target centre x + 0.5 reads grid
    /// position (x + 0.5) / n - 0.5 (edge held).
    case down2, down4, down8, down10
    /// The influence curve m^e read from a table indexed by squared
    /// distance, which removes the square root and the power.
    ///
    /// It pays off where the power is dear: for a fractional exponent
    /// (`full` calls powf per lane) it measured 5x faster than `full`
    /// (750x1334, one thread, thread CPU time on a busy AMD EPYC host;
    /// e = 2.5: simd 5.95 vs 28.8 ms, openmp 5.59
    /// vs 31.6 ms). For a whole exponent it is slower than `full` on
    /// AVX2 (e = 4: simd 4.52 vs 2.14 ms, openmp 3.51 vs 1.84 ms): a
    /// vector square root costs about as much as the table's two reads
    /// per lane, which are per-lane loads in Swift SIMD (no gather) and
    /// vgatherdps in C. The chooser sees its measured time like any
    /// variant's, so it is picked only where it wins.
    case lut
    /// Telegram's own size: the frame's aspect fitted in 80 x 80, a grid of
    /// sw x sh with the longer side 80 and the other round(80 short / long)
    /// (at least 1; a frame whose longer side is under 80 keeps its size,
    /// as Telegram's `fitted` never enlarges). See `FreeformGrid` for the
    /// evaluation and up-sampling every grid variant shares.
    case fit80
    /// The 2021 contest's trick: a square grid of ceil(W/10) x ceil(W/10)
    /// stretched over the W x H frame (see `FreeformGrid`).
    case square10

    /// The down-sampling factor of the `downN` variants (1 for the others).
    public var downscale: Int {
        switch self {
        case .full, .lut, .fit80, .square10: return 1
        case .down2: return 2
        case .down4: return 4
        case .down8: return 8
        case .down10: return 10
        }
    }

    public var isExact: Bool { self == .full }
    public static let kernelName = "freeform"
}

/// One call's view of K1's points, in the coordinates of the canvas being
/// rendered (see `FreeformGradient.withPoints`).
public struct FreeformPoints {
    public let x: UnsafeBufferPointer<Float>
    public let y: UnsafeBufferPointer<Float>
    /// Premultiplied (r, g, b, a) in 8-bit units.
    public let colors: UnsafeBufferPointer<SIMD4<Float>>
    /// L in these coordinates.
    public let influence: Double
    public var count: Int { x.count }
}

/// The influence curve of K1's `lut` variant, f(t) = (1 - sqrt(t))^e sampled
/// at t = d^2 / L^2 in [0, 1]. Indexing by squared distance removes both the
/// square root and the power from the per-pixel work; entries are linearly
/// interpolated. 1024 intervals keep the weight error below 0.03 everywhere
/// and below 1e-3 once a pixel is more than L/32 from the point (where the
/// curve's slope in t is no longer steep); `verify` reports the image error.
public enum InfluenceTable {
    public static let intervals = 1024
    /// `intervals + 2` entries: the last two are 0 so that t >= 1 (clamped
    /// to `intervals`) interpolates to exactly 0.
    public static let count = intervals + 2

    public static func fill(_ values: UnsafeMutablePointer<Float>, exponent: Double) {
        for i in 0...intervals {
            let t = Double(i) / Double(intervals)
            values[i] = Float(Foundation.pow(1 - t.squareRoot(), exponent))
        }
        values[intervals + 1] = 0
    }
}

extension Scratch {
    /// The `lut` variant's table for `exponent`, rebuilt only when the
    /// exponent changes (an animation reuses it every frame).
    public func influenceTable(exponent: Double) -> UnsafePointer<Float> {
        let (table, fresh) = buffer(ScratchSlot.influenceTable, count: InfluenceTable.count, of: Float.self, key: exponent)
        if fresh { InfluenceTable.fill(table, exponent: exponent) }
        return UnsafePointer(table)
    }
}

import CRasterOMP
import Foundation
