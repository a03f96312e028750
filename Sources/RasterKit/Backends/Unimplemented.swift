/// Kernels whose issues have not landed yet. Each backend reports them as
/// unsupported (a typed error) until its implementation replaces this.
/// TEMPORARY: the blur issue (#3) deletes this.
extension RasterBackend {
    public func blur(_ blur: GaussianBlur, variant: BlurVariant, image: ImageView, scratch: Scratch) throws {
        throw RasterError.unsupported(backend: name, kernel: "blur", variant: variant.rawValue)
    }
}
