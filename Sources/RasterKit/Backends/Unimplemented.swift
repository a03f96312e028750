/// Kernels whose issues have not landed yet. Each backend reports them as
/// unsupported (a typed error) until its implementation replaces this.
/// TEMPORARY: the path issue (#4) deletes these (blur landed with #3).
extension RasterBackend {
    public func fill(_ fill: PathFill, variant: FillVariant, onto dst: ImageView, scratch: Scratch) throws {
        throw RasterError.unsupported(backend: name, kernel: "fill", variant: variant.rawValue)
    }
    public func controlPoints(_ anchors: UnsafeBufferPointer<SIMD2<Float>>, into out: UnsafeMutableBufferPointer<SIMD2<Float>>) throws {
        throw RasterError.unsupported(backend: name, kernel: "controlpoints", variant: "exact")
    }
}
