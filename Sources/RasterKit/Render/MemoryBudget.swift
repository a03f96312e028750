import Foundation

/// How much memory one job may need (docs/contract.md §10: "a job's memory is
/// estimated before anything is allocated and refused beyond a budget").
///
/// A 32768 x 32768 canvas is 4 GiB; with nested layers and a few decoded
/// images it ran into "Fatal error: failed to allocate" (a trap, not an
/// error). The estimate is taken from the job before its images are decoded
/// (`Job.decode`) and again before a renderer allocates (`Renderer.render`).
public struct MemoryBudget: Sendable, Hashable, CustomStringConvertible {
    public let bytes: Int

    public init(bytes: Int) throws {
        guard bytes >= MemoryBudget.minimum else {
            throw RasterError.invalidArgument(name: "maxMemory", value: "\(bytes) bytes", accepted: MemoryBudget.acceptedText)
        }
        self.bytes = bytes
    }

    /// 1 MiB: a smaller budget could not hold any useful canvas.
    public static let minimum = 1 << 20
    static let acceptedText = "a size such as 512M, 2G, 1.5G or a byte count, at least 1M"

    /// Half the machine's physical memory: a job that needs more would push
    /// the machine into swap (or the OOM killer) long before it finished,
    /// and half leaves room for the process itself and the rest of the host.
    public static let `default` = MemoryBudget(atLeastMinimum: Int(clamping: ProcessInfo.processInfo.physicalMemory / 2))

    /// `bytes`, raised to the minimum: always valid, so it cannot fail.
    init(atLeastMinimum bytes: Int) {
        self.bytes = max(MemoryBudget.minimum, bytes)
    }

    /// `512M`, `2G`, `1.5GiB`, `1048576` (binary units: K = 1024).
    public init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        var digits = t, unit = 1.0
        let k = 1024.0
        let units: [(String, Double)] = [("KIB", k), ("MIB", k * k), ("GIB", k * k * k), ("TIB", k * k * k * k),
                                         ("KB", k), ("MB", k * k), ("GB", k * k * k), ("TB", k * k * k * k),
                                         ("K", k), ("M", k * k), ("G", k * k * k), ("T", k * k * k * k)]
        for (suffix, scale) in units
        where t.hasSuffix(suffix) {
            digits = String(t.dropLast(suffix.count)); unit = scale; break
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let v = Double(digits), v.isFinite, v * unit >= 1, v * unit < 0x1p62 else {
            throw RasterError.invalidArgument(name: "maxMemory", value: "'\(RasterError.escaped(text))'", accepted: MemoryBudget.acceptedText)
        }
        try self.init(bytes: Int(v * unit)) // v * unit < 2^62: the conversion cannot trap
    }

    public var description: String { MemoryBudget.format(bytes) }

    static func format(_ bytes: Int) -> String {
        bytes >= 1 << 30 ? String(format: "%.1f GiB", Double(bytes) / 1073741824) : "\(bytes >> 20) MiB"
    }

    /// Throws unless `estimate` fits.
    /// `what` is built only on failure: the renderer checks every frame,
    /// and a string past 15 bytes is a heap allocation.
    public func check(_ estimate: Int, what: @autoclosure () -> String) throws {
        guard estimate <= bytes else {
            throw RasterError.invalidArgument(
                name: "maxMemory", value: "\(what()) needs about \(MemoryBudget.format(estimate))",
                accepted: "at most \(self) (raise it, or make the canvas smaller)")
        }
    }
}

/// The memory a job needs, estimated from its shape alone.
public enum JobMemory {
    /// Bytes per pixel of kernel scratch, the largest any kernel takes: the
    /// blur's Float planes (4 channels x 4 bytes), the resampler's stretched
    /// planes and K4's cells stay within it.
    public static let scratchBytesPerPixel = 16

    /// canvas (and the output's encoding copy) + one layer per nesting level
    /// plus one for translucent paint at the deepest (none at `layerDepth`
    /// -1: the canvas alone) + every decoded image + scratch. Saturating: absurd sizes give Int.max, never an overflow trap.
    public static func estimate(width: Int, height: Int, layerDepth: Int, images: Int, usesScratch: Bool) -> Int {
        let plane = width.multipliedReportingOverflow(by: height)
        guard !plane.overflow else { return .max }
        let canvases = 2 + (layerDepth + 1) + images + (usesScratch ? scratchBytesPerPixel / 4 : 0)
        let (bytes, overflow) = plane.partialValue.multipliedReportingOverflow(by: 4 * canvases)
        return overflow ? .max : bytes
    }

    /// The estimate for a decoded job. Called once per frame by the
    /// renderer: a static recursion over inout counters, no closure context
    /// to box, so it allocates nothing.
    public static func estimate(_ job: Job) -> Int {
        let s = shape(job)
        return estimate(width: job.width, height: job.height, layerDepth: s.layerDepth, images: s.images, usesScratch: s.usesScratch)
    }

    /// What the estimate is made of: the deepest layer nesting, the count
    /// of decoded images, whether any op takes kernel scratch.
    public static func shape(_ job: Job) -> (layerDepth: Int, images: Int, usesScratch: Bool) {
        var depth = 0, images = 0, scratch = false
        walk(job.ops, level: 0, depth: &depth, images: &images, scratch: &scratch)
        return (depth, images, scratch)
    }

    /// The estimate for drawing `job` at render scale `scale` (`Renderer`):
    /// at 1, `estimate(job)`; below, the full-size canvas, its encoding copy
    /// and the job's full-size images, plus the reduced job drawn (whose
    /// images are resampled copies). Taken before the job is scaled, since
    /// scaling allocates the reduced images.
    public static func estimate(_ job: Job, scale: Double) -> Int {
        let s = shape(job)
        let full = estimate(width: job.width, height: job.height, layerDepth: s.layerDepth, images: s.images, usesScratch: s.usesScratch)
        guard scale != 1 else { return full }
        let (w, h) = Renderer.reducedSize(width: job.width, height: job.height, scale: scale)
        let reduced = estimate(width: w, height: h, layerDepth: s.layerDepth, images: s.images, usesScratch: s.usesScratch)
        let canvas = estimate(width: job.width, height: job.height, layerDepth: -1, images: s.images, usesScratch: false)
        let (sum, overflow) = reduced.addingReportingOverflow(canvas)
        return overflow ? .max : sum
    }

    private static func walk(_ ops: [JobOp], level: Int, depth: inout Int, images: inout Int, scratch: inout Bool) {
        depth = max(depth, level)
        for op in ops {
            switch op {
            case .image: images += 1
            case let .layer(_, inner), let .scaledLayer(_, _, _, inner):
                walk(inner, level: level + 1, depth: &depth, images: &images, scratch: &scratch)
            case .gradient: break
            default: scratch = true
            }
        }
    }

    /// The estimate from a job document's op tree, before any op (and so
    /// any image) is decoded.
    static func estimate(width: Int, height: Int, ops: JSONValue?) -> Int {
        var depth = 0, images = 0, scratch = false
        func walk(_ ops: JSONValue?, _ level: Int) {
            guard let list = ops?.arrayValue, level <= 64 else { return }
            depth = max(depth, level)
            for op in list {
                guard let op = op.objectValue else { continue }
                switch op["op"]?.stringValue {
                case "image": images += 1
                case "layer": walk(op["ops"], level + 1)
                case "linear", "radial": break
                default: scratch = true
                }
            }
        }
        walk(ops, 0)
        return estimate(width: width, height: height, layerDepth: depth, images: images, usesScratch: scratch)
    }
}
