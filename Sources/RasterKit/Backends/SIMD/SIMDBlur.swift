/// K3 on Swift SIMD lanes and threads.
///
/// Schedule (the same for every full-resolution variant, only the 1-D
/// filter changes — see `BlurLineFilter`):
/// 1. horizontal pass by bands of 16 rows: each band is transposed into a
///    bundle buffer (64 lanes = 16 rows x 4 channels per sample), filtered
///    along x, and written to a UInt16 8.8 intermediate plane;
/// 2. vertical pass by strips of 16 columns: each strip is read from the
///    plane, which is stored strip by strip so that this is one sequential
///    stream (never a cache miss per pixel or per row), filtered along y,
///    rounded and written back to the image.
/// Bands go to threads for pass 1 and strips for pass 2. The buffers a
/// worker filters in (a few hundred KB) stay in its L2 cache.
extension SIMDBackend {
    public func blur(_ blur: GaussianBlur, variant: BlurVariant, image: ImageView, scratch: Scratch) throws {
        if variant.downscale > 1 {
            try SIMDBlurResampler(blur, factor: variant.downscale, image: image, scratch: scratch).run(threads: threads)
            return
        }
        let plan = SIMDBlurPlan(blur, variant: variant, width: image.width, height: image.height, scratch: scratch, threads: threads)
        let plane = scratch.buffer(BlurSlot.plane, count: BlurBundle.stripPlaneCount(width: image.width, height: image.height),
                                   of: UInt16.self)
        plan.horizontal(from: .image(image), into: plane, threads: threads)
        plan.vertical(from: plane, into: .image(image), threads: threads)
    }
}

/// Where a pass reads or writes: the RGBA8 image or a row-major UInt16 8.8
/// plane (packed rows of width * 4).
enum BlurSurface {
    case image(ImageView)
    case plane(UnsafeMutablePointer<UInt16>)
}

/// The two 1-D filters of one blur and the per-worker buffers they run in.
struct SIMDBlurPlan {
    let width: Int, height: Int
    let rows: BlurLineFilter, columns: BlurLineFilter
    let buffers: UnsafeMutablePointer<BlurLanes>
    /// BlurLanes per worker buffer (two per worker).
    let bufferVectors: Int
    let spare: UnsafeMutablePointer<UInt16>

    /// Allocates from slots `BlurSlot.lines` and `BlurSlot.table`; `variant`
    /// must be exact, box3 or iir.
    init(_ blur: GaussianBlur, variant: BlurVariant, width: Int, height: Int, scratch: Scratch, threads: Int) {
        self.width = width
        self.height = height
        let edgeClamp = blur.edge.isClamp
        switch variant {
        case .exact:
            let weights = GaussianWeights(blur)
            let pad = BlurLineFilter.firBlock - 1
            let rh = weights.reach(length: width), rv = weights.reach(length: height)
            let nh = GaussianWeights.tableCount(reach: rh, pad: pad)
            let table = scratch.buffer(BlurSlot.table, count: nh + GaussianWeights.tableCount(reach: rv, pad: pad), of: Float.self)
            weights.fill(table, length: width, pad: pad)
            weights.fill(table + nh, length: height, pad: pad)
            rows = BlurLineFilter(kind: .fir(taps: table, reach: rh, tail: Float(weights.tail(length: width))),
                                  length: width, clamp: edgeClamp)
            columns = BlurLineFilter(kind: .fir(taps: table + nh, reach: rv, tail: Float(weights.tail(length: height))),
                                     length: height, clamp: edgeClamp)
        case .box3:
            let box = ExtendedBox(blur)
            rows = BlurLineFilter(kind: .box(box), length: width, clamp: edgeClamp)
            columns = BlurLineFilter(kind: .box(box), length: height, clamp: edgeClamp)
        default:
            let iir = DericheIIR(sigma: blur.sigma)
            rows = BlurLineFilter(kind: .iir(iir), length: width, clamp: edgeClamp)
            columns = BlurLineFilter(kind: .iir(iir), length: height, clamp: edgeClamp)
        }
        let workers = max(RowBands(items: SIMDBlurPlan.bands(height), threads: threads).workers,
                          RowBands(items: SIMDBlurPlan.strips(width), threads: threads).workers)
        bufferVectors = max(rows.samples, columns.samples) * Quad.vectors
        buffers = scratch.buffer(BlurSlot.lines, count: workers * 2 * bufferVectors, of: BlurLanes.self)
        spare = scratch.buffer(BlurSlot.edgeSpare, count: workers * 4 * BlurBundle.stripPixels, of: UInt16.self)
    }

    static func bands(_ height: Int) -> Int { (height + BlurBundle.bandRows - 1) / BlurBundle.bandRows }
    static func strips(_ width: Int) -> Int { (width + BlurBundle.stripPixels - 1) / BlurBundle.stripPixels }

    /// The horizontal pass, `source` (image or row-major plane) into the
    /// strip-major `plane`.
    func horizontal(from source: BlurSurface, into plane: UnsafeMutablePointer<UInt16>, threads: Int) {
        let f = rows, stride = width * 4
        RowBands(items: SIMDBlurPlan.bands(height), threads: threads).run { worker, bands in
            let a = buffers + worker * 2 * bufferVectors, b = a + bufferVectors
            for band in bands {
                let y0 = band * BlurBundle.bandRows
                switch source {
                case let .image(image): BlurBundle.loadBand(image, y0: y0, into: a, offset: f.lead)
                case let .plane(p): BlurBundle.loadBand(p, stride: stride, width: width, height: height, y0: y0, into: a, offset: f.lead)
                }
                let result = f.run(a, b)
                BlurBundle.storeBand(result, offset: f.lead, into: plane, width: width, height: height, y0: y0)
            }
        }
    }

    /// The vertical pass, the strip-major `plane` into `target` (image or
    /// row-major plane).
    func vertical(from plane: UnsafeMutablePointer<UInt16>, into target: BlurSurface, threads: Int) {
        let f = columns, stride = width * 4
        RowBands(items: SIMDBlurPlan.strips(width), threads: threads).run { worker, strips in
            let a = buffers + worker * 2 * bufferVectors, b = a + bufferVectors
            let spare = self.spare + worker * 4 * BlurBundle.stripPixels
            for strip in strips {
                let x0 = strip * BlurBundle.stripPixels
                let count = min(BlurBundle.stripPixels, width - x0)
                BlurBundle.loadStrip(plane, height: height, strip: strip, into: a, offset: f.lead)
                let result = f.run(a, b)
                switch target {
                case let .image(image):
                    spare.withMemoryRebound(to: UInt8.self, capacity: 8 * BlurBundle.stripPixels) { bytes in
                        BlurBundle.storeStrip(result, offset: f.lead, into: image, x0: x0, count: count, spare: bytes)
                    }
                case let .plane(p):
                    BlurBundle.storeStrip(result, offset: f.lead, into: p, stride: stride, height: height, x0: x0, count: count, spare: spare)
                }
            }
        }
    }
}
