/// A target device: what a background must fill, how often, with how many
/// cores (docs/contract.md §6).
///
/// On another host a profile is a resolution and a thread count, not a speed
/// promise: the suite is meant to be run on the device itself, and every
/// report says which host measured it.
public struct DeviceProfile: Sendable, Hashable, Codable, CustomStringConvertible {
    public let name: String
    /// Frame size in device pixels.
    public let width: Int
    public let height: Int
    /// Device pixels per point: the scenes' point sizes (blur radius,
    /// offsets) are multiplied by it.
    public let scale: Double
    /// Display refresh rate, frames per second.
    public let fps: Double
    /// CPU cores the device has.
    public let cores: Int
    public let summary: String

    public init(name: String, width: Int, height: Int, scale: Double, fps: Double, cores: Int, summary: String) {
        self.name = name; self.width = width; self.height = height
        self.scale = scale; self.fps = fps; self.cores = cores; self.summary = summary
    }

    public var pixels: Int { width * height }
    public var description: String { "\(name) \(width)x\(height) @\(Int(fps)) \(cores) cores" }

    /// docs/contract.md §6's devices, smallest refresh budget last.
    public static let all: [DeviceProfile] = [
        DeviceProfile(name: "iphone-se1", width: 640, height: 1136, scale: 2, fps: 60, cores: 2,
                      summary: "iPhone SE (1st gen), A9"),
        DeviceProfile.default,
        DeviceProfile(name: "iphone-11", width: 828, height: 1792, scale: 2, fps: 60, cores: 6,
                      summary: "iPhone 11, A13"),
        DeviceProfile(name: "android-go", width: 720, height: 1600, scale: 2, fps: 60, cores: 4,
                      summary: "an Android Go phone, 4 small cores"),
        DeviceProfile(name: "pi-zero-2w", width: 1280, height: 720, scale: 1, fps: 60, cores: 4,
                      summary: "Raspberry Pi Zero 2 W driving a 720p panel"),
        DeviceProfile(name: "promotion-120", width: 1179, height: 2556, scale: 3, fps: 120, cores: 6,
                      summary: "a 120 Hz ProMotion iPhone (15 Pro)"),
    ]

    /// A value rather than a look-up by name, so it cannot fail.
    public static let `default` = DeviceProfile(name: "iphone-6", width: 750, height: 1334, scale: 2, fps: 60, cores: 2,
                                                summary: "iPhone 6, A8")
    public static var defaultName: String { DeviceProfile.default.name }

    /// The profile with the most pixels: the top of the size sweep.
    public static var largest: DeviceProfile { all.max { $0.pixels < $1.pixels }! }

    public static func named(_ name: String) throws -> DeviceProfile {
        guard let p = all.first(where: { $0.name == name }) else {
            throw HarnessError.invalidArgument(name: "profile", value: "'\(name)'",
                                               accepted: all.map(\.name).joined(separator: ", "))
        }
        return p
    }
}
