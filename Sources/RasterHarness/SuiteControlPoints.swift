import RasterKit

extension Suite {
    /// The Liquid article's headline: control points of 1,000,000 anchors
    /// (0.78 s in its Swift, 0.035 s in its C). Streams 8 bytes in and 16
    /// out per anchor, so it is held against the copy bandwidth too.
    public static let anchorCount = 1_000_000

    public static let controlPoints = controlPointsEntry(anchors: anchorCount)

    /// K5 on `anchorCount` anchors (tests use fewer).
    public static func controlPointsEntry(anchors anchorCount: Int) -> SuiteEntry {
        SuiteEntry(
        name: "controlpoints",
        summary: "K5 Liquid tangent control points of \(anchorCount) anchors",
        hasFrame: false,
        workloads: { r in
            var w = Workload(kernel: "controlpoints", variant: "exact", backend: r.backend, threads: r.threads,
                             width: 0, height: 0, items: anchorCount) {
                let backend = try r.makeBackend()
                let anchors = Fixtures.anchors(count: anchorCount)
                let input = UnsafeMutableBufferPointer<SIMD2<Float>>.allocate(capacity: anchorCount)
                _ = input.initialize(from: anchors)
                let output = UnsafeMutableBufferPointer<SIMD2<Float>>.allocate(capacity: 2 * anchorCount)
                output.initialize(repeating: .zero)
                let buffers = AnchorBuffers(input: UnsafeBufferPointer(input), output: output)
                return WorkloadInstance(owning: [buffers], body: {
                    try backend.controlPoints(buffers.input, into: buffers.output)
                })
            }
            w.itemUnit = "anchor"
            w.parameters = "anchors=\(anchorCount)"
            w.bytesPerRun = anchorCount * (8 + 16)
            w.work = KernelWork.controlPoints(anchors: anchorCount)
            return [w]
        })
    }
}

/// Owns K5's buffers for the life of a workload instance.
final class AnchorBuffers {
    let input: UnsafeBufferPointer<SIMD2<Float>>
    let output: UnsafeMutableBufferPointer<SIMD2<Float>>
    init(input: UnsafeBufferPointer<SIMD2<Float>>, output: UnsafeMutableBufferPointer<SIMD2<Float>>) {
        self.input = input; self.output = output
    }
    deinit { input.deallocate(); output.deallocate() }
}
