/// Where a K1 variant evaluates the gradient, and how its values reach the frame.
///
/// `full` and `lut` evaluate every pixel of the W x H frame. The grid
/// variants evaluate K1 (`FreeformGradient`'s maths, unchanged) on an
/// sw x sh grid whose cell (i, j) stands for frame position
/// ((i + 0.5) stepX, (j + 0.5) stepY) — in pixel space that position is the
/// sample point itself, in unit space it maps to unit coordinates as every
/// frame position does (divided by W and H) — and then bilinearly
/// up-sample the grid to W x H along `columns` and `rows`:
/// - `downN`: sw = ceil(W/N), sh = ceil(H/N), step N; target centre x + 0.5
///   reads grid position (x + 0.5) / N - 0.5.
/// - `fit80`, `square10`: step W/sw and H/sh; target centre x + 0.5 reads
///   grid position (x + 0.5) sw / W - 0.5, the mapping of `resample`.
/// Beyond the outermost grid centres the edge value is held. The up-sampling
/// stays in Float (no 8-bit rounding in between).
public struct FreeformGrid: Sendable, Hashable {
    /// The evaluation grid (the frame itself for `full` and `lut`).
    public let width: Int, height: Int
    /// The up-sampling to the frame along x and y (nil: the grid is the frame).
    public let columns: BilinearAxis?, rows: BilinearAxis?
    /// The points (and L) are multiplied by this before evaluation: 1/N for
    /// the pixel-space `downN` variants, which evaluate on the down-scaled
    /// canvas (q = i + 0.5, the arithmetic they have always used), else 1.
    public let pointScale: Double
    /// Sample position of cell (i, j) in the points' coordinates (after
    /// `pointScale`): q = ((i + 0.5) sampleX, (j + 0.5) sampleY).
    public let sampleX: Double, sampleY: Double

    /// Telegram's box for `fit80` and the contest's divisor for `square10`.
    public static let fitBox = 80
    public static let squareDivisor = 10

    public init(_ gradient: FreeformGradient, variant: FreeformVariant, width W: Int, height H: Int) {
        let unit = gradient.space == .unit
        var stepX = 1.0, stepY = 1.0
        switch variant {
        case .full, .lut:
            width = W; height = H
            columns = nil; rows = nil
        case .down2, .down4, .down8, .down10:
            let n = variant.downscale
            width = (W + n - 1) / n; height = (H + n - 1) / n
            columns = BilinearAxis(factor: n, source: width, target: W)
            rows = BilinearAxis(factor: n, source: height, target: H)
            stepX = Double(n); stepY = Double(n)
        case .fit80, .square10:
            (width, height) = variant == .fit80
                ? FreeformGrid.fitted(width: W, height: H, box: FreeformGrid.fitBox)
                : FreeformGrid.square(width: W, divisor: FreeformGrid.squareDivisor)
            columns = BilinearAxis(source: width, target: W)
            rows = BilinearAxis(source: height, target: H)
            stepX = Double(W) / Double(width); stepY = Double(H) / Double(height)
        }
        if unit {
            pointScale = 1
            sampleX = stepX / Double(W); sampleY = stepY / Double(H)
        } else if variant.downscale > 1 {
            pointScale = 1 / stepX
            sampleX = 1; sampleY = 1
        } else {
            pointScale = 1
            sampleX = stepX; sampleY = stepY
        }
    }

    /// The frame's aspect fitted in box x box: the longer side `box`, the
    /// other round(box short / long), at least 1. A frame whose longer side
    /// is at most `box` keeps its size. (Telegram iOS computes its size in
    /// points with two floors, CGSize.fitted(80 x 80).integralFloor; that
    /// gives the same 45 x 80 for a 375 x 667 pt iPhone 6 and one less on
    /// the short side where the ratio rounds up, e.g. 36 x 80 for
    /// 414 x 896 pt where this gives 37 x 80.)
    public static func fitted(width: Int, height: Int, box: Int) -> (width: Int, height: Int) {
        let long = max(width, height), short = min(width, height)
        guard long > box else { return (width, height) }
        let side = max(1, Int((Double(box) * Double(short) / Double(long)).rounded()))
        return width >= height ? (box, side) : (side, box)
    }

    /// The contest's square grid: ceil(W / divisor) on both sides.
    public static func square(width: Int, divisor: Int) -> (width: Int, height: Int) {
        let n = max(1, (width + divisor - 1) / divisor)
        return (n, n)
    }
}

/// One axis of a bilinear up- or down-sampling from `source` samples to
/// `target` pixels. Target centre i + 0.5 reads source position
/// (i + 0.5) source / target - 0.5 (the mapping of `resample` and of the
/// fitted grids), or (i + 0.5) / factor - 0.5 for the `downN` variants'
/// integer factor (whose grid may overhang the frame by less than a cell).
/// Positions are clamped to the outermost source centres (edge held).
public struct BilinearAxis: Sendable, Hashable {
    public let source: Int, target: Int
    /// The `downN` variants' integer factor; nil for the ratio mapping.
    public let factor: Int?

    public init(source: Int, target: Int) {
        self.source = source; self.target = target; factor = nil
    }

    public init(factor: Int, source: Int, target: Int) {
        self.source = source; self.target = target; self.factor = factor
    }

    /// Lower source index and the weight of the next one (0 at the last).
    @inline(__always)
    public func tap(_ i: Int) -> (index: Int, weight: Float) {
        if let factor {
            // Float, as the downN variants always computed it (their images
            // are kept bit for bit).
            let pos = max(0, (Float(i) + 0.5) / Float(factor) - 0.5)
            let i0 = min(Int(pos), source - 1)
            let w = min(pos - Float(i0), 1)
            return (i0, i0 + 1 < source ? w : 0)
        }
        let pos = max(0, (Double(i) + 0.5) * Double(source) / Double(target) - 0.5)
        let i0 = min(Int(pos), source - 1)
        let w = Float(min(pos - Double(i0), 1))
        return (i0, i0 + 1 < source ? w : 0)
    }

    /// Every tap of the axis into `index` and `weight` (`target` entries each).
    public func fill(index: UnsafeMutablePointer<Int32>, weight: UnsafeMutablePointer<Float>) {
        for i in 0..<target {
            let (k, w) = tap(i)
            index[i] = Int32(k); weight[i] = w
        }
    }
}
