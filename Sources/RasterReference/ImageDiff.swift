import Foundation
import RasterKit

/// How far an 8-bit image is from a reference, over all channels of all
/// pixels, in 8-bit units. The reference may be unquantised (Double), so a
/// perfect backend still shows up to 0.5 of rounding error against it; the
/// bounds in docs/contract.md §3 are on `maxError` after rounding the reference.
public struct ImageDiff: Sendable, CustomStringConvertible {
    /// Largest |backend - round(reference)|.
    public var maxError: Double
    /// Mean |backend - round(reference)|.
    public var meanError: Double
    /// Peak signal-to-noise ratio against the rounded reference, in dB
    /// (infinite when the two 8-bit images are identical). Against the
    /// rounded reference, not the unrounded one: otherwise the rounding
    /// every 8-bit image carries (1/12 of a step squared) would cap every
    /// backend, exact or not, near 59 dB and hide the variants' real error.
    public var psnr: Double
    /// Where the largest error is: (x, y, channel).
    public var worst: (x: Int, y: Int, channel: Int)
    /// Pixels left out of the comparison (the K7 exclusion of docs/contract.md §2.7), 0 for none.
    public var excluded = 0

    /// Compares `image` with `reference`, planar-free: `reference` holds
    /// width * height * 4 values (r, g, b, a per pixel, premultiplied).
    /// `excluding` (one flag per pixel, true to skip) leaves pixels out of
    /// every statistic.
    public init(_ image: ImageView, reference: [Double], excluding: [Bool]? = nil) {
        precondition(reference.count == image.width * image.height * 4)
        precondition(excluding.map { $0.count == image.width * image.height } ?? true)
        var maxE = 0.0, sumE = 0.0, sumSq = 0.0
        var worst = (x: 0, y: 0, channel: 0)
        var skipped = 0
        for y in 0..<image.height {
            let row = image.row(y)
            for i in 0..<(image.width * 4) {
                if let excluding, excluding[y * image.width + i / 4] {
                    if i % 4 == 0 { skipped += 1 }
                    continue
                }
                let r = reference[y * image.width * 4 + i]
                let v = Double(row[i])
                let e = abs(v - Double(Color.quantize(r)))
                sumE += e
                sumSq += e * e
                if e > maxE { maxE = e; worst = (i / 4, y, i % 4) }
            }
        }
        let n = Double(max(1, (image.width * image.height - skipped) * 4))
        excluded = skipped
        maxError = maxE
        meanError = sumE / n
        let mse = sumSq / n
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        self.worst = worst
    }

    /// Compares two 8-bit images of the same size.
    public init(_ image: ImageView, _ other: ImageView) {
        var ref = [Double](repeating: 0, count: other.width * other.height * 4)
        for y in 0..<other.height {
            for i in 0..<(other.width * 4) { ref[y * other.width * 4 + i] = Double(other.row(y)[i]) }
        }
        self.init(image, reference: ref)
    }

    public var description: String {
        String(format: "max %.0f, mean %.4f, PSNR %@ (worst at x=%d y=%d ch=%d)%@",
               maxError, meanError, psnr.isInfinite ? "inf" : String(format: "%.2f dB", psnr),
               worst.x, worst.y, worst.channel, excluded > 0 ? " (\(excluded) px excluded)" : "")
    }
}
