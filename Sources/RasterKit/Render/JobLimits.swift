/// How large a job document may be under a memory budget, checked before
/// its tree is built: the file's size before it is read, the count of its
/// values while it is parsed. Without them a 16 MB job (a blob with 10^6
/// anchors) grew to 2.3 GB whatever `--max-memory` said.
///
/// Why these numbers: a parsed value costs up to about `bytesPerValue` (a
/// `JSONValue` in its array or dictionary, the container's header, a
/// string's storage, and the op decoded from it), and the document may take
/// a quarter of the budget, the rest being the canvases `JobMemory` counts.
/// A file may be a sixteenth of the budget: it is held while it is parsed.
public struct JobLimits: Sendable, Equatable {
    public static let bytesPerValue = 128

    /// The largest job file, in bytes.
    public let maxBytes: Int
    /// The most values (numbers, strings, arrays, objects...) in a job.
    public let maxValues: Int

    public init(_ budget: MemoryBudget) {
        maxBytes = budget.bytes / 16
        maxValues = budget.bytes / 4 / JobLimits.bytesPerValue
    }

    var json: StrictJSON.Limits { StrictJSON.Limits(maxValues: maxValues) }
}
