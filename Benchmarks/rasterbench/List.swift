import ArgumentParser
import RasterKit

/// `rasterbench list`: what can be asked for by name.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List kernels, variants, backends, scenes and profiles.")

    func run() throws {
        print("Kernels (variants; the first is held to SPEC's bound):")
        for k in KernelCatalog.all {
            print("  \(k.id) \(k.name.padding(toLength: max(10, k.name.count), withPad: " ", startingAt: 0)) \(k.summary)")
            print("     variants: \(k.variants.joined(separator: ", "))")
        }
        print("Backends:")
        for b in BackendKind.allCases {
            print("  \(b.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(b.summary)")
        }
    }
}
