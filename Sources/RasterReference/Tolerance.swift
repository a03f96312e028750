/// What "the same image as the reference" means for one kernel and variant.
///
/// Exact variants carry docs/contract.md §3's bounds. Approximate variants carry
/// a floor measured when they were written (a regression guard: a variant
/// that silently got worse fails `verify` and the tests), never the exact
/// kernel's bound.
public struct Tolerance: Sendable, CustomStringConvertible {
    public var maxError: Double
    public var meanError: Double?
    public var minPSNR: Double?

    public init(maxError: Double, meanError: Double? = nil, minPSNR: Double? = nil) {
        self.maxError = maxError; self.meanError = meanError; self.minPSNR = minPSNR
    }

    /// docs/contract.md §3: K1, K2, K6.
    public static let exactGradient = Tolerance(maxError: 1)
    public static let exactComposite = Tolerance(maxError: 1)
    /// docs/contract.md §3: K3's exact variant.
    public static let exactBlur = Tolerance(maxError: 2)

    public func accepts(_ d: ImageDiff) -> Bool {
        d.maxError <= maxError
            && (meanError.map { d.meanError <= $0 } ?? true)
            && (minPSNR.map { d.psnr >= $0 } ?? true)
    }

    public var description: String {
        var parts = ["max <= \(Int(maxError))"]
        if let meanError { parts.append("mean <= \(meanError)") }
        if let minPSNR { parts.append("PSNR >= \(minPSNR) dB") }
        return parts.joined(separator: ", ")
    }
}
