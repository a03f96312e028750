/// A point or vector in canvas pixels, y down. Double precision so that job
/// coordinates up to +-1e7 survive until a kernel clips them.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
    public func dot(_ o: Point) -> Double { x * o.x + y * o.y }
    public var length: Double { (x * x + y * y).squareRoot() }
    public var isFinite: Bool { x.isFinite && y.isFinite }
    public var description: String { "(\(x), \(y))" }
}
