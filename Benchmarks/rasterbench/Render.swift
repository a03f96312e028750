import ArgumentParser
import Foundation
import RasterKit

/// `rasterbench render JOB.json -o OUT.png|OUT.rgba`: one frame to a file.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one job (or scene frame) to .png (straight alpha) or .rgba (raw premultiplied).")

    @Argument(help: "A job file (JSON, SPEC section 9).")
    var job: String

    @Option(name: .shortAndLong, help: "Output file: .png or .rgba.")
    var output: String

    @OptionGroup var options: BackendOptions

    func run() throws {
        let out = URL(fileURLWithPath: output)
        _ = try ImageFile.Format(url: out) // reject a bad extension before rendering
        let job = try Job.load(contentsOf: URL(fileURLWithPath: self.job))
        let image = try options.makeRenderer().render(job)
        try ImageFile.write(image.view, to: out)
        print("wrote \(out.path) (\(job.width)x\(job.height), \(options.backend))")
    }
}
