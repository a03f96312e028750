/// A contact sheet: the frames of an animation as thumbnails on one image,
/// in reading order (left to right, then top to bottom), separated and
/// framed by a gap of a background colour.
///
/// Frames are added one at a time, so a caller renders a frame, adds it and
/// reuses its canvas: the sheet never holds more than itself and one row of
/// accumulators. Each thumbnail is the frame down-scaled by an area average
/// (box filter): a thumbnail pixel is the mean of the frame's premultiplied
/// pixels over the rectangle it covers, partly covered pixels weighted by
/// the part covered. Averaging premultiplied values is what compositing
/// means by "the colour of this area" (straight values would let the colour
/// of transparent pixels bleed in). The weights are exact integers (the
/// overlaps measured in 1/(thumbnail size) of a source pixel), so the mean
/// is computed exactly and rounded once, to nearest, ties away from zero
/// (docs/contract.md §1): no floating-point drift, the same bytes on every machine.
///
/// Thumbnails are copied onto the sheet, not composited: a translucent
/// frame stays translucent, and the background shows only in the gaps and
/// in the empty cells after the last frame.
public final class ContactSheet {
    /// Where everything goes. `width`/`height` are the sheet's.
    public struct Layout: Equatable, Sendable {
        public let frameCount: Int
        public let frameWidth: Int
        public let frameHeight: Int
        public let columns: Int
        public let rows: Int
        public let thumbnailWidth: Int
        public let thumbnailHeight: Int
        public let gap: Int
        public let width: Int
        public let height: Int

        public static let maxGap = 1024

        /// - Parameters:
        ///   - thumbnailWidth: 1...frameWidth (thumbnails only shrink); the
        ///     height follows the frame's aspect, rounded, at least 1.
        ///   - columns: nil chooses the count whose sheet is closest to
        ///     `aspect` (width / height; 16:9 by default), comparing ratios
        ///     on a log scale so 2:1 too wide and 1:2 too tall count alike.
        public init(frameCount: Int, frameWidth: Int, frameHeight: Int, thumbnailWidth: Int,
                    gap: Int = 8, columns: Int? = nil, aspect: Double = 16.0 / 9) throws {
            guard frameCount >= 1 else {
                throw RasterError.invalidArgument(name: "contact sheet frame count", value: "\(frameCount)", accepted: "at least 1")
            }
            try Image.validate(width: frameWidth, height: frameHeight, name: "contact sheet frame size")
            guard (1...frameWidth).contains(thumbnailWidth) else {
                throw RasterError.invalidArgument(
                    name: "thumbnail width", value: "\(thumbnailWidth)",
                    accepted: "1...\(frameWidth) (the frame width: thumbnails are down-scaled)")
            }
            guard (0...Layout.maxGap).contains(gap) else {
                throw RasterError.invalidArgument(name: "contact sheet gap", value: "\(gap)", accepted: "0...\(Layout.maxGap) pixels")
            }
            guard aspect.isFinite, aspect > 0 else {
                throw RasterError.invalidArgument(name: "contact sheet aspect", value: "\(aspect)", accepted: "a finite ratio > 0")
            }
            if let columns, !(1...frameCount).contains(columns) {
                throw RasterError.invalidArgument(
                    name: "contact sheet columns", value: "\(columns)", accepted: "1...\(frameCount) (the frame count)")
            }
            let tw = thumbnailWidth
            let th = max(1, (thumbnailWidth * frameHeight + frameWidth / 2) / frameWidth)
            func size(_ c: Int) -> (w: Int, h: Int) {
                let r = (frameCount + c - 1) / c
                return (c * tw + (c + 1) * gap, r * th + (r + 1) * gap)
            }
            let chosen = columns ?? (1...frameCount).min { a, b in
                let (wa, ha) = size(a), (wb, hb) = size(b)
                // max(r, 1/r) orders like |log r| without a log.
                let ra = Double(wa) / Double(ha) / aspect, rb = Double(wb) / Double(hb) / aspect
                let da = max(ra, 1 / ra), db = max(rb, 1 / rb)
                return da < db || (da == db && a < b)
            }!
            let (w, h) = size(chosen)
            guard w <= Image.maxDimension, h <= Image.maxDimension else {
                throw RasterError.invalidArgument(
                    name: "contact sheet size", value: "\(w)x\(h) (\(frameCount) thumbnails \(tw)x\(th) in \(chosen) columns)",
                    accepted: "at most \(Image.maxDimension) pixels on each side: fewer frames or smaller thumbnails")
            }
            self.frameCount = frameCount
            self.frameWidth = frameWidth
            self.frameHeight = frameHeight
            self.columns = chosen
            self.rows = (frameCount + chosen - 1) / chosen
            self.thumbnailWidth = tw
            self.thumbnailHeight = th
            self.gap = gap
            self.width = w
            self.height = h
        }

        /// Top-left corner of thumbnail `index` on the sheet (reading order).
        public func origin(ofThumbnail index: Int) -> (x: Int, y: Int) {
            let col = index % columns, row = index / columns
            return (gap + col * (thumbnailWidth + gap), gap + row * (thumbnailHeight + gap))
        }
    }

    public let layout: Layout
    /// The sheet; complete once `frameCount` frames have been added.
    public let image: Image
    /// Thumbnails placed so far.
    public private(set) var added = 0

    private let xTaps: BoxTaps
    private let yTaps: BoxTaps
    /// One row of vertical sums (frameWidth * 4), reused for every thumbnail row.
    private var rowSums: [Int]

    public init(layout: Layout, background: RGBA8 = ContactSheet.defaultBackground) throws {
        self.layout = layout
        image = try Image(width: layout.width, height: layout.height)
        image.fill(background)
        xTaps = BoxTaps(source: layout.frameWidth, target: layout.thumbnailWidth)
        yTaps = BoxTaps(source: layout.frameHeight, target: layout.thumbnailHeight)
        rowSums = [Int](repeating: 0, count: layout.frameWidth * 4)
    }

    /// Opaque mid grey: tiles stand out against it whether the scene is
    /// light (liquid's white) or dark (morph's #1C1C1E, which a dark grey
    /// frame swallowed).
    public static let defaultBackground = RGBA8(r: 0x6E, g: 0x6E, b: 0x73, a: 0xFF)

    /// Down-scales `frame` into the next cell.
    public func add(_ frame: ImageView) throws {
        guard added < layout.frameCount else {
            throw RasterError.invalidArgument(
                name: "contact sheet frame", value: "\(added + 1)", accepted: "at most \(layout.frameCount) frames")
        }
        guard frame.width == layout.frameWidth, frame.height == layout.frameHeight else {
            throw RasterError.invalidArgument(
                name: "size of contact sheet frame \(added)", value: "\(frame.width)x\(frame.height)",
                accepted: "\(layout.frameWidth)x\(layout.frameHeight), the sheet's frame size")
        }
        let (ox, oy) = layout.origin(ofThumbnail: added)
        let sheet = image.view
        // Each tap weight is an overlap in 1/target units: x taps sum to
        // frameWidth, y taps to frameHeight, so the full sum is over w * h.
        let denominator = layout.frameWidth * layout.frameHeight
        let n = layout.frameWidth * 4
        rowSums.withUnsafeMutableBufferPointer { sums in
            for ty in 0..<layout.thumbnailHeight {
                sums.update(repeating: 0)
                for (sy, wy) in yTaps.taps(ty) {
                    let src = frame.row(sy)
                    for i in 0..<n { sums[i] += wy * Int(src[i]) }
                }
                let dst = sheet.row(oy + ty) + 4 * ox
                for tx in 0..<layout.thumbnailWidth {
                    var r = 0, g = 0, b = 0, a = 0
                    for (sx, wx) in xTaps.taps(tx) {
                        r += wx * sums[4 * sx]; g += wx * sums[4 * sx + 1]
                        b += wx * sums[4 * sx + 2]; a += wx * sums[4 * sx + 3]
                    }
                    // round(v / d) for v >= 0, ties up (= away from zero).
                    dst[4 * tx] = UInt8((2 * r + denominator) / (2 * denominator))
                    dst[4 * tx + 1] = UInt8((2 * g + denominator) / (2 * denominator))
                    dst[4 * tx + 2] = UInt8((2 * b + denominator) / (2 * denominator))
                    dst[4 * tx + 3] = UInt8((2 * a + denominator) / (2 * denominator))
                }
            }
        }
        added += 1
    }

    /// A sheet of `frames` in one call (they must all be added anyway).
    public static func compose(_ frames: [ImageView], thumbnailWidth: Int, gap: Int = 8, columns: Int? = nil,
                               aspect: Double = 16.0 / 9, background: RGBA8 = defaultBackground) throws -> Image {
        guard let first = frames.first else {
            throw RasterError.invalidArgument(name: "contact sheet frames", value: "none", accepted: "at least one frame")
        }
        let layout = try Layout(frameCount: frames.count, frameWidth: first.width, frameHeight: first.height,
                                thumbnailWidth: thumbnailWidth, gap: gap, columns: columns, aspect: aspect)
        let sheet = try ContactSheet(layout: layout, background: background)
        for frame in frames { try sheet.add(frame) }
        return sheet.image
    }

    /// `count` frame indices spread evenly over a cycle of `cycle` frames,
    /// starting at 0: floor(i * cycle / count). The last one stops short of
    /// `cycle`, which would be frame 0 again.
    public static func frameIndices(count: Int, cycle: Int) throws -> [Int] {
        guard cycle >= 1, (1...cycle).contains(count) else {
            throw RasterError.invalidArgument(
                name: "contact sheet frame count", value: "\(count) of a \(cycle)-frame cycle", accepted: "1...\(max(1, cycle))")
        }
        return (0..<count).map { $0 * cycle / count }
    }
}

/// The box filter's taps along one axis: for each target pixel, the source
/// pixels it covers and by how much, in units of 1/target of a source pixel
/// (target pixel t spans [t * source, (t + 1) * source) in those units,
/// source pixel s spans [s * target, (s + 1) * target)). Weights are exact
/// integers summing to `source` for every target pixel.
struct BoxTaps {
    private var start: [Int] = []   // first tap of target pixel t, into `pixels`/`weights`
    private var pixels: [Int] = []
    private var weights: [Int] = []

    init(source: Int, target: Int) {
        for t in 0..<target {
            start.append(pixels.count)
            let lo = t * source, hi = (t + 1) * source
            for s in (lo / target)...((hi - 1) / target) {
                pixels.append(s)
                weights.append(min(hi, (s + 1) * target) - max(lo, s * target))
            }
        }
        start.append(pixels.count)
    }

    func taps(_ t: Int) -> Zip2Sequence<ArraySlice<Int>, ArraySlice<Int>> {
        zip(pixels[start[t]..<start[t + 1]], weights[start[t]..<start[t + 1]])
    }
}
