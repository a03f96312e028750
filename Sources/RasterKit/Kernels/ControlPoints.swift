/// K5, the Liquid article's tangent control points (docs/contract.md §2.5).
///
/// N >= 3 anchors p_0 ... p_{N-1} form a closed loop (indices mod N). Each
/// anchor gets the tangent of the chord between its neighbours,
///
///     t_i = normalise(p_{i+1} - p_{i-1})     (the zero vector if that is zero)
///
/// and the arc from p_i to p_{i+1}, of chord length D_i = |p_{i+1} - p_i|,
/// becomes the cubic with controls
///
///     c1_i = p_i     + t_i     * D_i / 3
///     c2_i = p_{i+1} - t_{i+1} * D_i / 3
///
/// written as out[2i] = c1_i, out[2i + 1] = c2_i. Both controls of an
/// anchor lie on one line through it, so the closed curve is G1-continuous
/// (smooth) at every anchor -- a Catmull-Rom-like spline whose handle
/// lengths follow the chord, which is what makes the blob look liquid.
/// Coincident neighbours give a zero tangent (a corner), a zero chord gives
/// controls on the anchors (a point).
///
/// The work is two passes of pure streaming: 8 bytes read and 16 written
/// per anchor, so at a million anchors it is bound by memory bandwidth and
/// the backends differ in how close they get to it. The kernel does not
/// check the anchors for finiteness (that is a pass over the input the
/// benchmark should not time); jobs validate them when decoded.
public enum ControlPoints {
    public static let minAnchors = 3

    /// Throws unless `anchors` has at least 3 points and `outCount` is twice that.
    public static func validate(anchors: Int, outCount: Int) throws {
        guard anchors >= minAnchors else {
            throw RasterError.invalidArgument(name: "anchors", value: "\(anchors) anchors", accepted: ">= \(minAnchors)")
        }
        guard outCount == 2 * anchors else {
            throw RasterError.invalidArgument(
                name: "control point buffer", value: "\(outCount) points", accepted: "2 x \(anchors) anchors = \(2 * anchors)")
        }
    }

    /// The closed cubic path through `anchors` with K5's `controls`
    /// (2 per anchor): M p0, then C c1_i c2_i p_{i+1} for every i, then Z.
    public static func closedPath(anchors: [Point], controls: [Point]) throws -> Path {
        try validate(anchors: anchors.count, outCount: controls.count)
        var path = Path()
        appendClosed(anchors: anchors, controls: { controls[$0] }, to: &path)
        return path
    }

    static func appendClosed(anchors: [Point], controls: (Int) -> Point, to path: inout Path) {
        path.move(to: anchors[0])
        for i in 0..<anchors.count {
            path.cubic(c1: controls(2 * i), c2: controls(2 * i + 1), to: anchors[(i + 1) % anchors.count])
        }
        path.close()
    }

    /// Runs K5 on `backend` in Float (the protocol's precision) and builds
    /// the closed cubic path: the job op `blob`'s geometry.
    public static func blobPath(anchors: [Point], backend: any RasterBackend) throws -> Path {
        var path = Path()
        try blobPath(anchors: anchors, backend: backend, scratch: Scratch(), into: &path)
        return path
    }

    /// The same into `path` (emptied first, its storage kept) with K5's
    /// Float arrays in `scratch`: an animated blob allocates nothing per
    /// frame once both have grown.
    public static func blobPath(anchors: [Point], backend: any RasterBackend, scratch: Scratch,
                                into path: inout Path) throws {
        let n = anchors.count
        try validate(anchors: n, outCount: 2 * n)
        for (i, p) in anchors.enumerated() {
            guard p.isFinite, abs(p.x) <= Path.maxCoordinate, abs(p.y) <= Path.maxCoordinate else {
                throw RasterError.invalidArgument(
                    name: "anchors[\(i)]", value: "\(p)", accepted: "finite coordinates within +-\(Path.maxCoordinate)")
            }
        }
        let input = scratch.buffer(ScratchSlot.blobAnchors, count: n, of: SIMD2<Float>.self)
        let output = scratch.buffer(ScratchSlot.blobControls, count: 2 * n, of: SIMD2<Float>.self)
        for i in 0..<n { input[i] = SIMD2<Float>(Float(anchors[i].x), Float(anchors[i].y)) }
        try backend.controlPoints(UnsafeBufferPointer(start: input, count: n),
                                  into: UnsafeMutableBufferPointer(start: output, count: 2 * n))
        path.removeAll(keepingCapacity: true)
        appendClosed(anchors: anchors, controls: { Point(Double(output[$0].x), Double(output[$0].y)) }, to: &path)
    }
}
