import Foundation
import RasterKit

/// Colours: one hue per backend (the reader learns them once), and per
/// report a lightness step, so two reports of the same backend sit side by
/// side as a darker and a lighter bar of the same colour.
enum Palette {
    static func hue(_ backend: BackendKind) -> (Double, Double) {
        switch backend {
        case .naive: return (220, 0.08)
        case .simd: return (205, 0.85)
        case .openmp: return (32, 0.95)
        }
    }

    /// `source` 0 is the first report; later ones are lighter.
    static func colour(_ backend: BackendKind, source: Int = 0) -> String {
        let (h, s) = hue(backend)
        let l = [58.0, 76.0, 42.0, 86.0][source % 4] - (backend == .naive ? 8 : 0)
        return "hsl(\(Int(h)),\(Int(s * 100))%,\(Int(l))%)"
    }

    /// One thread drawn lighter than several, so t=1 and t=N of a backend pair up.
    static func colour(_ backend: BackendKind, source: Int, threads: Int) -> String {
        guard threads == 1, backend != .naive else { return colour(backend, source: source) }
        let (h, s) = hue(backend)
        let l = [78.0, 88.0, 64.0, 92.0][source % 4]
        return "hsl(\(Int(h)),\(Int(s * 100))%,\(Int(l))%)"
    }

    /// For series that are not backends (targets in one chart).
    static func series(_ i: Int) -> String {
        let hues = [205, 32, 140, 330, 265, 55, 180, 0]
        return "hsl(\(hues[i % hues.count]),75%,\(i / hues.count % 2 == 0 ? 60 : 75)%)"
    }

    static let budget = "#ff453a"
    static let front = "#64d2ff"
}
