import CRasterOMP

extension OpenMPBackend {
    public func gradient(_ gradient: Gradient, variant: GradientVariant, into dst: ImageView) throws {
        if gradient.isDegenerate {
            dst.fill(gradient.stops[gradient.stops.count - 1].color.rgba8)
            return
        }
        let ramp = gradient.ramp
        let pixel = GradientPixelGeometry(gradient)
        if variant == .lut {
            let table = gradient.table
            withUnsafeBytes(of: pixel.values) { geometry in
                raster_omp_gradient_lut(dst.base, Int32(dst.width), Int32(dst.height), dst.stride, pixel.shape,
                                        geometry.bindMemory(to: Double.self).baseAddress, table.words,
                                        Int32(table.size), pixel.extend, Int32(threads))
            }
            return
        }
        withUnsafeBytes(of: pixel.values) { geometry in
            ramp.slopes.withUnsafeBytes { slopes in
                ramp.biases.withUnsafeBytes { biases in
                    raster_omp_gradient(dst.base, Int32(dst.width), Int32(dst.height), dst.stride, pixel.shape,
                                        geometry.bindMemory(to: Double.self).baseAddress,
                                        ramp.starts, slopes.bindMemory(to: Float.self).baseAddress,
                                        biases.bindMemory(to: Float.self).baseAddress,
                                        Int32(ramp.starts.count), pixel.extend, Int32(threads))
                }
            }
        }
    }
}
