import RasterKit

/// Which naive rows cost seconds a frame, known before measuring: an exact
/// Gaussian blur of a wide sigma (2 ceil(4 sigma) + 1 taps per pixel and
/// pass, in scalar code). At iphone-6 the aurora blur (sigma 120) is about
/// 1.9e9 taps, 8.4 s a frame on naive; at half scale 2.4e8, 1.1 s. Nothing
/// else on naive takes a third of a second. `run --quick` leaves these out.
public enum NaiveCost {
    /// Taps of an exact blur above which a naive frame takes about half a
    /// second or more (4.4 ns a tap here).
    public static let slowTaps = 1e8

    /// Taps of an exact blur of a `width` x `height` image.
    public static func blurTaps(width: Int, height: Int, sigma: Double) -> Double {
        Double(width) * Double(height) * (2 * (4 * sigma).rounded(.up) + 1) * 2
    }

    /// The exact blurs' taps of a job drawn at `scale` (lengths and sizes
    /// shrink with the scale, so taps go with its cube). Layers blur a
    /// canvas of their own size.
    public static func blurTaps(_ job: Job, scale: Double) -> Double {
        func taps(_ ops: [JobOp], width: Int, height: Int) -> Double {
            ops.reduce(0) { sum, op in
                switch op {
                case let .blur(b): return sum + blurTaps(width: width, height: height, sigma: b.sigma)
                case let .layer(_, inner): return sum + taps(inner, width: width, height: height)
                case let .scaledLayer(w, h, _, inner): return sum + taps(inner, width: w, height: h)
                default: return sum
                }
            }
        }
        return taps(job.ops, width: job.width, height: job.height) * scale * scale * scale
    }
}
