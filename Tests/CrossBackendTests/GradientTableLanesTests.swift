import CRasterOMP
import RasterKit
import XCTest

/// The `lut` variant's row stages (through the C entry points, compiled as
/// the kernels are) against the per-pixel rule they vectorise: every word
/// must be the table word of the scalar index (raster_gradient_lut_index)
/// of the pixel's own position, exactly, at the extend modes' clamp, wrap
/// and fold points, for steps that keep eight pixels within one window of
/// entries and steps that do not (the gather's path), rising and falling.
final class GradientTableLanesTests: XCTestCase {
    /// size + 2 distinct words (an odd multiplier is a bijection), so a
    /// word read from the wrong entry cannot pass.
    func table(_ size: Int) -> [UInt32] { (0..<(size + 2)).map { UInt32($0 + 1) &* 2_654_435_761 } }

    func testLinearStepsReadTheScalarIndexOfEachPixel() {
        var rng = SeededGenerator(seed: 4242)
        var rows = 0
        for size in [256, 512, 1024] {
            let lut = table(size)
            // Entry positions at the rule's edges: pad's clamp, repeat's wrap,
            // reflect's fold, and anywhere.
            let edges = [-1, 0, size - 1, size, 2 * size - 1, 2 * size, -size, -2 * size - 1]
            // Entries per pixel: within one window of 8 for 8 pixels, at its
            // limit, within a window of 16, and beyond it (the gather).
            let slopes = [0, 1e-9, 0.07, 0.16, 0.5, 0.874, 0.875, 0.99, 1, 1.01, 1.5, 1.99, 3.7, 300]
            for extend: Int32 in 0...2 {
                for _ in 0..<300 {
                    let width = Int(rng.next() % 70) + 1
                    let slope = slopes[Int(rng.next() % UInt64(slopes.count))] * (rng.next() % 2 == 0 ? 1 : -1)
                    let edge = rng.next() % 4 == 0 ? rng.uniform(-4.0 * Double(size)...4.0 * Double(size))
                        : Double(edges[Int(rng.next() % UInt64(edges.count))]) + rng.uniform(-9.0...9.0)
                    // Start so that the row crosses the edge somewhere.
                    let v0 = edge - slope * Double(rng.next() % UInt64(width))
                    let p = Int64((v0 * 0x1p32).rounded()), step = Int64((slope * 0x1p32).rounded())
                    let start = Int(rng.next() % 3)
                    var row = [UInt32](repeating: 0xDEAD_BEEF, count: width + 1)
                    row.withUnsafeMutableBufferPointer { out in
                        lut.withUnsafeBufferPointer {
                            raster_gradient_lut_steps(out.baseAddress, Int32(min(start, width)), Int32(width),
                                                      p, step, $0.baseAddress, Int32(size), extend)
                        }
                    }
                    var q = p
                    for x in 0..<width {
                        let want: UInt32 = x < start ? 0xDEAD_BEEF : lut[Int(raster_gradient_lut_index(q >> 32, Int32(size), extend))]
                        if x >= start { q &+= step }
                        XCTAssertEqual(row[x], want, "size \(size) extend \(extend) v0 \(v0) slope \(slope) x \(x) of \(width)")
                        if row[x] != want { return }
                    }
                    XCTAssertEqual(row[width], 0xDEAD_BEEF, "wrote past the row")
                    rows += 1
                }
            }
        }
        XCTAssertEqual(rows, 2700)
    }

    func testRadialRowsReadTheScalarIndexOfEachPixel() {
        var rng = SeededGenerator(seed: 3141)
        for size in [256, 1024] {
            let lut = table(size)
            for extend: Int32 in 0...2 {
                for _ in 0..<300 {
                    // One row in five is wide enough to take the lanes in
                    // several batches (raster_gradient_lut_radial_row draws
                    // 256 pixels at a time).
                    let width = rng.next() % 5 == 0 ? Int(rng.next() % 650) + 250 : Int(rng.next() % 90) + 1
                    // Half-whole centres take the mirrored copy (also with the
                    // axis near either end of the row); others are computed.
                    let cx: Double = switch rng.next() % 4 {
                    case 0: Double(Int(rng.next() % UInt64(2 * width + 4)) - 2) * 0.5
                    case 1: Double(Int(rng.next() % 8)) * 0.5
                    case 2: Double(width) - Double(Int(rng.next() % 8)) * 0.5
                    default: rng.uniform(-40.0...Double(width + 40))
                    }
                    // Entries per pixel from far below one to several.
                    let perPixel = [0.01, 0.3, 0.67, 0.9, 1.5, 6][Int(rng.next() % 6)]
                    let geometry = (cx, rng.uniform(-30.0...30.0), perPixel / Double(size))
                    let y = Int32(rng.next() % 40)
                    var row = [UInt32](repeating: 0xDEAD_BEEF, count: width + 1)
                    withUnsafeBytes(of: geometry) { g in
                        row.withUnsafeMutableBufferPointer { out in
                            lut.withUnsafeBufferPointer {
                                raster_gradient_lut_radial_row(out.baseAddress, Int32(width), y,
                                                               g.bindMemory(to: Double.self).baseAddress,
                                                               $0.baseAddress, Int32(size), extend)
                            }
                        }
                    }
                    let fcx = Float(geometry.0), k = Float(geometry.2 * Double(size))
                    let dy = Float(Double(y) - geometry.1), dy2 = dy * dy
                    for x in 0..<width {
                        // The rule: the distance in entries from a fused square
                        // and add, held at the cap, truncated.
                        let dx = Float(x) - fcx
                        let v = min(dy2.addingProduct(dx, dx).squareRoot() * k, RASTER_GRADIENT_LUT_RADIAL_CAP)
                        let want = lut[Int(raster_gradient_lut_index(Int64(v), Int32(size), extend))]
                        XCTAssertEqual(row[x], want, "size \(size) extend \(extend) cx \(cx) x \(x) of \(width)")
                        if row[x] != want { return }
                    }
                    XCTAssertEqual(row[width], 0xDEAD_BEEF, "wrote past the row")
                }
            }
        }
    }

    /// A frame drawn as the plan's work items (rows copied to their mirror
    /// rows when the centre's 2 cy is whole) is the frame of every row
    /// drawn on its own, with the plan's items plus copies covering each
    /// row once.
    func testPlannedItemsDrawEveryRowOnce() {
        var rng = SeededGenerator(seed: 1618)
        let size = 512, lut = table(size)
        var mirrored = 0
        for _ in 0..<400 {
            let width = Int(rng.next() % 40) + 1, height = Int(rng.next() % 40) + 1
            let cy: Double = switch rng.next() % 3 {
            case 0: Double(Int(rng.next() % UInt64(2 * height + 6)) - 3) * 0.5
            case 1: Double(height) - 1 - Double(Int(rng.next() % 4)) * 0.5
            default: rng.uniform(-10.0...Double(height + 10))
            }
            let geometry = (rng.uniform(-10.0...Double(width + 10)), cy, rng.uniform(0.2...2.0) / Double(size))
            let extend = Int32(rng.next() % 3)
            var planned = [UInt32](repeating: 0xDEAD_BEEF, count: width * height)
            var rows = planned
            withUnsafeBytes(of: geometry) { g in
                let geometry = g.bindMemory(to: Double.self).baseAddress
                lut.withUnsafeBufferPointer { lut in
                    let plan = raster_gradient_plan_rows(1, Int32(height), geometry)
                    if plan.items < height { mirrored += 1 }
                    planned.withUnsafeMutableBytes { frame in
                        for i in 0..<Int(plan.items) {
                            raster_gradient_lut_item(frame.baseAddress!.assumingMemoryBound(to: UInt8.self), 4 * width,
                                                     Int32(width), plan, Int32(i), 1, geometry, lut.baseAddress,
                                                     Int32(size), extend)
                        }
                    }
                    rows.withUnsafeMutableBufferPointer { frame in
                        for y in 0..<height {
                            raster_gradient_lut_radial_row(frame.baseAddress! + y * width, Int32(width), Int32(y), geometry,
                                                           lut.baseAddress, Int32(size), extend)
                        }
                    }
                }
            }
            XCTAssertEqual(planned, rows, "\(width)x\(height) centre \(geometry.0), \(cy) extend \(extend)")
        }
        XCTAssertGreaterThan(mirrored, 50)
    }
}
