extension SIMDBackend {
    public func mesh(_ mesh: MeshGradient, variant: MeshVariant, onto dst: ImageView, scratch: Scratch) throws {
        // TODO(K7): not implemented yet in this backend.
        throw RasterError.unsupported(backend: kind.rawValue, kernel: MeshVariant.kernelName, variant: variant.rawValue)
    }
}
