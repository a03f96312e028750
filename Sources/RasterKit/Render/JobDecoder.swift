import Foundation

extension Job {
    /// Decodes a job file; `image` paths are relative to the file. The
    /// file's size is checked against `JobLimits` (from the memory budget)
    /// before it is read.
    public static func load(contentsOf url: URL, memoryBudget: MemoryBudget = .default) throws -> Job {
        let data: Data
        let limits = JobLimits(memoryBudget)
        // Only a regular file (a FIFO would block): InputFile says why not.
        do { data = try InputFile.read(url.path, limit: limits.maxBytes) } catch let RasterError.io(path, reason) {
            throw RasterError.io(path: path, reason: "cannot read the job file: \(reason)"
                                 + (reason.contains("accepted") ? " under maxMemory \(memoryBudget)" : ""))
        }
        return try decode(data, baseDirectory: url.deletingLastPathComponent(), memoryBudget: memoryBudget,
                          name: RasterError.escaped(url.relativePath, limit: 120))
    }

    /// Decodes a job document. Every error names the JSON path of the bad
    /// value (a syntax error: `name`, line and column). The document's size
    /// and its count of values are bounded by `JobLimits` while it is read,
    /// and the job's memory is estimated, and refused beyond
    /// `memoryBudget`, before any op (or image) is decoded.
    public static func decode(_ data: Data, baseDirectory: URL, memoryBudget: MemoryBudget = .default,
                              name: String = "job") throws -> Job {
        let limits = JobLimits(memoryBudget)
        guard data.count <= limits.maxBytes else {
            throw RasterError.io(path: name, reason: "is \(data.count) bytes, more than the \(limits.maxBytes) a job may have under maxMemory \(memoryBudget)")
        }
        let root: JSONValue
        do { root = try StrictJSON.parse(data, limits: limits.json) } catch {
            switch error {
            case let .syntax(line, column, reason):
                throw RasterError.io(path: "\(name):\(line):\(column)", reason: "not valid JSON (\(reason))")
            case let .duplicateKey(path, line, column):
                throw RasterError.malformedJob(path: path, reason: "duplicate key (again at line \(line), column \(column))")
            case let .tooLarge(line, column, reason):
                throw RasterError.io(path: "\(name):\(line):\(column)",
                                     reason: "\(reason), the most a job may hold under maxMemory \(memoryBudget)")
            }
        }
        let node = JSONNode(value: root, path: "")
        _ = try node.object(allowing: ["width", "height", "background", "ops"])
        let width = try node.required("width").int(in: 1...Image.maxDimension)
        let height = try node.required("height").int(in: 1...Image.maxDimension)
        let background = try node.optional("background")?.color() ?? .transparent
        try memoryBudget.check(JobMemory.estimate(width: width, height: height, ops: node.optional("ops")?.value),
                               what: "this \(width)x\(height) job")
        let decoder = JobDecoder(width: width, height: height, baseDirectory: baseDirectory, memoryBudget: memoryBudget)
        let ops = try decoder.ops(node.optional("ops"))
        var job = try Job(width: width, height: height, background: background, ops: ops)
        job.imageFiles = decoder.imageFiles.paths
        return job
    }
}

/// Decodes ops; one method per op kind, each listing the keys it accepts.
struct JobDecoder {
    let width: Int
    let height: Int
    let baseDirectory: URL
    /// The files `image` ops read, in order.
    let imageFiles = ImageFiles()
    final class ImageFiles { var paths: [String] = [] }
    /// Bounds an `image` op's file before it is read.
    var memoryBudget: MemoryBudget = .default

    /// Nesting deeper than this is almost certainly a generated mistake and
    /// would allocate one canvas-sized layer per level.
    static let maxLayerDepth = 16

    func ops(_ node: JSONNode?, depth: Int = 0) throws -> [JobOp] {
        guard let node else { return [] }
        guard depth <= JobDecoder.maxLayerDepth else {
            throw node.fail("layers nested deeper than \(JobDecoder.maxLayerDepth)")
        }
        return try node.array().map { try op($0, depth: depth) }
    }

    func op(_ node: JSONNode, depth: Int) throws -> JobOp {
        guard let dict = node.value.objectValue else { throw node.fail("expected an op object") }
        guard let kind = dict["op"]?.stringValue else {
            throw RasterError.malformedJob(path: node.child("op").path, reason: "missing op name")
        }
        switch kind {
        case "freeform": return try freeform(node)
        case "linear", "radial": return try gradient(node, radial: kind == "radial")
        case "fill": return try fill(node)
        case "blob": return try blob(node)
        case "mesh": return try mesh(node)
        case "image": return try image(node)
        case "blur": return try blur(node)
        case "layer":
            _ = try node.object(allowing: ["op", "opacity", "ops", "size"])
            let opacity = try node.optional("opacity")?.number(in: 0...1) ?? 1
            guard let sizeNode = node.optional("size") else {
                return .layer(opacity: opacity, ops: try ops(node.optional("ops"), depth: depth + 1))
            }
            // A reduced-resolution layer: its ops are in the coordinates of a
            // size[0] x size[1] layer that is resampled to the canvas.
            let size = try sizeNode.array()
            guard size.count == 2 else { throw sizeNode.fail("expected [width, height]") }
            let lw = try size[0].int(in: 1...width), lh = try size[1].int(in: 1...height)
            let inner = JobDecoder(width: lw, height: lh, baseDirectory: baseDirectory, memoryBudget: memoryBudget)
            return .scaledLayer(width: lw, height: lh, opacity: opacity,
                                ops: try inner.ops(node.optional("ops"), depth: depth + 1))
        default:
            throw RasterError.malformedJob(
                path: node.child("op").path,
                reason: "unknown op '\(kind)' (accepted: \(JobDecoder.opNames.joined(separator: ", ")))")
        }
    }

    static let opNames = ["freeform", "linear", "radial", "fill", "blob", "mesh", "image", "blur", "layer"]

    /// `{ "op": "freeform", "points": [...], "influence": L, "exponent": e,
    /// "space": "pixels" | "unit", "swirl": s }`: in unit space the points and
    /// L are unit coordinates and L defaults to 1 (in pixels, to the width);
    /// a swirl needs unit space.
    func freeform(_ node: JSONNode) throws -> JobOp {
        _ = try node.object(allowing: ["op", "points", "influence", "exponent", "space", "swirl"])
        let space = try node.optional("space")?.choice(FreeformSpace.self) ?? .pixels
        let swirl = try node.optional("swirl")?.number(in: 0...FreeformGradient.maxSwirl) ?? 0
        if swirl != 0, space != .unit {
            throw node.child("swirl").fail("a swirl needs \"space\": \"unit\" (accepted in pixel space: 0)")
        }
        let points = try node.required("points").array()
        guard (1...FreeformGradient.maxPoints).contains(points.count) else {
            throw node.child("points").fail("\(points.count) points (accepted: 1...\(FreeformGradient.maxPoints))")
        }
        let stops = try points.map { p -> FreeformGradient.Stop in
            _ = try p.object(allowing: ["x", "y", "color"])
            return .init(position: Point(try p.required("x").number(), try p.required("y").number()),
                         color: try p.required("color").color())
        }
        let influence = try node.optional("influence")?.number(in: InputRange.minLength...InputRange.maxLength, InputRange.lengthText)
            ?? (space == .unit ? 1 : Double(width))
        let exponent = try node.optional("exponent")?.number(in: 1...FreeformGradient.maxExponent) ?? 4
        return .freeform(try FreeformGradient(points: stops, influence: influence, exponent: exponent,
                                              space: space, swirl: swirl))
    }

    func gradient(_ node: JSONNode, radial: Bool) throws -> JobOp {
        _ = try node.object(allowing: radial ? ["op", "center", "radius", "stops", "extend"]
                                             : ["op", "start", "end", "stops", "extend"])
        let shape: Gradient.Shape = radial
            ? .radial(center: try node.required("center").point(),
                      radius: try node.required("radius").number(in: 0...Double.greatestFiniteMagnitude, ">= 0"))
            : .linear(start: try node.required("start").point(), end: try node.required("end").point())
        let stopNodes = try node.required("stops").array()
        guard (2...Gradient.maxStops).contains(stopNodes.count) else {
            throw node.child("stops").fail("\(stopNodes.count) stops (accepted: 2...\(Gradient.maxStops))")
        }
        let stops = try stopNodes.map { s -> Gradient.Stop in
            _ = try s.object(allowing: ["offset", "color"])
            return .init(offset: try s.required("offset").number(in: 0...1), color: try s.required("color").color())
        }
        let extend = try node.optional("extend")?.choice(ExtendMode.self) ?? .pad
        return .gradient(try Gradient(shape: shape, stops: stops, extend: extend))
    }

    /// `{ "op": "blur", "sigma": S, "edge": "transparent" | "clamp" }`.
    func blur(_ node: JSONNode) throws -> JobOp {
        _ = try node.object(allowing: ["op", "sigma", "edge"])
        let sigma = try node.required("sigma").number(
            in: GaussianBlur.minSigma...GaussianBlur.maxSigma, GaussianBlur.acceptedText)
        let edge = try node.optional("edge")?.choice(BlurEdge.self) ?? .transparent
        return .blur(try GaussianBlur(sigma: sigma, edge: edge))
    }

    /// `{ "op": "fill", "path": "<SVG path data>", "rule": "nonzero", "color": "#RRGGBB" }`;
    /// a path syntax error names the character position inside the string.
    func fill(_ node: JSONNode) throws -> JobOp {
        _ = try node.object(allowing: ["op", "path", "rule", "color"])
        let pathNode = try node.required("path")
        let path: Path
        do {
            path = try Path(svg: try pathNode.string())
            try path.validate()
        } catch let RasterError.invalidArgument(_, value, accepted) {
            throw pathNode.fail("\(value) (accepted: \(accepted))")
        }
        let rule = try node.optional("rule")?.choice(FillRule.self) ?? .nonzero
        let color = try node.required("color").color()
        return .fill(try PathFill(path: path, rule: rule, color: color))
    }

    /// `{ "op": "blob", "anchors": [[x, y], ...], "color": "#RRGGBB" }` with at
    /// least 3 anchors forming a closed loop.
    func blob(_ node: JSONNode) throws -> JobOp {
        _ = try node.object(allowing: ["op", "anchors", "color"])
        let anchorNodes = try node.required("anchors").array()
        guard anchorNodes.count >= ControlPoints.minAnchors else {
            throw node.child("anchors").fail("\(anchorNodes.count) anchors (accepted: >= \(ControlPoints.minAnchors))")
        }
        // K5 puts a control point at p + t * D / 3 (|t| = 1, D a chord no
        // longer than 2 * sqrt(2) * A for anchors within +-A): up to 1.95 A
        // out. A quarter of the path limit keeps every one inside it, so the decoder, not the
        // renderer, refuses what cannot be drawn, and names the anchor.
        let limit = Path.maxCoordinate / 4
        let anchors = try anchorNodes.map { a -> Point in
            let p = try a.point()
            guard abs(p.x) <= limit, abs(p.y) <= limit else {
                throw a.fail("(\(p.x), \(p.y)) is out of range (accepted: coordinates within +-\(limit))")
            }
            return p
        }
        return .blob(anchors: anchors, color: try node.required("color").color())
    }

    /// `{ "op": "mesh", "columns": C, "rows": R, "points": [[x, y], ...],
    /// "colors": ["#RRGGBB", ...] }`: C x R vertices, row-major (K7).
    func mesh(_ node: JSONNode) throws -> JobOp {
        _ = try node.object(allowing: ["op", "columns", "rows", "points", "colors"])
        let columns = try node.required("columns").int(in: MeshGradient.sizes)
        let rows = try node.required("rows").int(in: MeshGradient.sizes)
        let pointNodes = try node.required("points").array()
        guard pointNodes.count == columns * rows else {
            throw node.child("points").fail("\(pointNodes.count) points (accepted: columns x rows = \(columns * rows))")
        }
        let colorNodes = try node.required("colors").array()
        guard colorNodes.count == columns * rows else {
            throw node.child("colors").fail("\(colorNodes.count) colours (accepted: columns x rows = \(columns * rows))")
        }
        let points = try pointNodes.map { a -> Point in
            let p = try a.point()
            guard abs(p.x) <= MeshGradient.maxCoordinate, abs(p.y) <= MeshGradient.maxCoordinate else {
                throw a.fail("\(p) is out of range (accepted: coordinates within +-\(MeshGradient.maxCoordinate))")
            }
            return p
        }
        let colors = try colorNodes.map { try $0.color() }
        return .mesh(try MeshGradient(columns: columns, rows: rows, positions: points, colors: colors))
    }

    func image(_ node: JSONNode) throws -> JobOp {
        _ = try node.object(allowing: ["op", "file"])
        let fileNode = try node.required("file")
        let name = try fileNode.string()
        let url = URL(fileURLWithPath: name, relativeTo: baseDirectory).standardizedFileURL
        imageFiles.paths.append(url.path)
        let image: Image
        do {
            image = try ImageFile.read(url, width: width, height: height, fileLimit: memoryBudget.bytes)
        } catch let RasterError.io(_, reason) {
            throw fileNode.fail("\(url.path): \(reason)")
        } catch let RasterError.invalidArgument(_, value, accepted) {
            throw fileNode.fail("\(value) (accepted: \(accepted))")
        }
        return .image(image)
    }
}
