import Foundation

/// A damped spring pulling a point towards a target, SwiftUI's
/// `spring(response:dampingRatio:)`: stiffness k = (2 pi / response)^2 and
/// damping c = 4 pi ratio / response per unit mass,
///
///     x'' = -k (x - target) - c x'
///
/// integrated with a fixed step (1/fps, so the animation depends on the
/// frame index alone) by semi-implicit Euler: v += a dt, then x += v dt.
/// Semi-implicit Euler is symplectic for the undamped part, so it neither
/// gains energy nor drifts; for k dt^2 < 4 (response 1 s at >= 1 fps) it is
/// stable, and the test checks the motion stays bounded over long runs.
public struct Spring: Sendable, Hashable {
    public let stiffness: Double
    public let damping: Double

    public init(response: Double, dampingRatio: Double) {
        stiffness = (2 * Double.pi / response) * (2 * Double.pi / response)
        damping = 4 * Double.pi * dampingRatio / response
    }

    /// The mesh scene of docs/contract.md §5.4: response 1 s, damping ratio 0.5.
    public static let mesh = Spring(response: 1, dampingRatio: 0.5)

    /// One step of `dt` seconds for one coordinate.
    public func step(position x: inout Double, velocity v: inout Double, target: Double, dt: Double) {
        let a = -stiffness * (x - target) - damping * v
        v += a * dt
        x += v * dt
    }

    public func step(position p: inout Point, velocity v: inout Point, target: Point, dt: Double) {
        step(position: &p.x, velocity: &v.x, target: target.x, dt: dt)
        step(position: &p.y, velocity: &v.y, target: target.y, dt: dt)
    }
}
