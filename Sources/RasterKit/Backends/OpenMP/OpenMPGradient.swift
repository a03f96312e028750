import CRasterOMP

extension OpenMPBackend {
    public func gradient(_ gradient: Gradient, into dst: ImageView) throws {
        if gradient.isDegenerate {
            dst.fill(gradient.stops[gradient.stops.count - 1].color.rgba8)
            return
        }
        let ramp = gradient.ramp
        // u at integer pixel indices: linear {ux, uy, origin} with the
        // half-pixel offset folded into the origin; radial {cx - 1/2, cy - 1/2, 1/r}.
        let geometry: (Double, Double, Double)
        switch gradient.shape {
        case let .linear(s, t):
            let d = t - s
            let k = 1 / d.dot(d)
            geometry = (d.x * k, d.y * k, (Point(0.5, 0.5) - s).dot(d) * k)
        case let .radial(c, r):
            geometry = (c.x - 0.5, c.y - 0.5, 1 / r)
        }
        let shape: Int32 = if case .linear = gradient.shape { 0 } else { 1 }
        let extend: Int32 = switch gradient.extend { case .pad: 0; case .repeat: 1; case .reflect: 2 }
        withUnsafeBytes(of: geometry) { geometry in
            ramp.slopes.withUnsafeBytes { slopes in
                ramp.biases.withUnsafeBytes { biases in
                    raster_omp_gradient(dst.base, Int32(dst.width), Int32(dst.height), dst.stride, shape,
                                        geometry.bindMemory(to: Double.self).baseAddress,
                                        ramp.starts, slopes.bindMemory(to: Float.self).baseAddress,
                                        biases.bindMemory(to: Float.self).baseAddress,
                                        Int32(ramp.starts.count), extend, Int32(threads))
                }
            }
        }
    }
}
