import CRasterOMP
import Foundation
import RasterKit

/// How much of its cores a run really had, read before and after it: the
/// hypervisor's steal time (Linux's /proc/stat: time a virtual CPU was
/// ready to run and the host ran something else) and how many of the
/// OpenMP backend's parallel regions and the simd backend's parallel loops
/// their contention rules sent to the caller alone (raster_team_tally,
/// raster_omp.h; `SIMDLoopTally`).
///
/// Why a run says so: on a shared VM with nothing else running in the
/// guest, one virtual CPU can be held back for hundreds of microseconds at
/// a time. The openmp backend's rules cannot tell that from another thread
/// of the guest taking the core (`run --contend`) and rightly run short
/// regions on the caller alone for a while, so an openmp row at 2 threads
/// can time like its 1-thread row while the load average says the host is
/// idle. Measured on a 2-core Xeon VM with an idle guest: the helper's
/// virtual CPU lost 15-27% of its busy time to steal over `run --kernels
/// fill --backends openmp --threads 1,2`, and 20-82% of the regions ran
/// alone. Re-check: Results/studies/steal/run.sh.
public struct CoreAvailability: Sendable, Equatable {
    /// Ticks of CPU time over all CPUs: all of them, and the stolen part.
    public var totalTicks: UInt64
    public var stealTicks: UInt64
    /// raster_team_tally's counts.
    public var teamRegions: UInt64
    public var soloRegions: UInt64
    /// SIMDLoopTally's counts.
    public var teamLoops: UInt64 = 0
    public var soloLoops: UInt64 = 0

    public static func now() -> CoreAvailability {
        let ticks = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap(Self.cpuTicks)
        var team: UInt64 = 0, solo: UInt64 = 0
        raster_team_tally(&team, &solo)
        return CoreAvailability(totalTicks: ticks?.total ?? 0, stealTicks: ticks?.steal ?? 0, teamRegions: team, soloRegions: solo,
                                teamLoops: SIMDLoopTally.team, soloLoops: SIMDLoopTally.solo)
    }

    /// The aggregate "cpu" line of /proc/stat: user nice system idle iowait
    /// irq softirq steal [guest guest_nice], in clock ticks. Guest time is
    /// already inside user and nice, so the total is the first eight
    /// fields. Nil when the line is missing or malformed, or has no steal
    /// field (kernels before 2.6.11).
    public static func cpuTicks(_ stat: String) -> (total: UInt64, steal: UInt64)? {
        guard let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let fields = line.split(separator: " ").dropFirst()
        let numbers = fields.compactMap { UInt64($0) }
        guard numbers.count == fields.count, numbers.count >= 8 else { return nil }
        let (total, overflow) = numbers.prefix(8).reduce((UInt64(0), false)) { acc, v in
            let (s, o) = acc.0.addingReportingOverflow(v)
            return (s, acc.1 || o)
        }
        return overflow ? nil : (total, numbers[7])
    }

    /// What changed from `before` to `self`, as lines for the end of a run:
    /// steal above half a percent of the CPU time, and solo regions when
    /// there were any. Empty when neither happened.
    public func report(since before: CoreAvailability) -> [String] {
        var lines: [String] = []
        if totalTicks > before.totalTicks, stealTicks >= before.stealTicks {
            let share = Double(stealTicks - before.stealTicks) / Double(totalTicks - before.totalTicks)
            if share >= 0.005 {
                lines.append("hypervisor steal: \(Human.percent(share)) of the CPU time while the rows ran (/proc/stat): "
                             + "the VM's host ran other work on these cores, so times are pessimistic, the 2-thread rows most")
            }
        }
        let held = "a helper's core was taken (by another thread or the hypervisor) and the contention rules of raster_omp.h held "
        if teamRegions >= before.teamRegions, soloRegions > before.soloRegions {
            let solo = soloRegions - before.soloRegions, all = solo + (teamRegions - before.teamRegions)
            lines.append("openmp: \(solo) of \(all) parallel regions (\(Human.percent(Double(solo) / Double(all)))) ran on the "
                         + "calling thread alone: " + held + "the team back")
        }
        if teamLoops >= before.teamLoops, soloLoops > before.soloLoops {
            let solo = soloLoops - before.soloLoops, all = solo + (teamLoops - before.teamLoops)
            lines.append("simd: \(solo) of \(all) parallel loops (\(Human.percent(Double(solo) / Double(all)))) ran on the "
                         + "calling thread alone: " + held + "the workers back")
        }
        return lines
    }
}
