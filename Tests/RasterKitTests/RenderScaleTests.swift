import Foundation
import RasterKit
import XCTest

/// A job drawn at a render scale: every scaled field at the least value the
/// decoder accepts either draws (where clamping is exact) or is refused
/// naming the job's own value and the scale, never a scaled value the user
/// never wrote; and the memory check counts the full-size canvas beside the
/// reduced frame before anything is allocated.
final class RenderScaleTests: XCTestCase {
    let here = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)

    /// Each scaled field as a job with the field at `value`.
    static let fields: [(name: String, clamped: Bool, job: (Double) -> String)] = [
        ("sigma", true, { ##"{"width":8,"height":8,"ops":[{"op":"blur","sigma":\##($0)}]}"## }),
        ("radius", false, { ##"{"width":8,"height":8,"ops":[{"op":"radial","center":[4,4],"radius":\##($0),"stops":[{"offset":0,"color":"#FF0000"},{"offset":1,"color":"#0000FF"}]}]}"## }),
        ("influence", false, { ##"{"width":8,"height":8,"ops":[{"op":"freeform","influence":\##($0),"points":[{"x":1,"y":1,"color":"#FF0000"}]}]}"## }),
        ("|end - start|", false, { ##"{"width":8,"height":8,"ops":[{"op":"linear","start":[0,4],"end":[\##($0),4],"stops":[{"offset":0,"color":"#FF0000"},{"offset":1,"color":"#0000FF"}]}]}"## }),
    ]

    static func minimum(_ name: String) -> Double { name == "sigma" ? GaussianBlur.minSigma : InputRange.minLength }

    func testTheLeastAcceptedValueOfEveryScaledFieldAtEveryScale() throws {
        for (name, clamped, job) in Self.fields {
            let least = Self.minimum(name)
            // The least value the decoder accepts, and just below it.
            let decoded = try Job.decode(Data(job(least).utf8), baseDirectory: here)
            XCTAssertThrowsError(try Job.decode(Data(job(least * 0.99).utf8), baseDirectory: here), name)
            for scale in Renderer.scales {
                let renderer = try Renderer(backend: NaiveBackend(), scale: scale)
                if clamped || scale == 1 {
                    XCTAssertNoThrow(try renderer.render(decoded), "\(name) at scale \(scale)")
                    continue
                }
                XCTAssertThrowsError(try renderer.render(decoded), "\(name) at scale \(scale)") { e in
                    guard case let RasterError.invalidArgument(n, value, accepted) = e else { return XCTFail("\(e)") }
                    XCTAssertEqual(n, "\(name) at render scale \(scale)")
                    XCTAssertTrue(value.hasPrefix("the job's \(least) px"), value)
                    XCTAssertTrue(accepted.hasPrefix("at least \(least / scale) px at this scale"), accepted)
                }
                // The least value the message names draws.
                let enough = try Job.decode(Data(job(least / scale).utf8), baseDirectory: here)
                XCTAssertNoThrow(try renderer.render(enough), "\(name) \(least / scale) at scale \(scale)")
            }
        }
    }

    /// A blur whose scaled sigma falls below the least accepted one is the
    /// identity to 8 bits either way: clamped, it draws what the least does.
    func testAClampedSigmaDrawsWhatTheLeastSigmaDraws() throws {
        let ramp = ##"{"op":"linear","start":[0,0],"end":[8,8],"stops":[{"offset":0,"color":"#FF0000"},{"offset":1,"color":"#0000FF80"}]}"##
        func job(_ sigma: Double) throws -> Job {
            try Job.decode(Data(##"{"width":8,"height":8,"ops":[\##(ramp),{"op":"blur","sigma":\##(sigma)}]}"##.utf8), baseDirectory: here)
        }
        let renderer = try Renderer(backend: NaiveBackend(), scale: 0.25)
        let none = try Job.decode(Data(##"{"width":8,"height":8,"ops":[\##(ramp)]}"##.utf8), baseDirectory: here)
        XCTAssertEqual(try renderer.render(job(0.01)).packedBytes, try renderer.render(none).packedBytes)
    }

    func testTheMemoryCheckCountsTheFullCanvasAtAReducedScale() throws {
        let job = try Job(width: 1000, height: 1000, background: .transparent, ops: [])
        let full = JobMemory.estimate(job)
        XCTAssertEqual(JobMemory.estimate(job, scale: 1), full)
        // At 0.5: the full canvas and its encoding copy (8 MB) plus the
        // reduced frame's own estimate (a quarter of the full one).
        XCTAssertEqual(JobMemory.estimate(job, scale: 0.5), 8_000_000 + full / 4)
        let renderer = try Renderer(backend: NaiveBackend(), scale: 0.5)
        renderer.memoryBudget = try MemoryBudget(bytes: 8_000_000 + full / 4 - 1)
        XCTAssertThrowsError(try renderer.checkMemory(job)) { e in
            XCTAssertTrue("\(e)".contains("at scale 0.5"), "\(e)")
        }
        XCTAssertThrowsError(try renderer.render(job))
        XCTAssertThrowsError(try renderer.prepare(job), "checked before the job is scaled")
        renderer.memoryBudget = try MemoryBudget(bytes: 8_000_000 + full / 4)
        XCTAssertNoThrow(try renderer.checkMemory(job))
    }
}
