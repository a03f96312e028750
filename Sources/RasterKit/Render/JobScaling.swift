import Foundation

/// A job redrawn for a canvas of another size: the geometry of every op
/// scaled by sx = width'/width and sy = height'/height, which maps pixel
/// centres exactly as the backends' `resample` maps them back. Used for a
/// scene's render scale (dynamic resolution) and the `layer=quarter`
/// variant. Where an op has a single length (a radius, an influence, a blur
/// sigma) it is scaled by sqrt(sx sy); sx and sy differ only by the
/// rounding of the reduced size, and the variant's quality measurement
/// (against the full-size reference) includes that.
extension Job {
    public func scaled(toWidth width: Int, height: Int) throws -> Job {
        let sx = Double(width) / Double(self.width), sy = Double(height) / Double(self.height)
        let scaler = JobScaler(sx: sx, sy: sy, width: width, height: height)
        return try Job(width: width, height: height, background: background, ops: ops.map(scaler.scale))
    }
}

struct JobScaler {
    let sx: Double, sy: Double
    /// The canvas size the scaled ops paint (for images).
    let width: Int, height: Int

    var s: Double { (sx * sy).squareRoot() }

    func point(_ p: Point) -> Point { Point(p.x * sx, p.y * sy) }

    func scale(_ op: JobOp) throws -> JobOp {
        switch op {
        case let .freeform(g):
            // Unit coordinates do not depend on the canvas size.
            guard g.space == .pixels else { return op }
            try requireLength(g.influence, scaled: g.influence * s, "influence")
            return .freeform(try FreeformGradient(
                points: g.points.map { .init(position: point($0.position), color: $0.color) },
                influence: g.influence * s, exponent: g.exponent, space: g.space, swirl: g.swirl))
        case let .gradient(g):
            switch g.shape {
            case let .linear(a, b):
                try requireLength(Gradient.vectorLength(a, b), scaled: Gradient.vectorLength(point(a), point(b)), "|end - start|")
                return .gradient(try Gradient(shape: .linear(start: point(a), end: point(b)), stops: g.stops, extend: g.extend))
            case let .radial(c, r):
                try requireLength(r, scaled: r * s, "radius")
                return .gradient(try Gradient(shape: .radial(center: point(c), radius: r * s), stops: g.stops, extend: g.extend))
            }
        case let .fill(f):
            return .fill(try PathFill(path: path(f.path), rule: f.rule, color: f.color))
        case let .blob(anchors, color):
            return .blob(anchors: anchors.map(point), color: color)
        case let .mesh(m):
            return .mesh(try MeshGradient(columns: m.columns, rows: m.rows, positions: m.positions.map(point), colors: m.colors))
        case let .image(image):
            let small = try Image(width: width, height: height)
            try NaiveBackend().resample(image.view, into: small.view, scratch: Scratch())
            return .image(small)
        case let .blur(b):
            // Below minSigma the blur is the identity to 8 bits, as it is at
            // minSigma itself: there clamping is exact.
            return .blur(try GaussianBlur(sigma: max(b.sigma * s, GaussianBlur.minSigma), edge: b.edge))
        case let .layer(opacity, ops):
            return .layer(opacity: opacity, ops: try ops.map(scale))
        case let .scaledLayer(w, h, opacity, ops):
            let w2 = max(1, Int((Double(w) * sx).rounded())), h2 = max(1, Int((Double(h) * sy).rounded()))
            let inner = JobScaler(sx: Double(w2) / Double(w), sy: Double(h2) / Double(h), width: w2, height: h2)
            return .scaledLayer(width: w2, height: h2, opacity: opacity, ops: try ops.map(inner.scale))
        }
    }

    /// A non-zero length that scaling takes below `InputRange.minLength`
    /// cannot be clamped without changing the picture: the error names the
    /// job's value, the scale and the least value the job may have at it
    /// (not the scaled value, which the user never wrote).
    func requireLength(_ length: Double, scaled: Double, _ name: String) throws {
        guard length != 0, scaled < InputRange.minLength else { return }
        throw RasterError.invalidArgument(
            name: "\(name) at render scale \(s)", value: "the job's \(length) px (\(scaled) px when drawn)",
            accepted: "at least \(InputRange.minLength / s) px at this scale (\(InputRange.lengthText) when drawn), or 0 where 0 is allowed")
    }

    func path(_ p: Path) -> Path {
        Path(p.elements.map { e -> Path.Element in
            switch e {
            case let .move(q): return .move(to: point(q))
            case let .line(q): return .line(to: point(q))
            case let .quad(c, q): return .quad(control: point(c), to: point(q))
            case let .cubic(c1, c2, q): return .cubic(c1: point(c1), c2: point(c2), to: point(q))
            case .close: return .close
            }
        })
    }
}
