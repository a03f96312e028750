extension SIMDBackend {
    /// K5 in blocks of `K5Block.size` anchors per pass, sixteen anchors per
    /// vector, blocks split across threads by `RowBands` (an anchor range is
    /// split like rows).
    ///
    /// Per block: pass 1 computes each anchor's tangent t_i once (a square
    /// root and a division) and each arc's D_i / 3 (a square root) into an
    /// L1-resident stack buffer; pass 2 reads them back at i and i + 1 and
    /// writes the interleaved control points. Computing t_{i+1} again for
    /// every arc instead would cost five divider operations an anchor
    /// instead of three, which is what bounds this kernel on one core; a
    /// lane shift of the tangent vector would be cheaper still, but LLVM
    /// turns Swift's lane-by-lane shifts into dozens of shuffles.
    public func controlPoints(_ anchors: UnsafeBufferPointer<SIMD2<Float>>, into out: UnsafeMutableBufferPointer<SIMD2<Float>>) throws {
        try ControlPoints.validate(anchors: anchors.count, outCount: out.count)
        let n = anchors.count
        guard let a = anchors.baseAddress, let o = out.baseAddress else { return }
        RowBands.run(height: n, threads: threads) { range in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: K5Block.scratchFloats) { scratch in
                let block = K5Block(anchors: a, count: n, out: o, scratch: scratch.baseAddress!)
                var start = range.lowerBound
                while start < range.upperBound {
                    let end = min(start + K5Block.size, range.upperBound)
                    block.run(start..<end)
                    start = end
                }
            }
        }
    }
}

/// One block of K5: anchors `range` of a closed loop of `count`.
struct K5Block {
    /// Anchors per block: 64 keeps the block's temporaries (3 x 81 floats,
    /// 972 bytes) under the 1 KiB that `withUnsafeTemporaryAllocation`
    /// always puts on the stack. Above it the standard library asks the
    /// thread for its stack bounds, and on Linux `pthread_getattr_np`
    /// mallocs -- three per liquid frame (AllocationTests caught it).
    static let size = 64
    /// tx, ty (size + 1 + a vector of slack each) and D/3 (size + slack).
    static let stride = size + 1 + FillLanes.width
    static let scratchFloats = 3 * stride

    let anchors: UnsafePointer<SIMD2<Float>>
    let count: Int
    let out: UnsafeMutablePointer<SIMD2<Float>>
    let scratch: UnsafeMutablePointer<Float>

    /// Anchor i's coordinates as Floats: x at 2i, y at 2i + 1.
    var floats: UnsafePointer<Float> { UnsafeRawPointer(anchors).assumingMemoryBound(to: Float.self) }

    @inline(__always)
    func anchor(_ i: Int) -> SIMD2<Float> { anchors[i < 0 ? i + count : (i >= count ? i - count : i)] }

    /// 16 anchors from `i` (all in range) as x and y lanes.
    @inline(__always)
    func load16(_ i: Int) -> (Float16Lanes, Float16Lanes) {
        let v = UnsafeRawPointer(anchors + i).loadUnaligned(as: SIMD32<Float>.self)
        return (v.evenHalf, v.oddHalf)
    }

    func run(_ range: Range<Int>) {
        let tx = scratch, ty = scratch + K5Block.stride, third = scratch + 2 * K5Block.stride
        let base = range.lowerBound
        // Pass 1: t_j for j in range.lowerBound ... range.upperBound, D_j / 3 for j in range.
        var j = base
        let last = range.upperBound // inclusive for tangents
        while j <= last {
            if j >= 1 && j + FillLanes.width + 1 <= count && j + FillLanes.width - 1 <= last {
                let (px, py) = load16(j - 1), (cx, cy) = load16(j), (nx, ny) = load16(j + 1)
                let dx = nx - px, dy = ny - py
                let length = (dx * dx + dy * dy).squareRoot()
                let inverse = (1 / length).replacing(with: 0, where: length .== 0)
                UnsafeMutableRawPointer(tx + (j - base)).storeBytes(of: dx * inverse, as: Float16Lanes.self)
                UnsafeMutableRawPointer(ty + (j - base)).storeBytes(of: dy * inverse, as: Float16Lanes.self)
                let ex = nx - cx, ey = ny - cy
                UnsafeMutableRawPointer(third + (j - base)).storeBytes(
                    of: (ex * ex + ey * ey).squareRoot() * (1 / 3 as Float), as: Float16Lanes.self)
                j += FillLanes.width
            } else {
                let d = anchor(j + 1) - anchor(j - 1)
                let length = (d.x * d.x + d.y * d.y).squareRoot()
                let t = length == 0 ? SIMD2<Float>() : d * (1 / length)
                tx[j - base] = t.x; ty[j - base] = t.y
                let e = anchor(j + 1) - anchor(j)
                third[j - base] = (e.x * e.x + e.y * e.y).squareRoot() * (1 / 3 as Float)
                j += 1
            }
        }
        // Pass 2: c1_i = p_i + t_i D_i / 3, c2_i = p_{i+1} - t_{i+1} D_i / 3.
        var i = base
        while i < range.upperBound {
            if i + FillLanes.width + 1 <= count && i + FillLanes.width <= range.upperBound {
                let (px, py) = load16(i), (qx, qy) = load16(i + 1)
                let k = i - base
                let t0x = UnsafeRawPointer(tx + k).loadUnaligned(as: Float16Lanes.self)
                let t0y = UnsafeRawPointer(ty + k).loadUnaligned(as: Float16Lanes.self)
                let t1x = UnsafeRawPointer(tx + k + 1).loadUnaligned(as: Float16Lanes.self)
                let t1y = UnsafeRawPointer(ty + k + 1).loadUnaligned(as: Float16Lanes.self)
                let d = UnsafeRawPointer(third + k).loadUnaligned(as: Float16Lanes.self)
                var c1 = SIMD32<Float>(), c2 = SIMD32<Float>()
                c1.evenHalf = px + t0x * d; c1.oddHalf = py + t0y * d
                c2.evenHalf = qx - t1x * d; c2.oddHalf = qy - t1y * d
                // (c1x c1y c2x c2y) per anchor: interleave the pairs as 64-bit lanes.
                var pairs = SIMD32<UInt64>()
                pairs.evenHalf = unsafeBitCast(c1, to: SIMD16<UInt64>.self)
                pairs.oddHalf = unsafeBitCast(c2, to: SIMD16<UInt64>.self)
                UnsafeMutableRawPointer(out + 2 * i).storeBytes(of: pairs, as: SIMD32<UInt64>.self)
                i += FillLanes.width
            } else {
                let k = i - base
                let d = third[k]
                out[2 * i] = anchor(i) + SIMD2(tx[k], ty[k]) * d
                out[2 * i + 1] = anchor(i + 1) - SIMD2(tx[k + 1], ty[k + 1]) * d
                i += 1
            }
        }
    }
}
