import CRasterOMP

/// A K2 gradient in the terms the C kernels and the run finder take: u at
/// integer pixel indices. Linear {ux, uy, origin} with the half-pixel offset
/// folded into the origin; radial {cx - 1/2, cy - 1/2, 1/r}.
struct GradientPixelGeometry {
    let values: (Double, Double, Double)
    let shape: Int32
    let extend: Int32

    init(_ gradient: Gradient) {
        switch gradient.shape {
        case let .linear(s, t):
            let d = t - s
            let k = 1 / d.dot(d)
            values = (d.x * k, d.y * k, (Point(0.5, 0.5) - s).dot(d) * k)
            shape = 0
        case let .radial(c, r):
            values = (c.x - 0.5, c.y - 0.5, 1 / r)
            shape = 1
        }
        extend = gradient.extend.code
    }

    /// The most u changes from one pixel to the next.
    var uPerPixel: Double { shape == 0 ? abs(values.0) : values.2 }

    /// Whether rows `width` wide are drawn as runs (raster_gradient_prefers_spans).
    func prefersRuns(width: Int, intervals: Int) -> Bool {
        raster_gradient_prefers_spans(Int32(width), uPerPixel, Int32(intervals), extend, shape) != 0
    }

    /// The frame's rows as work items (raster_gradient_plan_rows): a radial
    /// frame symmetric about a row draws one side and copies it.
    func rowPlan(height: Int) -> raster_gradient_row_plan {
        withUnsafeBytes(of: values) { g in
            raster_gradient_plan_rows(shape, Int32(height), g.bindMemory(to: Double.self).baseAddress)
        }
    }

    /// Calls `body(table, context)` with a radial frame's fold table,
    /// filled (raster_gradient_fold_table_init) and kept on the C call's
    /// stack for the call (raster_gradient_with_fold_table says why). A C
    /// function and a context pointer, not a Swift closure: a closure
    /// passed through C is boxed on the heap.
    func withFolds(_ ramp: GradientRamp, width: Int, height: Int, context: UnsafeMutableRawPointer,
                   _ body: @convention(c) (UnsafePointer<raster_gradient_fold_table>?, UnsafeMutableRawPointer?) -> Void) {
        withUnsafeBytes(of: values) { g in
            ramp.starts.withUnsafeBufferPointer { starts in
                ramp.slopes.withUnsafeBytes { slopes in
                    ramp.biases.withUnsafeBytes { biases in
                        raster_gradient_with_fold_table(
                            extend, starts.baseAddress, slopes.bindMemory(to: Float.self).baseAddress,
                            biases.bindMemory(to: Float.self).baseAddress, Int32(starts.count), Int32(width),
                            Int32(height), g.bindMemory(to: Double.self).baseAddress, body, context)
                    }
                }
            }
        }
    }

    /// Sets `row` to row y's run-finder parameters (raster_gradient_row_init
    /// says why in place); `starts` must outlive their use.
    @inline(__always)
    func start(_ row: inout raster_gradient_row, _ y: Int, width: Int, starts: UnsafePointer<Float>, intervals: Int) {
        withUnsafeBytes(of: values) { g in
            raster_gradient_row_init(&row, shape, extend, starts, Int32(intervals), Int32(width),
                                     g.bindMemory(to: Double.self).baseAddress, Int32(y))
        }
    }
}

extension raster_gradient_row_plan {
    /// Draws the frame's rows in bands of the plan's items across `threads`
    /// (RowBands): `draw(y)` for each item's row y, then the row's mirror
    /// copy if it has one. `file` and `line` name the caller's site for the
    /// pool's contention rules.
    @inline(__always)
    func run(_ dst: ImageView, threads: Int, file: StaticString = #fileID, line: UInt = #line, draw: (Int) -> Void) {
        RowBands.run(height: Int(items), threads: threads, file: file, line: line) { band in
            for i in band {
                let y = Int(raster_gradient_plan_row(self, Int32(i)))
                draw(y)
                raster_gradient_plan_copy(self, dst.base, dst.stride, Int32(dst.width), Int32(y))
            }
        }
    }
}
