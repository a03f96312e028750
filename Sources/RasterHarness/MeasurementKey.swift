import RasterKit

/// What was measured, typed: the one identity a workload, a report row, a
/// quality option and a comparison share. Two rows with equal keys measured
/// the same thing (in two reports, the same thing twice).
public struct MeasurementKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The device profile the row was measured for ("" for a job timed on its own).
    public var profile = ""
    /// Kernel or scene name.
    public var kernel = ""
    public var variant = ""
    public var backend = BackendKind.naive
    /// Threads the backend really uses (naive: always 1).
    public var threads = 1
    public var width = 0
    public var height = 0
    /// nil for the suite proper, else the sweep the row belongs to.
    public var sweep: SweepKind? = nil
    /// The scale a scene is drawn at before resampling to the frame; 1 for kernels.
    public var renderScale = 1.0
    /// Workload parameters other than the render scale, e.g. "sigma=120".
    public var parameters = ""

    public init(profile: String = "", kernel: String, variant: String, backend: BackendKind, threads: Int,
                width: Int, height: Int, sweep: SweepKind? = nil, renderScale: Double = 1, parameters: String = "") {
        self.profile = profile; self.kernel = kernel; self.variant = variant; self.backend = backend
        self.threads = threads; self.width = width; self.height = height; self.sweep = sweep
        self.renderScale = renderScale; self.parameters = parameters
    }

    public init() {}

    /// The render scale as a parameter label ("scale=0.5"); "" at scale 1.
    public var scaleLabel: String { renderScale == 1 ? "" : "scale=\(NumberFormat.decimal(renderScale))" }

    /// The `param` column's text: the parameters, then the scale label, as
    /// reports have always written it (readers of older tools find it there).
    public var paramText: String {
        [parameters, scaleLabel].filter { !$0.isEmpty }.joined(separator: " ")
    }

    public var description: String {
        var s = "\(kernel)/\(variant)/\(backend.rawValue) t=\(threads)"
        if width > 0 || height > 0 { s += " \(width)x\(height)" }
        if !profile.isEmpty { s += " \(profile)" }
        if !paramText.isEmpty { s += " \(paramText)" }
        if let sweep { s += " [\(sweep.rawValue) sweep]" }
        return s
    }

    public static func < (a: MeasurementKey, b: MeasurementKey) -> Bool { a.description < b.description }

    /// The key of the same work on every backend and thread count: lines up backends.
    public var anyBackend: AnyBackend { AnyBackend(of: self) }

    /// A key with the backend and the thread count left out.
    public struct AnyBackend: Hashable, Sendable {
        var key: MeasurementKey
        init(of key: MeasurementKey) { self.key = key; self.key.backend = .naive; self.key.threads = 0 }
    }

    /// A key with the thread count left out (the same backend at any threads).
    public var anyThreads: MeasurementKey { var k = self; k.threads = 0; return k }
}

// MARK: - Reading the `param` text

extension MeasurementKey {
    /// Sets `parameters` and `renderScale` from a report's `param` text.
    ///
    /// A report that has a `render_scale` value gives the scale; its `param`
    /// ends with the scale label `paramText` wrote, which is removed as
    /// written (no number is read from it).
    ///
    /// The legacy rule, for reports written before `render_scale` existed
    /// (the only place a scale is read out of text): an item
    /// `scale=<decimal>` of `param`, items separated by a space or a comma,
    /// is the render scale, and the other items, in order with their
    /// separators, are the parameters. Without such an item the scale is 1.
    public mutating func read(param: String, renderScale: Double?) {
        if let renderScale {
            self.renderScale = renderScale
            let label = scaleLabel
            if label.isEmpty || param == label { parameters = label.isEmpty ? param : "" }
            else if param.hasSuffix(" " + label) { parameters = String(param.dropLast(label.count + 1)) }
            else { parameters = param }
            return
        }
        self.renderScale = 1
        parameters = param
        var start = param.startIndex
        while start < param.endIndex {
            let end = param[start...].firstIndex(where: { $0 == " " || $0 == "," }) ?? param.endIndex
            let item = param[start..<end]
            if item.hasPrefix("scale="), let v = DecimalText.parse(item.dropFirst("scale=".count)), v > 0 {
                self.renderScale = v
                // Drop the item and one separator next to it.
                let from = start > param.startIndex ? param.index(before: start) : start
                let to = from == start && end < param.endIndex ? param.index(after: end) : end
                parameters = String(param[..<from] + param[to...])
                return
            }
            start = end < param.endIndex ? param.index(after: end) : end
        }
    }
}

// MARK: - JSON

/// A report row's JSON keys for its measurement, flat in the row's object
/// as before the key existed; `renderScale` is new (absent: the legacy rule).
extension MeasurementKey: Codable {
    enum CodingKeys: String, CodingKey {
        case profile, kernel, variant, backend, threads, width, height, sweep, param, renderScale
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        profile = try c.decode(String.self, forKey: .profile)
        kernel = try c.decode(String.self, forKey: .kernel)
        variant = try c.decode(String.self, forKey: .variant)
        let backendText = try c.decode(String.self, forKey: .backend)
        guard let backend = BackendKind(rawValue: backendText) else {
            throw DecodingError.dataCorruptedError(forKey: .backend, in: c, debugDescription: Self.notABackend(backendText))
        }
        self.backend = backend
        threads = try c.decode(Int.self, forKey: .threads)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        let sweepText = try c.decode(String.self, forKey: .sweep)
        guard let sweep = Self.sweep(sweepText) else {
            throw DecodingError.dataCorruptedError(forKey: .sweep, in: c, debugDescription: Self.notASweep(sweepText))
        }
        self.sweep = sweep
        read(param: try c.decode(String.self, forKey: .param),
             renderScale: try c.decodeIfPresent(Double.self, forKey: .renderScale))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(profile, forKey: .profile)
        try c.encode(kernel, forKey: .kernel)
        try c.encode(variant, forKey: .variant)
        try c.encode(backend.rawValue, forKey: .backend)
        try c.encode(threads, forKey: .threads)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(sweep?.rawValue ?? "", forKey: .sweep)
        try c.encode(paramText, forKey: .param)
        try c.encode(renderScale, forKey: .renderScale)
    }

    /// A report's sweep text: "" is the suite proper (nil); nil for unknown text.
    static func sweep(_ text: String) -> SweepKind?? {
        text.isEmpty ? .some(nil) : SweepKind(rawValue: text).map { .some($0) }
    }

    static func notABackend(_ text: String) -> String {
        "'\(RasterError.escaped(text))' is not a backend (accepted: \(BackendKind.allCases.map(\.rawValue).joined(separator: ", ")))"
    }

    static func notASweep(_ text: String) -> String {
        "'\(RasterError.escaped(text))' is not empty or one of \(SweepKind.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
