/// Narrows a plan's workloads to what the user asked for, before anything
/// is measured: a typo must be an error, not a run that measures nothing.
public enum WorkloadSelection {
    /// Keeps the workloads of the named variants whose labels contain
    /// `filter`; a variant no selected kernel has, or a filter that keeps
    /// nothing, is an error.
    public static func select(_ workloads: [Workload], variants: [String]?, filter: String?) throws -> [Workload] {
        var kept = workloads
        if let variants {
            let known = Set(workloads.map(\.variant))
            if let unknown = variants.first(where: { !known.contains($0) }) {
                throw HarnessError.invalidArgument(name: "variants", value: "'\(unknown)'",
                                                   accepted: known.sorted().joined(separator: ", "))
            }
            kept = kept.filter { variants.contains($0.variant) }
        }
        if let filter {
            kept = kept.filter { $0.label.contains(filter) }
            if kept.isEmpty {
                throw HarnessError.invalidArgument(name: "filter", value: "'\(filter)'",
                                                   accepted: "text found in a workload label, e.g. 'fill/exact/simd t=1 750x1334 shape=blob'")
            }
        }
        return kept
    }

    /// A quick run leaves out the naive rows that take seconds a frame,
    /// unless nothing else is selected (then the user asked for exactly them).
    public static func quickSplit(_ workloads: [Workload]) -> (kept: [Workload], leftOut: [Workload]) {
        guard workloads.contains(where: { !$0.slowOnNaive }) else { return (workloads, []) }
        let leftOut = workloads.filter(\.slowOnNaive)
        let kept = workloads.filter { w in !leftOut.contains { $0.label == w.label } }
        return (kept, leftOut)
    }
}
