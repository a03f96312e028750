import ArgumentParser
import RasterHarness
import RasterKit

/// `rasterbench list`: what can be asked for by name.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List kernels, variants, backends, scenes and profiles.")

    func run() throws {
        print("Kernels (variants; the first is held to the bound of docs/contract.md §3):")
        for k in KernelCatalog.all {
            print("  \(k.id) \(k.name.padding(toLength: max(10, k.name.count), withPad: " ", startingAt: 0)) \(k.summary)")
            print("     variants: \(k.variants.joined(separator: ", "))")
        }
        print("Backends:")
        for b in BackendKind.allCases {
            print("  \(b.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(b.summary)")
        }
        print("Renderer variants: \(LayerVariant.kernelName)=\(LayerVariant.allCases.map(\.rawValue).joined(separator: "|")) (layers ending in a blur of sigma >= \(Int(LayerVariant.minSigma)) px drawn at 1/\(LayerVariant.reduction)); render scales \(Renderer.scales.map { Human.number($0) }.joined(separator: ", "))")
        print("Scenes (rasterbench render --scene S, run --scenes S):")
        for type in SceneCatalog.all {
            let i = type.info
            print("  \(i.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(i.summary)")
            print("     \(i.repeats ? "cycle" : "span") \(i.cycle) frames; kernels \(i.kernels.joined(separator: ", ")); \(i.usesSeed ? "random (--seed)" : "no randomness"); after \(i.source)")
            for (option, values) in i.choices where !values.isEmpty {
                print("     \(option): \(values.joined(separator: ", ")) (default \(values[0]))")
            }
            print("     suite variants: \(type.suiteVariants.map(\.description).joined(separator: ", "))")
        }
        print("Benchmark suite kernels (rasterbench run --kernels):")
        for e in Suite.entries where !e.isScene {
            print("  \(e.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(e.summary)")
        }
        print("Device profiles (rasterbench run --profile; budget = 1000/fps ms x share, default \(Human.percent(Budget.defaultShare))):")
        for p in DeviceProfile.all {
            let budget = try Budget(fps: p.fps)
            let mark = p.name == DeviceProfile.defaultName ? " (default)" : ""
            print("  \(p.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.width)x\(p.height) @\(Int(p.fps)) fps, scale \(Human.number(p.scale)), \(p.cores) cores, budget \(Human.number(budget.milliseconds)) ms -- \(p.summary)\(mark)")
        }
    }
}
