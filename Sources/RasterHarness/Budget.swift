import RasterKit
/// The time a background may take per frame.
///
/// A frame lasts 1000 / fps ms; the app needs most of it for layout, text and
/// its own drawing, so the background gets a share (25% by default, docs/contract.md
/// §6). A kernel fits when its p95 -- not its median: one frame in
/// twenty over budget is a visible stutter -- is within the share.
public struct Budget: Sendable, Equatable, Codable {
    public let fps: Double
    /// Fraction of the frame, in (0, 1].
    public let share: Double

    public static let defaultShare = 0.25
    /// Accepted refresh rates: from e-ink panels to 240 Hz gaming screens.
    public static let fpsRange = 1.0...480.0

    public init(fps: Double, share: Double = Budget.defaultShare) throws {
        guard fps.isFinite, Budget.fpsRange.contains(fps) else {
            throw HarnessError.invalidArgument(name: "fps", value: "\(fps)", accepted: "1...480")
        }
        guard share.isFinite, share > 0, share <= 1 else {
            throw HarnessError.invalidArgument(name: "share", value: "\(share)", accepted: "0 < share <= 1 (or 1%...100%)")
        }
        self.fps = fps
        self.share = share
    }

    /// The whole frame, milliseconds.
    public var frameMs: Double { 1000 / fps }
    /// The background's part of it, milliseconds.
    public var milliseconds: Double { frameMs * share }

    public func fits(p95Ms: Double) -> Bool { p95Ms <= milliseconds }

    /// Parses a share given as a fraction ("0.25") or a percentage ("25%"), `FractionText`'s rule.
    public static func parseShare(_ text: String, name: String = "share") throws -> Double {
        try FractionText.parse(text, name: name, accepted: "0 < share <= 1, e.g. 0.25 or 25%") { $0 > 0 && $0 <= 1 }
    }

    /// Threads to use by default: the profile's cores, capped by this host's
    /// (more threads than cores only time-slice).
    public static func defaultThreads(profile: DeviceProfile, hostCores: Int) -> Int {
        max(1, min(profile.cores, hostCores))
    }
}

import Foundation
