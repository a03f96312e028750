import Foundation
import RasterKit

extension Reference {
    /// K3 as docs/contract.md §2.3 defines it: separable convolution of each
    /// premultiplied channel with the normalised Gaussian truncated at
    /// ceil(4 sigma), in Double, horizontal pass then vertical pass with no
    /// rounding in between. Outside the image: 0 (`transparent`) or the
    /// nearest edge pixel (`clamp`). The weights are computed here from the
    /// formula, independently of RasterKit's `GaussianWeights`.
    public static func blur(_ image: ImageView, _ blur: GaussianBlur) -> [Double] {
        let w = image.width, h = image.height
        let r = Int((4 * blur.sigma).rounded(.up))
        var taps = (0...r).map { k in exp(-Double(k * k) / (2 * blur.sigma * blur.sigma)) }
        let total = taps[0] + 2 * taps.dropFirst().reduce(0, +)
        taps = taps.map { $0 / total }
        let clamp = blur.edge == .clamp

        // weights[k + r] = taps[|k|], for k in -r...r.
        let weights = (-r...r).map { taps[abs($0)] }

        // One line (n samples) convolved: out[i] = sum_{|k| <= r} taps[|k|] line[i + k],
        // indices outside [0, n) skipped (transparent) or clamped. The terms
        // are added in order of k, whichever loop adds them: the indices
        // below the line (clamped to its first sample), those in it, those
        // above it (clamped to its last).
        func convolve(_ line: [Double]) -> [Double] {
            let n = line.count
            var out = [Double](repeating: 0, count: n)
            weights.withUnsafeBufferPointer { wt in
                line.withUnsafeBufferPointer { src in
                    for i in 0..<n {
                        let lo = max(-r, -i), hi = min(r, n - 1 - i)
                        var s = 0.0
                        if clamp { for k in stride(from: -r, to: lo, by: 1) { s += wt[k + r] * src[0] } }
                        if lo <= hi { for k in lo...hi { s += wt[k + r] * src[i + k] } }
                        if clamp { for k in stride(from: hi + 1, through: r, by: 1) { s += wt[k + r] * src[n - 1] } }
                        out[i] = s
                    }
                }
            }
            return out
        }

        // Rows, then columns, spread over the cores: each line's sums are
        // the same whatever thread makes them, so the result is the same
        // bytes as one thread's; a wide sigma's reference took seconds.
        var plane = [Double](repeating: 0, count: w * h * 4)
        plane.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let p = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: h) { y in
                let row = image.row(y)
                for c in 0..<4 {
                    let out = convolve((0..<w).map { Double(row[4 * $0 + c]) })
                    for x in 0..<w { p[(y * w + x) * 4 + c] = out[x] }
                }
            }
            DispatchQueue.concurrentPerform(iterations: w) { x in
                for c in 0..<4 {
                    let out = convolve((0..<h).map { p[($0 * w + x) * 4 + c] })
                    for y in 0..<h { p[(y * w + x) * 4 + c] = out[y] }
                }
            }
        }
        return plane
    }
}
