import RasterKit

extension Reference {
    /// Bytes per pixel the reference holds at one level of a job: an 8-bit
    /// canvas and layer (4 + 4) and, per op, up to four planes of Doubles
    /// (32 bytes a pixel each): the previous op's result, the op's own
    /// plane, the blended copy `over` makes, and a blur's working plane.
    public static let bytesPerPixelPerLevel = 8 + 4 * 32

    /// The memory `render(job)` needs, estimated from the job's shape alone
    /// (saturating): every nesting level holds its own planes while its
    /// layer is drawn. A `bench` checks it against the memory budget before
    /// the comparison (a nested job took 12 GB under a 2 GB budget).
    public static func memoryEstimate(_ job: Job) -> Int {
        let levels = JobMemory.shape(job).layerDepth + 1
        let plane = job.width.multipliedReportingOverflow(by: job.height)
        let perPixel = bytesPerPixelPerLevel.multipliedReportingOverflow(by: levels)
        guard !plane.overflow, !perPixel.overflow else { return .max }
        let bytes = plane.partialValue.multipliedReportingOverflow(by: perPixel.partialValue)
        return bytes.overflow ? .max : bytes.partialValue
    }
}
