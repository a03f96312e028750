/// K3, Gaussian blur. PLACEHOLDER owned by the blur issue (#3): only the
/// parameter shape exists so the backend protocol can name it.
public struct GaussianBlur: Sendable, Hashable {
    public let sigma: Double
    public let edge: BlurEdge
    public init(sigma: Double, edge: BlurEdge = .transparent) throws {
        guard sigma.isFinite, sigma > 0, sigma <= 4096 else {
            throw RasterError.invalidArgument(name: "sigma", value: "\(sigma)", accepted: "0 < sigma <= 4096 px")
        }
        self.sigma = sigma
        self.edge = edge
    }
}

public enum BlurEdge: String, CaseIterable, Sendable {
    case transparent, clamp
}

public enum BlurVariant: String, CaseIterable, Sendable, KernelVariant {
    case exact
    public var isExact: Bool { self == .exact }
    public static let kernelName = "blur"
}
