/// How the renderer draws a layer that ends in a wide blur (a renderer
/// variant, chosen like a kernel's with `--variant layer=quarter`).
///
/// A Gaussian of sigma >= 16 px passes almost nothing above a quarter of the
/// sampling rate of a 4x smaller image (its response at 1/8 cycle per
/// full-size pixel is exp(-2 pi^2 sigma^2 / 64) < 1e-30), so drawing the
/// layer's content at 1/4 resolution and blurring it there by sigma/4 loses
/// only what the blur would have removed; the bilinear up-sampling of the
/// result adds its own small error. The quality column measures the whole.
public enum LayerVariant: String, CaseIterable, Sendable, KernelVariant {
    /// Layers drawn at the canvas's resolution.
    case full
    /// A layer whose last op is a blur of sigma >= `minSigma` drawn at 1/4
    /// resolution (its geometry scaled, sigma / 4), then resampled.
    case quarter

    public static let minSigma = 16.0
    public static let reduction = 4

    public var isExact: Bool { self == .full }
    public static let kernelName = "layer"
}
