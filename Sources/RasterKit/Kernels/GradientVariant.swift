import CRasterOMP

/// K2's variants (linear and radial alike).
public enum GradientVariant: String, CaseIterable, Sendable, Hashable {
    /// Every pixel's colour from its own t (held to the bound of docs/contract.md §3).
    case exact
    /// The colour read from a table of the ramp (`GradientTable`), as
    /// Blend2D and vello_cpu do: measured, not bound.
    case lut

    public var isExact: Bool { self == .exact }

    /// K2's two kernel names, one per shape (`list`, `--variant radial=lut`,
    /// the suite's entries and the report's kernel column).
    public static let linearName = "linear"
    public static let radialName = "radial"
}

/// The `lut` variant's table of one gradient, built once with it (no kernel
/// call allocates). Layout and size rule: `raster_gradient_lut_build` and
/// `raster_gradient_lut_size`; the lookup rule: `raster_gradient_lut_index`.
public struct GradientTable: Sendable, Hashable {
    /// Entries between t = 0 and 1 (a power of two).
    public let size: Int
    /// size + 2 packed RGBA8 words: the colour before the first stop, the
    /// entries, the colour from the last stop on.
    public let words: [UInt32]

    init(_ ramp: GradientRamp) {
        let size = ramp.slopes.withUnsafeBytes {
            Int(raster_gradient_lut_size($0.bindMemory(to: Float.self).baseAddress, Int32(ramp.slopes.count)))
        }
        self.size = size
        words = [UInt32](unsafeUninitializedCapacity: size + 2) { buffer, count in
            ramp.slopes.withUnsafeBytes { slopes in
                ramp.biases.withUnsafeBytes { biases in
                    raster_gradient_lut_build(buffer.baseAddress, Int32(size), ramp.starts,
                                              slopes.bindMemory(to: Float.self).baseAddress,
                                              biases.bindMemory(to: Float.self).baseAddress, Int32(ramp.starts.count))
                }
            }
            count = size + 2
        }
    }

    /// The word for parameter u (the naive backend's per-pixel lookup).
    public func word(at u: Double, extend: ExtendMode) -> UInt32 {
        words[Int(raster_gradient_lut_index(raster_gradient_lut_entry(u * Double(size)), Int32(size), extend.code))]
    }
}

extension ExtendMode {
    /// The C kernels' code for the mode.
    var code: Int32 {
        switch self { case .pad: 0; case .repeat: 1; case .reflect: 2 }
    }
}
