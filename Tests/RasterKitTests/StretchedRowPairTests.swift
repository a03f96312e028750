@testable import RasterKit
import XCTest

/// The up-samplers' two-row cache (`StretchedRowPair`; the openmp backend's
/// raster_row_pair is the same logic in C, checked through its output by
/// ResampleTests): every row handed back holds the row asked for, and a band
/// walking its output rows in order stretches each source row once.
final class StretchedRowPairTests: XCTestCase {
    /// Bands of output rows of up-, down- and same-size resamplings: the
    /// rows returned are the ones asked for (a slot's contents say which row
    /// was stretched into it), the pair never evicts the row it was told to
    /// keep, and a band stretches no source row twice.
    func testEveryRowReturnedIsTheOneAskedForAndStretchedOncePerBand() {
        for (source, target) in [(375, 750), (188, 1334), (7, 5), (1, 9), (9, 1), (100, 100), (137, 40)] {
            let axis = BilinearAxis(source: source, target: target)
            for bands in [1, 2, 3, 8] {
                let memory = UnsafeMutablePointer<Float>.allocate(capacity: 2)
                defer { memory.deallocate() }
                for band in 0..<bands {
                    var pair = StretchedRowPair(memory: memory, floats: 1)
                    var stretched: [Int] = []
                    let stretch: (Int, UnsafeMutablePointer<Float>) -> Void = { r, out in stretched.append(r); out[0] = Float(r) }
                    for y in target * band / bands ..< target * (band + 1) / bands {
                        let (y0, _) = axis.tap(y)
                        let y1 = min(y0 + 1, source - 1)
                        let top = pair.row(y0, keeping: y1, stretch)
                        let bottom = pair.row(y1, keeping: y0, stretch)
                        XCTAssertEqual(top[0], Float(y0), "\(source)->\(target) band \(band)/\(bands) row \(y)")
                        XCTAssertEqual(bottom[0], Float(y1), "\(source)->\(target) band \(band)/\(bands) row \(y)")
                    }
                    XCTAssertEqual(stretched.count, Set(stretched).count,
                                   "\(source)->\(target) band \(band)/\(bands) stretched a row twice: \(stretched)")
                }
            }
        }
    }
}
