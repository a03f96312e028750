import Foundation
import RasterHarness
import RasterKit

/// `rasterbench report`: reports in, one self-contained HTML page out.
public enum HTMLReport {
    public struct Options: Sendable {
        /// Frames in each scene's embedded animation (fewer: a faster page build, e.g. in tests).
        public var animationFrames = 40
        /// Width of the embedded pictures in pixels (smaller: a faster page build).
        public var mediaWidth = 200
        public init(animationFrames: Int = 40, mediaWidth: Int = 200) {
            self.animationFrames = animationFrames
            self.mediaWidth = mediaWidth
        }
    }

    /// Checks the output path before any work: a `.html` file in a directory that exists.
    public static func checkOutput(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path)
        guard ["html", "htm", "xhtml"].contains(url.pathExtension.lowercased()) else {
            throw HarnessError.invalidArgument(name: "output", value: "'\(url.lastPathComponent)'", accepted: "a .html file")
        }
        // Empty, a folder, a device or FIFO, a symbolic link, a missing directory.
        try OutputPath.checkFileArgument(path, name: "output")
        return url
    }

    /// The page for already loaded reports.
    public static func html(_ sources: [ReportSource], options: Options = Options()) throws -> String {
        guard !sources.isEmpty else {
            throw HarnessError.invalidArgument(name: "reports", value: "none", accepted: "one or more report files (.csv or .json)")
        }
        // Each report's rows split by profile in one pass (not one pass per profile).
        var profiles: [String] = []
        var byProfile: [String: [[ReportRow]]] = [:]
        for (s, source) in sources.enumerated() {
            for r in source.rows {
                if byProfile[r.profile] == nil { profiles.append(r.profile) }
                byProfile[r.profile, default: Array(repeating: [], count: sources.count)][s].append(r)
            }
        }
        struct SceneKey: Hashable { var profile, scene: String }
        struct KernelWorkload: Hashable { var kernel, workload: String }
        var media: [SceneKey: SceneMedia] = [:]   // one rendering per profile and scene
        let sections = profiles.map { profile -> ReportPage.ProfileSection in
            let data = ProfileData(profile: profile, sources: sources, rows: byProfile[profile] ?? [])
            let device = deviceProfile(profile, rows: data.all)
            var pics: [SceneMedia] = []
            var errors: [String] = []
            for scene in data.scenes {
                guard let device else { errors.append("\(scene) is not drawn: the rows give no frame size"); continue }
                let key = SceneKey(profile: profile, scene: scene)
                do {
                    let m = try media[key] ?? SceneMedia.render(scene: scene, profile: device, width: options.mediaWidth, frameCount: options.animationFrames)
                    media[key] = m
                    pics.append(m)
                } catch {
                    errors.append("\(scene) could not be rendered: \(error)")
                }
            }
            var byScene: [String: [[ReportRow]]] = [:]
            for (k, perSource) in data.grouped(where: \.isScene, by: \.kernel) { byScene[k] = perSource }
            let sizeGroups = data.grouped(where: { $0.sweep == .size }, by: { KernelWorkload(kernel: $0.kernel, workload: $0.parameters) })
            let answers = answers(data, device: device)
            return ReportPage.ProfileSection(
                data: data,
                profileSummary: summary(device, data: data),
                answers: answers,
                media: pics, mediaErrors: errors,
                frameTime: data.scenes.compactMap { FrameTimeChart.make(scene: $0, perSource: byScene[$0] ?? [], data: data) },
                fronts: FrontChart.all(answers: answers, data: data),
                speedup: SpeedupChart.make(data: data),
                scaling: ScalingChart.make(data: data),
                sizes: sizeGroups.compactMap { k, perSource in
                    SizeChart.make(kernel: k.kernel, workload: k.workload, perSource: perSource, data: data)
                },
                bandwidth: BandwidthChart.make(data: data),
                roofline: RooflineChart.make(data: data))
        }
        let stamp = ISO8601DateFormatter().string(from: Date())
        return ReportPage(sources: sources, sections: sections, generated: stamp).render()
    }

    /// `choose`'s answer for each report's rows of this profile, in the
    /// order of the reports (a report without rows here gets none).
    static func answers(_ data: ProfileData, device: DeviceProfile?) -> [ReportAnswer] {
        data.rows.enumerated().compactMap { s, rows in
            rows.isEmpty ? nil : ReportAnswer.make(source: data.sources[s], rows: rows, profile: device?.name ?? data.profile,
                                                   profileFPS: device?.fps)
        }
    }

    /// Loads the reports, builds the page and writes it atomically.
    public static func write(reports: [String], to output: String, options: Options = Options()) throws -> (URL, Int) {
        let url = try checkOutput(output)
        guard !reports.isEmpty else {
            throw HarnessError.invalidArgument(name: "reports", value: "none", accepted: "one or more report files (.csv or .json)")
        }
        let sources = try reports.enumerated().map { try ReportSource.load($0.element, index: $0.offset) }
        let data = Data(try html(sources, options: options).utf8)
        try AtomicFile.write(data, to: url)
        return (url, data.count)
    }

    /// The named profile, or, when the name is not built in, one made from
    /// the rows' frame and refresh rate (drawn at 2 px per point: the rows do
    /// not say). nil when no row gives both: nothing is made up.
    static func deviceProfile(_ name: String, rows: [ReportRow]) -> DeviceProfile? {
        if let p = try? DeviceProfile.named(name) { return p }
        guard let r = rows.first(where: { $0.width > 0 && $0.height > 0 && $0.sweep == nil && $0.fps != nil }),
              let fps = r.fps else { return nil }
        return DeviceProfile(name: name.isEmpty ? "custom" : name, width: r.width, height: r.height,
                             scale: 2, fps: fps, cores: r.threads, summary: "from the report's rows")
    }

    static func summary(_ p: DeviceProfile?, data: ProfileData) -> String {
        var s = p.map { "\($0.width)×\($0.height) at \(NumberFormat.decimal($0.fps)) fps, \($0.cores) cores." }
            ?? "No frame size or refresh rate in the rows."
        if let b = data.budgetMs {
            let share = data.all.lazy.compactMap(\.budgetShare).first
            s += " Budget \(ms(b))" + (share.map { " (\(NumberFormat.decimal($0 * 100))% of a frame)" } ?? "") + "."
        }
        let hosts = unique(data.sources.map(\.host)).joined(separator: ", ")
        s += " Measured on \(hosts); \(data.all.count) rows."
        return s
    }
}
