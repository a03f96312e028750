extension SIMDBackend {
    public func resample(_ src: ImageView, into dst: ImageView, scratch: Scratch) throws {
        // TODO(resample): not implemented yet in this backend.
        throw RasterError.unsupported(backend: kind.rawValue, kernel: "resample", variant: "bilinear")
    }
}
