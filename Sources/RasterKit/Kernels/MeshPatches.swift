import Foundation

/// K7's surface V(u, v) cell by cell, in the form the backends evaluate: the
/// tensor-product cubic Hermite patch of each cell (see `MeshGradient`)
/// rewritten in the power basis of its local coordinates (s, t) in [0, 1]^2,
///
///     V(i + s, j + t) = sum over k, l in 0...3 of a[k, l] s^k t^l,
///
/// which costs a backend three multiply-adds per row of Horner and needs no
/// basis functions. With H(s) = (h0, h1, g0, g1) the Hermite basis
/// (h0 = 1 - 3s^2 + 2s^3, h1 = 3s^2 - 2s^3, g0 = s - 2s^2 + s^3, g1 = s^3 - s^2)
/// and M its matrix in the power basis (H(s) = (1, s, s^2, s^3) M), the
/// coefficients are A = M G M^T, where G holds the corner values, the
/// Catmull-Rom derivatives along u and v, and a zero twist block.
struct MeshPatches {
    /// x, y, r, g, b, a.
    static let channels = 6
    static let stride = channels * 16

    var coefficients: [Float] = []
    var bendU: [Double] = []
    var bendV: [Double] = []
    var colorSlope: [Float] = []

    /// Row k: the coefficient of s^k in (h0, h1, g0, g1).
    static let hermite: [[Double]] = [
        [1, 0, 0, 0],
        [0, 0, 1, 0],
        [-3, 3, -2, -1],
        [2, -2, 1, 1],
    ]

    /// An estimate of the steepest colour change per pixel over a cell (in
    /// 8-bit units per pixel): at a 5 x 5 sample, |grad of each colour channel
    /// in (s, t)| / (the Jacobian's smallest singular value, bounded below by
    /// |det J| / |J|_F), times 1.5 for what happens between samples. Infinite
    /// where the Jacobian vanishes or changes sign (a fold in the cell).
    static func colorSlope(_ a: [[SIMD8<Double>]]) -> Float {
        var slope = 0.0, positive = false, negative = false
        for si in 0...4 {
            for ti in 0...4 {
                let s = Double(si) / 4, t = Double(ti) / 4
                var ds = SIMD8<Double>(), dt = SIMD8<Double>()
                for k in 0..<4 {
                    for l in 0..<4 {
                        if k > 0 { ds += Double(k) * pow(s, Double(k - 1)) * pow(t, Double(l)) * a[k][l] }
                        if l > 0 { dt += Double(l) * pow(s, Double(k)) * pow(t, Double(l - 1)) * a[k][l] }
                    }
                }
                let det = ds[0] * dt[1] - dt[0] * ds[1]
                if det > 0 { positive = true } else if det < 0 { negative = true } else { return .infinity }
                let frobenius = (ds[0] * ds[0] + ds[1] * ds[1] + dt[0] * dt[0] + dt[1] * dt[1]).squareRoot()
                let sigma = abs(det) / frobenius
                for ch in 2..<6 { slope = max(slope, (ds[ch] * ds[ch] + dt[ch] * dt[ch]).squareRoot() / sigma) }
            }
        }
        return positive && negative ? .infinity : Float(1.5 * slope)
    }

    init(columns c: Int, rows r: Int, positions: [Point], colors: [Color]) {
        typealias V6 = SIMD8<Double>
        let values: [V6] = (0..<(c * r)).map { k in
            let p = positions[k], col = colors[k]
            return V6(p.x, p.y, col.r, col.g, col.b, col.a, 0, 0)
        }
        func at(_ i: Int, _ j: Int) -> V6 { values[j * c + i] }
        // Catmull-Rom derivatives, one-sided on the border.
        func du(_ i: Int, _ j: Int) -> V6 {
            if i == 0 { return at(1, j) - at(0, j) }
            if i == c - 1 { return at(c - 1, j) - at(c - 2, j) }
            return (at(i + 1, j) - at(i - 1, j)) * 0.5
        }
        func dv(_ i: Int, _ j: Int) -> V6 {
            if j == 0 { return at(i, 1) - at(i, 0) }
            if j == r - 1 { return at(i, r - 1) - at(i, r - 2) }
            return (at(i, j + 1) - at(i, j - 1)) * 0.5
        }
        let m = MeshPatches.hermite
        coefficients.reserveCapacity((c - 1) * (r - 1) * MeshPatches.stride)
        for j in 0..<(r - 1) {
            for i in 0..<(c - 1) {
                // G[a][b]: a over (V at s = 0, V at s = 1, dV/du at s = 0, at s = 1),
                // b likewise in t; the twist block (a, b >= 2) is zero.
                var g = [[V6]](repeating: [V6](repeating: V6(), count: 4), count: 4)
                for a in 0..<2 {
                    for b in 0..<2 {
                        g[a][b] = at(i + a, j + b)
                        g[a][b + 2] = dv(i + a, j + b)
                        g[a + 2][b] = du(i + a, j + b)
                    }
                }
                var coeff = [[V6]](repeating: [V6](repeating: V6(), count: 4), count: 4) // [k][l]
                for k in 0..<4 {
                    for l in 0..<4 {
                        var sum = V6()
                        for a in 0..<4 where m[k][a] != 0 {
                            for b in 0..<4 where m[l][b] != 0 { sum += m[k][a] * m[l][b] * g[a][b] }
                        }
                        coeff[k][l] = sum
                    }
                }
                for ch in 0..<MeshPatches.channels {
                    for l in 0..<4 {
                        for k in 0..<4 { coefficients.append(Float(coeff[k][l][ch])) }
                    }
                }
                // Second-derivative bounds over [0, 1]^2 from the Bezier form
                // of the position (convex hull property): d2P/ds2 is a
                // combination with weights summing to 6 of second differences
                // of the control points along s, d2P/dsdt one with weights
                // summing to 9 of their twists; far tighter than summing the
                // power-basis coefficients.
                var net = [SIMD2<Double>](repeating: .zero, count: 16) // [l * 4 + k]
                for cj in 0..<2 {
                    for ci in 0..<2 {
                        let k = 3 * ci, l = 3 * cj, sk = ci == 0 ? 1 : -1, sl = cj == 0 ? 1 : -1
                        func xy(_ v: V6) -> SIMD2<Double> { SIMD2(v[0], v[1]) }
                        let p = xy(g[ci][cj]), u = xy(g[ci + 2][cj]) / 3, v = xy(g[ci][cj + 2]) / 3
                        net[l * 4 + k] = p
                        net[l * 4 + k + sk] = p + Double(sk) * u
                        net[(l + sl) * 4 + k] = p + Double(sl) * v
                        net[(l + sl) * 4 + k + sk] = p + Double(sk) * u + Double(sl) * v
                    }
                }
                func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
                var ss = 0.0, tt = 0.0, st = 0.0
                for a in 0..<4 {
                    for b in 0..<2 {
                        ss = max(ss, length(net[a * 4 + b + 2] - 2 * net[a * 4 + b + 1] + net[a * 4 + b]))
                        tt = max(tt, length(net[(b + 2) * 4 + a] - 2 * net[(b + 1) * 4 + a] + net[b * 4 + a]))
                    }
                }
                for l in 0..<3 {
                    for k in 0..<3 {
                        st = max(st, length(net[(l + 1) * 4 + k + 1] - net[(l + 1) * 4 + k] - net[l * 4 + k + 1] + net[l * 4 + k]))
                    }
                }
                ss *= 6; tt *= 6; st *= 9
                colorSlope.append(MeshPatches.colorSlope(coeff))
                bendU.append(ss + st)
                bendV.append(tt + st)
            }
        }
    }
}
