import CRasterOMP

/// The C99 + OpenMP kernels of `CRasterOMP` behind the backend protocol.
///
/// This wrapper only validates, converts parameters to flat C arrays and
/// hands over pointers; all pixel work happens in C. Where the package was
/// built without OpenMP (`isParallel == false`) the same C runs on the
/// calling thread, and `list`, `verify` and every report say so.
public struct OpenMPBackend: RasterBackend {
    public let kind = BackendKind.openmp
    public let threads: Int
    public init(threads: Int = 1) { self.threads = max(1, threads) }

    /// Whether the C target was compiled with `-fopenmp`.
    public static var isParallel: Bool { raster_omp_available() != 0 }

    /// The threads that will actually run: 1 without OpenMP.
    public var effectiveThreads: Int { OpenMPBackend.isParallel ? threads : 1 }
}
