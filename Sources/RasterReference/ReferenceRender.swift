import RasterKit

extension Reference {
    /// A whole job in the reference maths. The canvas is 8-bit between ops,
    /// as it is in every backend (the canonical image of docs/contract.md §1 is RGBA8), so each
    /// op starts from the same bytes; only the last op's result is returned
    /// unrounded. Ops run on the `naive`-independent reference kernels.
    /// `beforeEachOp` runs before every op, nested ones too (a `TimeBudget`'s
    /// check stops a slow reference between its ops).
    public static func render(_ job: Job, beforeEachOp: () throws -> Void = {}) throws -> [Double] {
        let canvas = try Image(width: job.width, height: job.height)
        canvas.fill(job.background.rgba8)
        var last = canvasValues(canvas.view)
        for (i, op) in job.ops.enumerated() {
            try beforeEachOp()
            last = try apply(op, onto: canvas.view, beforeEachOp: beforeEachOp)
            if i < job.ops.count - 1 { store(last, into: canvas.view) }
        }
        return last
    }

    /// One op onto `target`; returns the unrounded result, leaves `target` as it was.
    static func apply(_ op: JobOp, onto target: ImageView, beforeEachOp: () throws -> Void = {}) throws -> [Double] {
        let w = target.width, h = target.height
        switch op {
        case let .freeform(g):
            return over(freeform(g, width: w, height: h), onto: target)
        case let .gradient(g):
            return over(gradient(g, width: w, height: h), onto: target)
        case let .fill(f):
            return fill(f, onto: target)
        case let .blob(anchors, color):
            return try blob(anchors: anchors, color: color, onto: target)
        case let .mesh(m):
            return over(meshColors(m, width: w, height: h), onto: target)
        case let .image(image):
            return composite(image.view, onto: target, opacity: 1)
        case let .blur(b):
            return blur(target, b)
        case let .layer(opacity, ops):
            let layerJob = try Job(width: w, height: h, background: .transparent, ops: ops)
            let layer = try Image(width: w, height: h)
            store(try render(layerJob, beforeEachOp: beforeEachOp), into: layer.view)
            return composite(layer.view, onto: target, opacity: opacity)
        case let .scaledLayer(lw, lh, opacity, ops):
            let layerJob = try Job(width: lw, height: lh, background: .transparent, ops: ops)
            let small = try Image(width: lw, height: lh)
            store(try render(layerJob, beforeEachOp: beforeEachOp), into: small.view)
            let layer = try Image(width: w, height: h)
            store(resample(small.view, width: w, height: h), into: layer.view)
            return composite(layer.view, onto: target, opacity: opacity)
        }
    }

    /// The pixels docs/contract.md §2.7 excludes from a job's bound (K7's boundary and folds,
    /// see `meshExclusion`), or nil when the job has no mesh.
    public static func exclusion(_ job: Job) -> [Bool]? {
        func collect(_ ops: [JobOp], into mask: inout [Bool]?) {
            for op in ops {
                switch op {
                case let .mesh(m):
                    let e = meshExclusion(m, width: job.width, height: job.height)
                    if mask == nil { mask = e } else { for k in e.indices where e[k] { mask![k] = true } }
                case let .layer(_, inner): collect(inner, into: &mask)
                default: break
                }
            }
        }
        var mask: [Bool]?
        collect(job.ops, into: &mask)
        return mask
    }

    /// Source-over of an unrounded premultiplied colour plane onto 8-bit pixels.
    public static func over(_ src: [Double], onto dst: ImageView) -> [Double] {
        var out = src
        for y in 0..<dst.height {
            let d = dst.row(y)
            for x in 0..<dst.width {
                let i = (y * dst.width + x) * 4
                let k = 1 - src[i + 3] / 255
                for ch in 0..<4 { out[i + ch] = src[i + ch] + Double(d[4 * x + ch]) * k }
            }
        }
        return out
    }

    public static func canvasValues(_ view: ImageView) -> [Double] {
        view.packedBytes.map(Double.init)
    }

    /// Rounds reference values into an 8-bit view (nearest, ties away).
    public static func store(_ values: [Double], into view: ImageView) {
        for y in 0..<view.height {
            let row = view.row(y)
            for i in 0..<(view.width * 4) { row[i] = Color.quantize(values[y * view.width * 4 + i]) }
        }
    }
}
