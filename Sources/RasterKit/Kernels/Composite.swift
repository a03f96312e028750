/// K6, source-over compositing of premultiplied RGBA8 with a global opacity:
///
///     s' = s * opacity
///     d  = s' + d * (1 - s'.a / 255)
///
/// (all four channels, in 8-bit units). Opacity must lie in [0, 1].
public enum Composite {
    public static func validate(opacity: Double) throws {
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw RasterError.invalidArgument(name: "opacity", value: "\(opacity)", accepted: "0...1")
        }
    }

    public static func validateSizes(_ src: ImageView, _ dst: ImageView) throws {
        guard src.width == dst.width, src.height == dst.height else {
            throw RasterError.invalidArgument(
                name: "source size", value: "\(src.width)x\(src.height)",
                accepted: "the destination's \(dst.width)x\(dst.height)")
        }
    }
}
