import Dispatch

/// How long a command may keep rendering: a cooperative deadline that
/// `Renderer` checks before each op (and commands between frames and
/// stages). A job's time is not estimated up front (it depends on the
/// kernel, variant, backend and host: 50 exact sigma-4096 blurs of a 2000^2
/// canvas, a 2 KB job, ran 114 s), so the limit stops the work instead, in
/// two ways: an op whose floor (`OpFloor`: the least time it can take on
/// any host) does not fit in the time left is refused before it starts,
/// and an op that starts runs to its end. So a command stops, with an error
/// and writing nothing, at most one op past the limit, and that op could
/// have finished in time on a fast enough host.
public struct TimeBudget: Sendable, CustomStringConvertible {
    public let seconds: Double
    private let deadline: UInt64

    /// The longest a limit may be (a day); 0 is "no limit" on the command
    /// line, so is not a budget.
    public static let maxSeconds = 86_400.0
    public static let acceptedText = "seconds in 0...86400 (0: no limit), e.g. 120"

    /// A budget of `seconds` from now.
    public init(seconds: Double) throws {
        guard seconds.isFinite, seconds > 0, seconds <= TimeBudget.maxSeconds else {
            throw RasterError.invalidArgument(name: "maxSeconds", value: "\(seconds)", accepted: TimeBudget.acceptedText)
        }
        self.seconds = seconds
        deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    }

    public var description: String { "\(seconds) s" }

    /// Throws once the deadline has passed.
    public func check() throws {
        guard DispatchTime.now().uptimeNanoseconds <= deadline else {
            throw RasterError.invalidArgument(name: "maxSeconds", value: "still rendering after \(self)",
                                              accepted: "at most \(self) (raise it, or 0 for no limit)")
        }
    }

    /// Throws if the deadline has passed or an op of this floor, in seconds,
    /// started now, could not end before it.
    public func check(floor seconds: Double, of what: @autoclosure () -> String) throws {
        try check()
        let left = (Double(deadline) - Double(DispatchTime.now().uptimeNanoseconds)) / 1e9
        guard seconds <= left else {
            throw RasterError.invalidArgument(
                name: "maxSeconds", value: "\(what()) needs at least \(Self.format(seconds)) s on any host",
                accepted: "at most \(self), of which \(Self.format(max(left, 0))) s are left (raise it, or 0 for no limit)")
        }
    }

    private static func format(_ seconds: Double) -> String { String(format: "%.3g", seconds) }
}
