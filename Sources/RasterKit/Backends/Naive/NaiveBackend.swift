/// The baseline: the maths written as plain scalar loops, one thread.
///
/// It is the yardstick every speed-up is quoted against, so it is written the
/// way a competent programmer would write it without thinking about vectors
/// or threads: no deliberate slowness, no tricks. (LLVM auto-vectorises some
/// of these loops in release builds; that is part of the honest baseline.)
public struct NaiveBackend: RasterBackend {
    public let kind = BackendKind.naive
    public var threads: Int { 1 }
    public init() {}
}
