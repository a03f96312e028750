/// The finite inputs K1 and K2 compute correctly in Float, checked by the
/// kernels' initialisers (so library users get a thrown `RasterError`, and
/// the job decoder reports it with its JSON path) instead of letting a
/// value beyond Float's range reach a backend as inf or NaN (docs/contract.md
/// §10: "finite values outside what the kernels compute correctly").
///
/// Why these numbers: Float carries 24 bits. Coordinates within +-1e6 px
/// keep a pixel centre's distance to a point exact to 1/16 px; lengths of at
/// least 1e-3 px keep 1/length and u finite in Float (1e-50 px made u
/// infinite and repeat's u - floor(u) NaN); lengths up to 1e7 px keep
/// 1/length a normal Float. See README, "Accepted input".
public enum InputRange {
    /// |x| and |y| of gradient start/end/centre and freeform points (pixels).
    public static let maxCoordinate = 1e6
    /// The shortest non-zero gradient vector or radius, and the smallest
    /// freeform influence (pixels).
    public static let minLength = 1e-3
    /// The longest gradient radius and the largest freeform influence.
    public static let maxLength = 1e7
    /// Stops closer than this (after rounding each offset to Float) are
    /// coincident: a ramp between them would have a slope beyond Float's
    /// range (stops 1e-39 apart gave inf - inf = NaN colours). 2^-20.
    public static let minStopGap = 0x1p-20

    public static let coordinateText = "coordinates within +-1e6 px"
    public static let lengthText = "1e-3...1e7 px"

    /// Throws unless both coordinates are finite and within +-`maxCoordinate`.
    public static func requireCoordinate(_ p: Point, _ name: @autoclosure () -> String) throws {
        guard p.x.isFinite, p.y.isFinite, abs(p.x) <= maxCoordinate, abs(p.y) <= maxCoordinate else {
            throw RasterError.invalidArgument(name: name(), value: "(\(p.x), \(p.y))", accepted: coordinateText)
        }
    }

    /// Throws unless `length` is in minLength...maxLength (or exactly 0 when
    /// `zeroAllowed`: the degenerate geometry docs/contract.md §2.2 defines).
    public static func requireLength(_ length: Double, _ name: @autoclosure () -> String, zeroAllowed: Bool) throws {
        if zeroAllowed, length == 0 { return }
        guard length.isFinite, length >= minLength, length <= maxLength else {
            throw RasterError.invalidArgument(name: name(), value: "\(length)",
                                              accepted: zeroAllowed ? "0 or \(lengthText)" : lengthText)
        }
    }
}
