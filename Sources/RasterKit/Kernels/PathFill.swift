/// K4, anti-aliased path fill. PLACEHOLDER owned by the path issue (#4):
/// only the parameter shape exists so the backend protocol can name it.
public struct PathFill: Sendable {
    public var rule: FillRule
    public var color: Color
    public init(rule: FillRule, color: Color) { self.rule = rule; self.color = color }
}

public enum FillRule: String, CaseIterable, Sendable {
    case nonzero, evenodd = "evenodd"
}

public enum FillVariant: String, CaseIterable, Sendable, KernelVariant {
    case exact
    public var isExact: Bool { self == .exact }
    public static let kernelName = "fill"
}
