import ArgumentParser
import RasterHarness
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
        print("Benchmark suite entries (rasterbench run --kernels/--scenes):")
        for e in Suite.entries {
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
