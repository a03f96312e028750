import ArgumentParser
import Foundation
import RasterHarness
import RasterKit

/// `rasterbench render`: a job file or a scene frame to a file; a scene's
/// frame range to numbered PNGs or an animated WebP; a contact sheet; or a
/// frame's job JSON (`--emit-job`). Every option is checked, and the output
/// path too, before anything is rendered.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a job or a scene: one frame to .png/.rgba, frames to a folder of PNGs or an animated .webp, a --sheet, or --emit-job.",
        discussion: """
            Examples:
              rasterbench render job.json -o out.png
              rasterbench render --scene aurora --frame 120 --theme dark -o aurora.png
              rasterbench render --scene telegram --frames 0..479 -o telegram.webp --variant freeform=fit80
              rasterbench render --scene morph --frames 0..89 -o frames/
              rasterbench render --scene mesh --sheet -o mesh-sheet.png
              rasterbench render --scene liquid --frame 30 --emit-job > liquid-30.json
            """)

    @Argument(help: "A job file (JSON, docs/contract.md §9); or use --scene.")
    var job: String?

    @Option(name: .shortAndLong, parsing: .unconditional, help: "Output: .png or .rgba (one frame), a folder ending in / or a .webp (--frames), .png (--sheet).")
    var output: String?

    @OptionGroup var scene: SceneSelection

    @Option(name: .long, parsing: .unconditional, help: "Frame index of the scene (default 0).",
            transform: OptionValue.whole("--frame", 0...99_999_999))
    var frame: Int?

    @Option(name: .long, parsing: .unconditional, help: "A range of frames A..B (inclusive) to a folder of PNGs or an animated .webp.")
    var frames: String?

    @Option(name: .long, parsing: .unconditional, help: "With --frames: every Kth frame (an animation at fps/K).",
            transform: OptionValue.whole("--step", 1...Render.maxFrames))
    var step: Int = 1

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With a .webp: lossy quality 0...100 or 'lossless' (default 85).",
        discussion: "libwebp merges a frame into the previous one when no pixel moved by more than a quality-dependent step (3 levels at 85, 1 at 100), so a slow scene at 85 updates about once a second: 100 keeps every frame."))
    var webpQuality: String?

    @Flag(name: .long, help: "A contact sheet of frames spread over the scene's cycle, to a .png.")
    var sheet = false

    @Flag(name: .long, help: "Print the frame's job JSON instead of rendering it.")
    var emitJob = false

    @OptionGroup var options: BackendOptions

    @Option(name: .long, parsing: .unconditional, help: "Render scale: 1, 0.5 or 0.25 (the frame drawn smaller and up-sampled bilinearly).",
            transform: OptionValue.scale)
    var scale: Double = 1

    /// The most frames one command renders (a 60 s scene at 120 fps is 7200).
    static let maxFrames = 10_000
    /// Thumbnails on a contact sheet.
    static let sheetFrames = 12

    func run() throws {
        guard Renderer.scales.contains(scale) else {
            throw RasterError.invalidArgument(name: "--scale", value: "\(scale)", accepted: "1, 0.5, 0.25")
        }
        let renderer = try options.makeRenderer(scale: scale)
        if let jobPath = job { return try renderJob(jobPath, renderer: renderer) }
        guard scene.scene != nil else {
            throw UsageError("nothing to render: give a job file or --scene NAME")
        }
        guard webpQuality == nil || frames != nil else {
            throw RasterError.invalidArgument(name: "--webp-quality", value: Console.escaped(webpQuality ?? ""), accepted: "only with --frames and a .webp")
        }
        guard step == 1 || frames != nil else {
            throw RasterError.invalidArgument(name: "--step", value: "\(step)", accepted: "only with --frames")
        }
        let modes = [frame != nil, frames != nil, sheet].filter { $0 }.count
        guard modes <= 1 else {
            throw UsageError("more than one of --frame, --frames and --sheet given: give one of them")
        }
        let instance = try scene.make()
        let info = type(of: instance).info
        if emitJob {
            guard frames == nil, !sheet else {
                throw RasterError.invalidArgument(name: "--emit-job", value: "with --frames/--sheet", accepted: "one --frame")
            }
            print(try instance.job(frame: try Render.checkFrame(frame ?? 0)).jsonText(), terminator: "")
            return
        }
        if let frames {
            let range = try Render.parseRange(frames)
            guard (1...range.count).contains(step) else {
                throw RasterError.invalidArgument(name: "--step", value: "\(step)", accepted: "1...\(range.count)")
            }
            try Render.writeSequence(instance, frames: Array(range).enumerated().filter { $0.offset % step == 0 }.map(\.element),
                                     step: step, renderer: renderer, output: output,
                                     compression: try Render.webpCompression(webpQuality))
            return
        }
        if sheet {
            let out = try Render.sheetOutput(output)
            try Render.writeSheet(instance, frames: type(of: instance).spreadFrames(Render.sheetFrames),
                                  renderer: renderer, to: out)
            return
        }
        let out = try Render.singleFrameOutput(output)
        let index = try Render.checkFrame(frame ?? 0)
        try ImageFile.checkCanvas(width: instance.canvas.width, height: instance.canvas.height, for: out)
        // Checked at the render scale before the canvas is allocated.
        let job = try instance.job(frame: index)
        try renderer.checkMemory(job)
        let image = try Image(width: instance.canvas.width, height: instance.canvas.height)
        try renderer.render(job, into: image)
        try ImageFile.write(image.view, to: out)
        print("wrote \(out.path) (\(info.name) frame \(index), \(image.width)x\(image.height), \(options.backend))")
    }

    /// A job file to one image (or its JSON with --emit-job); no scene option may be given with it.
    private func renderJob(_ jobPath: String, renderer: Renderer) throws {
        guard scene.scene == nil else {
            throw UsageError("a job file and --scene given: give one of them")
        }
        guard frames == nil, !sheet, frame == nil else {
            throw RasterError.invalidArgument(name: "--frame/--frames/--sheet", value: "given with a job file",
                                              accepted: "only with --scene")
        }
        try scene.requireNoSceneOptions()
        // The output is checked before the job is read (its images decoded).
        let out = emitJob ? nil : try Render.singleFrameOutput(output)
        if let out { try OutputPath.requireDistinct([("--output (-o)", out.path)], inputs: [("JOB", jobPath)]) }
        let job = try Job.load(contentsOf: try inputURL(jobPath, name: "JOB"), memoryBudget: options.memoryBudget())
        guard let out else { print(try job.jsonText(), terminator: ""); return }
        try OutputPath.requireDistinct([("--output (-o)", out.path)], inputs: job.imageFiles.map { ("the job's image", $0) })
        try ImageFile.checkCanvas(width: job.width, height: job.height, for: out)
        try renderer.checkMemory(job)
        let image = try Image(width: job.width, height: job.height)
        try renderer.render(job, into: image)
        try ImageFile.write(image.view, to: out)
        print("wrote \(out.path) (\(job.width)x\(job.height), \(options.backend))")
    }

    static func checkFrame(_ f: Int) throws -> Int {
        guard f >= 0, f < 100_000_000 else {
            throw RasterError.invalidArgument(name: "--frame", value: "\(f)", accepted: "0...99999999")
        }
        return f
    }

    /// "A..B", inclusive, A <= B, at most `maxFrames` frames.
    static func parseRange(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b,
              b - a < maxFrames, b < 100_000_000 else {
            throw RasterError.invalidArgument(name: "--frames", value: "'\(Console.escaped(text))'",
                                              accepted: "A..B with 0 <= A <= B and at most \(maxFrames) frames")
        }
        return a...b
    }

    static func singleFrameOutput(_ output: String?) throws -> URL {
        guard let output else {
            throw RasterError.invalidArgument(name: "--output (-o)", value: "missing", accepted: "an output file .png or .rgba")
        }
        return try OutputPath.checkFileArgument(output, name: "--output (-o)", extensions: ["png", "rgba"])
    }

    static func sheetOutput(_ output: String?) throws -> URL {
        let out = try singleFrameOutput(output)
        guard try ImageFile.Format(url: out) == .png else {
            throw RasterError.invalidArgument(name: "--output", value: "'\(out.lastPathComponent)'", accepted: "a .png file for --sheet")
        }
        return out
    }
}

/// The scene options `render` shares with `run --scene`.
struct SceneSelection: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Scene: \(SceneCatalog.names.joined(separator: ", ")).")
    var scene: String?

    @Option(name: .long, parsing: .unconditional, help: "Device profile for the frame size, scale and fps (default \(DeviceProfile.defaultName)).")
    var profile: String?

    @Option(name: .long, parsing: .unconditional, help: "Seed of the scene's random numbers (default \(SceneOptions.defaultSeed)).",
            transform: OptionValue.seed)
    var seed: UInt64?

    @Option(name: .long, parsing: .unconditional, help: "Theme (aurora: light, dark).")
    var theme: String?

    @Option(name: .long, parsing: .unconditional, help: "Mode (aurora: standard, reduce-transparency, differentiate-without-color).")
    var mode: String?

    @Option(name: .long, parsing: .unconditional, help: "Style (telegram: ios, contest).")
    var style: String?

    @Option(name: .long, parsing: .unconditional, help: "Frame size WxH instead of the profile's (lengths in pt scale with the width).")
    var size: String?

    func make() throws -> any Scene {
        guard let scene else {
            throw RasterError.invalidArgument(name: "--scene", value: "missing", accepted: SceneCatalog.names.joined(separator: ", "))
        }
        let type = try SceneCatalog.named(scene)
        let p = try DeviceProfile.named(profile ?? DeviceProfile.defaultName)
        let (w, h) = try size.map(parseSize) ?? (p.width, p.height)
        // A custom size keeps the profile's look: its points scale with the width.
        let canvas = try SceneCanvas(width: w, height: h, scale: p.scale * Double(w) / Double(p.width), fps: p.fps)
        return try type.init(options: SceneOptions(seed: seed ?? SceneOptions.defaultSeed, style: style, mode: mode, theme: theme, for: type.info),
                             canvas: canvas)
    }

    func requireNoSceneOptions() throws {
        let given = [("--profile", profile != nil), ("--size", size != nil), ("--seed", seed != nil), ("--theme", theme != nil),
                     ("--mode", mode != nil), ("--style", style != nil)].filter(\.1).map(\.0)
        guard given.isEmpty else {
            throw RasterError.invalidArgument(name: given.joined(separator: ", "), value: "given with a job file",
                                              accepted: "only with --scene")
        }
    }
}
