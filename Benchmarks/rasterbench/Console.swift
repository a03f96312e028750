import Foundation
import RasterHarness
#if canImport(Glibc)
import Glibc
#endif

/// Messages for the terminal: warnings go to stderr, the progress line
/// redraws itself in place on a terminal and prints plain lines otherwise.
///
/// stdout is block-buffered when it is a pipe or a file, stderr is not: a
/// note written to stderr while a table sits half-way in stdout's buffer
/// lands in the middle of a table row (`2>&1 | tee`). Every stderr write
/// therefore flushes stdout first, and clears a progress line in place.
enum Console {
    static func warn(_ text: String) {
        ProgressLine.clearActive()
        writeError(text + "\n")
    }

    /// Writes to stderr after what stdout holds, so the two stay in order.
    static func writeError(_ text: String) {
        fflush(stdout)
        FileHandle.standardError.write(Data(text.utf8))
    }
}

final class ProgressLine {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var shown = false

    /// The line a terminal shows now, if any: a warning clears it first
    /// so that the warning starts at column 0.
    nonisolated(unsafe) private static var active: ProgressLine?

    func show(_ text: String, elapsed: Double) {
        let line = "\(ProgressLine.clock(elapsed)) \(text)"
        if isTerminal {
            Console.writeError("\r\u{1B}[K\(line)")
            ProgressLine.active = self
        } else {
            Console.writeError(line + "\n")
        }
        shown = true
    }

    func finish() {
        if isTerminal && shown { Console.writeError("\r\u{1B}[K") }
        if ProgressLine.active === self { ProgressLine.active = nil }
    }

    static func clearActive() { active?.finish() }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds)
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}

extension Console {
    /// Load above ~half the cores means other processes compete for the CPU
    /// (on a 2-core host, one busy neighbour halves a 2-thread kernel).
    static func warnIfBusy(_ host: HostInfo) {
        guard let load = HostInfo.loadAverage(), load > 0.5 * Double(host.cores) else { return }
        warn("note: load average \(Human.number(load)) on \(host.cores) cores: other processes compete for the CPU; "
             + "expect noisy, pessimistic times (each row records load_avg)")
    }
}
