import Foundation
import Synchronization
import CRasterOMP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of threads that run one parallel loop at a time.
///
/// Why not `DispatchQueue.concurrentPerform`: on this Linux toolchain it
/// decides by itself how many workers join (measured here: 2 requested
/// threads ran no faster than 1 while the C backend's OpenMP team doubled
/// its speed), so "the thread count the caller sets" would be a wish rather
/// than a setting. Here `threads` means at most that many threads: the
/// caller plus `threads - 1` parked workers.
///
/// Work is handed out, not assigned: a loop is `items` independent items,
/// and every participant (the caller first) claims the next unclaimed item
/// until none is left. The caller returns when every item is done; it never
/// waits for a worker that has not claimed one. So when another thread
/// holds a core (on a phone, the app's own threads), a worker that is not
/// scheduled simply takes no part and the caller does its share: a loop
/// costs at most one item more than on one thread, instead of waiting a
/// whole scheduler slice for the slowest of equal bands. Which participant
/// runs an item never changes what the item computes, so images do not
/// depend on the thread count or on who was scheduled; `participant`
/// (0 for the caller) only picks per-thread scratch.
///
/// Hand-off: a finished worker spins on its ticket for `spinWindow` before
/// it sleeps on a semaphore, as libomp's workers do for KMP_BLOCKTIME (200
/// ms there). Waking a sleeping thread costs tens of microseconds on this
/// VM -- more than a whole 2-thread path fill -- so back-to-back kernels
/// (a frame's ops, a benchmark's samples) need hot workers. The window is
/// short so that an idle renderer between 60 Hz frames burns little; when
/// the pool has more threads than the host has cores, workers never spin
/// (a spinning thread would steal the core of one with work) but yield.
/// Nor do they for a while after one of them started a loop late, which
/// means another thread wants its core (raster_omp.h, RASTER_LATE_START_US,
/// says why spinning then costs the caller a scheduler slice).
///
/// Handing out is not enough under contention: a worker that claims an
/// item on the core another thread holds can be preempted partway, and the
/// caller, out of items, waits a scheduler slice for it; a loop of two
/// items (a path fill's two bands) gains nothing from a worker at half a
/// core; and a worker woken onto the caller's own core runs the loop while
/// the caller waits. So every call site keeps an account of the loops its
/// workers lost it while contended (`Balance`; contention is signalled by
/// the OpenMP backend's rules, `raster_team_judge`, and by such a
/// hand-off), and one that lost runs on the caller alone for
/// RASTER_CONTENDED_HOLD_MS, then tries its workers again. Sites are told
/// apart by their source location.
final class WorkerPool: @unchecked Sendable {
    let threads: Int
    /// The current loop's body; written only while no item of it can be
    /// claimed (before the claim word is published, after every item is done).
    private var task: ((Int, Int) -> Void)?
    private let workers: [Worker]
    /// The claim word: generation << 32 | item count << 16 | next item. One
    /// word, so that a worker still holding an older generation's ticket can
    /// never claim an item of a newer loop (its compare-and-swap fails).
    private let claim = Atomic<Int>(0)
    /// Items of the current loop finished.
    private let done = Atomic<Int>(0)
    private var generation = 0
    /// Whether waiting threads may busy-wait (threads <= cores).
    private let spins: Bool
    /// When the current loop was handed out, and until when idle workers
    /// sleep at once instead of spinning (uptime nanoseconds).
    /// (raster_now_ns.)
    private let handedOut = Atomic<UInt64>(0)
    private let contendedUntil = Atomic<UInt64>(0)
    private static let lateStart = UInt64(RASTER_LATE_START_US) * 1_000
    private static let contendedHold = UInt64(RASTER_CONTENDED_HOLD_MS) * 1_000_000
    /// The current loop: whether a worker started it late, and the CPU
    /// time the workers spent on its items (added before each item counts
    /// as done, so the caller reads it complete).
    private let startedLate = Atomic<Bool>(false)
    private let workerCPU = Atomic<UInt64>(0)
    /// Each call site's account (see `Balance`); read and written under
    /// `exclusive`. A site's account is made when it is first contended,
    /// which can be any frame of an animation, so the table's room is made
    /// up front (`siteCapacity`): a first account, or the table growing
    /// for one, would be an allocation that a steady frame keeps.
    private var sites: [Site: Balance] = [:]
    /// Room for this many sites' accounts (the package has about 20 call
    /// sites of `run`; more only means the table may grow once).
    static let siteCapacity = 64
    private static let teamLoops = Atomic<UInt64>(0), soloLoops = Atomic<UInt64>(0)
    /// One parallel loop at a time per pool.
    private let exclusive = NSLock()
    /// The most items one loop may have (16 bits of the claim word).
    static let maximumItems = 0xFFFF

    /// How long an idle worker stays hot after a loop (shared with the
    /// OpenMP backend's KMP_BLOCKTIME: raster_omp.h says why).
    static let spinWindow: Duration = .milliseconds(Int(RASTER_IDLE_SPIN_MS))

    private static let registry = NSLock()
    nonisolated(unsafe) private static var pools: [Int: WorkerPool] = [:]

    /// The pool with `threads` threads, created on first use and kept for
    /// the life of the process (so steady-state frames create no threads).
    static func shared(threads: Int) -> WorkerPool {
        registry.lock(); defer { registry.unlock() }
        if let pool = pools[threads] { return pool }
        let pool = WorkerPool(threads: threads)
        pools[threads] = pool
        return pool
    }

    private init(threads: Int) {
        self.threads = threads
        workers = (1..<max(threads, 1)).map { _ in Worker() }
        spins = threads <= ProcessInfo.processInfo.activeProcessorCount
        sites.reserveCapacity(WorkerPool.siteCapacity)
        for i in 1..<max(threads, 1) {
            let t = Thread { [unowned self] in self.work(index: i) }
            t.name = "rasterkit-worker-\(i)"
            t.stackSize = 1 << 20
            t.start()
        }
    }

    private func work(index: Int) {
        let w = index - 1
        var seen = 0
        while true {
            seen = awaitTicket(workers[w], after: seen)
            let now = raster_now_ns()
            if now &- handedOut.load(ordering: .relaxed) > WorkerPool.lateStart {
                startedLate.store(true, ordering: .relaxed)
                contendedUntil.store(now + WorkerPool.contendedHold, ordering: .relaxed)
            }
            participate(index, generation: seen)
        }
    }

    /// Claims and runs items of loop `generation` until none is left, and
    /// returns how many it ran. A worker adds its CPU time on them to
    /// `workerCPU`.
    @discardableResult
    private func participate(_ participant: Int, generation: Int) -> Int {
        var cpu = participant == 0 ? 0 : raster_thread_cpu_ns()
        var ran = 0
        while true {
            let word = claim.load(ordering: .acquiring)
            let next = word & 0xFFFF, count = word >> 16 & 0xFFFF
            guard word >> 32 == generation & 0xFFFF_FFFF, next < count else { return ran }
            guard claim.compareExchange(expected: word, desired: word + 1, ordering: .acquiringAndReleasing).exchanged
            else { continue }
            task!(participant, next)
            if participant != 0 {
                let now = raster_thread_cpu_ns()
                workerCPU.add(now &- cpu, ordering: .relaxed)
                cpu = now
            }
            ran += 1
            done.add(1, ordering: .releasing)
        }
    }

    /// Returns worker `w`'s next ticket: spinning for `spinWindow` (none
    /// while contended), then asleep. The sleeping flag is a handshake:
    /// whoever clears it (the worker on seeing its ticket, or `run` after
    /// posting one) decides whether the semaphore is signalled, so no
    /// wake-up is lost or doubled.
    private func awaitTicket(_ w: Worker, after seen: Int) -> Int {
        let clock = ContinuousClock()
        let contended = raster_now_ns() < contendedUntil.load(ordering: .relaxed)
        let deadline = clock.now.advanced(by: WorkerPool.spinWindow)
        var polls = 0
        while !contended {
            let t = w.ticket.load(ordering: .acquiring)
            if t != seen { return t }
            polls += 1
            if !spins { sched_yield() }
            if polls & 255 == 0 && clock.now >= deadline { break }
        }
        w.sleeping.store(true, ordering: .sequentiallyConsistent)
        let t = w.ticket.load(ordering: .sequentiallyConsistent)
        if t != seen && w.sleeping.exchange(false, ordering: .sequentiallyConsistent) { return t }
        w.wake.wait() // `run` cleared the flag and signals (or has signalled)
        return w.ticket.load(ordering: .acquiring)
    }

    /// Whether the contention rules have the call site at `file`:`line`
    /// run on the caller alone now; a loop there is then counted as a solo
    /// loop. For callers that then run their work whole, as on one thread
    /// (`RowBands`: a path fill's bands each repeat a set-up).
    func alone(file: StaticString = #fileID, line: UInt = #line) -> Bool {
        guard threads > 1 else { return false }
        exclusive.lock(); defer { exclusive.unlock() }
        guard soloNow(Site(file: file, line: line), at: raster_now_ns()) else { return false }
        WorkerPool.soloLoops.add(1, ordering: .relaxed)
        return true
    }

    /// How many sites have accounts, and how many the table holds before it
    /// must grow (a test reads this to see that no account allocates).
    var siteRoom: (count: Int, capacity: Int) {
        exclusive.lock(); defer { exclusive.unlock() }
        return (sites.count, sites.capacity)
    }

    /// Whether `site` runs alone at `now` (raster_team_force_solo's test
    /// switch first). Under `exclusive`.
    private func soloNow(_ site: Site, at now: UInt64) -> Bool {
        let forced = raster_team_solo_forced()
        return forced != 0 ? forced > 0 : sites[site].map { now < $0.soloUntil } == true
    }

    /// Runs `body(participant, item)` for every item in 0..<items, each
    /// once, on up to `threads` threads (participant 0 is the caller,
    /// the others are below min(threads, items)), and returns when all are
    /// done, with their writes visible. `file` and `line` name the call
    /// site, whose loops the contention rules judge together (see the
    /// type's note).
    func run(items: Int, file: StaticString = #fileID, line: UInt = #line,
             _ body: (_ participant: Int, _ item: Int) -> Void) {
        precondition(items >= 1 && items <= WorkerPool.maximumItems)
        let helpers = min(threads, items) - 1
        if helpers == 0 { for i in 0..<items { body(0, i) }; return }
        exclusive.lock(); defer { exclusive.unlock() }
        let start = raster_now_ns(), site = Site(file: file, line: line)
        if soloNow(site, at: start) {
            WorkerPool.soloLoops.add(1, ordering: .relaxed)
            for i in 0..<items { body(0, i) }
            return
        }
        WorkerPool.teamLoops.add(1, ordering: .relaxed)
        // The one allocation of a loop with workers: `withoutActuallyEscaping`
        // boxes the closure (its escape check reads the box's count). The
        // box is freed here, before `run` returns: the check traps if a
        // worker still held it, so every allocation of a loop is given back
        // within the loop (the soak and WorkerPoolAllocationTests count them).
        withoutActuallyEscaping(body) { body in
            task = body
            generation += 1
            let ticket = generation & 0xFFFF_FFFF
            done.store(0, ordering: .relaxed)
            startedLate.store(false, ordering: .relaxed)
            workerCPU.store(0, ordering: .relaxed)
            handedOut.store(start, ordering: .relaxed)
            claim.store(ticket << 32 | items << 16, ordering: .releasing)
            for w in workers[0..<helpers] {
                w.ticket.store(ticket, ordering: .sequentiallyConsistent)
                if w.sleeping.exchange(false, ordering: .sequentiallyConsistent) { w.wake.signal() }
            }
            let cpu = raster_thread_cpu_ns()
            let callerItems = participate(0, generation: ticket)
            let callerDone = raster_now_ns(), callerCPU = raster_thread_cpu_ns() &- cpu
            var polls = 0
            while done.load(ordering: .acquiring) < items {
                polls += 1
                if !spins || polls > WorkerPool.joinSpinPolls { sched_yield() }
            }
            task = nil
            // The pool's first loop is where its workers first run, late
            // for reasons that say nothing about contention: not judged.
            if generation > 1 {
                let helperCPU = workerCPU.load(ordering: .relaxed)
                var region = raster_team_region(
                    fork_ns: start, caller_done_ns: callerDone, join_ns: raster_now_ns(),
                    cpu_ns: callerCPU &+ helperCPU, helper_cpu_ns: helperCPU,
                    late: startedLate.load(ordering: .relaxed) ? 1 : 0, useless: 0)
                var until = contendedUntil.load(ordering: .relaxed)
                let solo = raster_team_judge(&region, &until)
                // The caller ran none of the items: a woken worker took its
                // core (the other is taken) and ran the loop alone, after a
                // hand-off of two context switches. That is contention too.
                if callerItems == 0 { until = max(until, region.join_ns &+ WorkerPool.contendedHold) }
                contendedUntil.store(until, ordering: .relaxed)
                // A site gets an account when first contended (so an
                // uncontended frame never grows the table).
                let contended = region.join_ns < until
                if contended || sites[site] != nil {
                    sites[site, default: Balance()].add(region, contended: contended, handedOff: callerItems == 0,
                                                        judged: items <= threads ? solo : nil)
                }
            }
        }
    }

    /// A call site's account of its workers while contended. Three rules,
    /// each read from a loop's clocks:
    /// - **Handed off.** The caller ran none of the items: the worker it
    ///   woke took its core (the other core being taken) and ran the whole
    ///   loop while the caller waited, so the loop cost its 1-thread time
    ///   plus two context switches. A trace of the fill's call site under
    ///   `run --contend 1` on the 2-core Xeon VM showed it in most
    ///   contended 2-band fills: the caller's CPU time under a microsecond,
    ///   its wall time the loop's (re-check: print `callerItems`,
    ///   `callerCPU` and the region's times per loop in `run`, under the
    ///   command below). Such a loop counts as lost, and as
    ///   contention (idle workers then sleep instead of spinning on the
    ///   caller's core).
    /// - **One item per participant** (a path fill's bands: each repeats a
    ///   set-up, so there is one per thread). Nothing to rebalance: a
    ///   held-back worker holds its share, as in an OpenMP region, so such
    ///   a loop is judged alone by the OpenMP backend's per-region rule
    ///   (`raster_team_judge`: a lost short region, or a team that shared
    ///   one core), or handed off; either is a verdict, and the second in a
    ///   row sends the site alone.
    /// - **More items than participants.** Handed out as threads come
    ///   free, so under contention most loops still gain and a few lose a
    ///   slice (OpenMP's join, by contrast, waits for every helper). Per
    ///   loop: whether the caller alone would have been done sooner (at
    ///   the rate it did its own share) than the loop was. After
    ///   `WorkerPool.balanceLoops` contended loops, a site that lost most
    ///   goes alone. Why a count of lost loops and not the time lost: on a
    ///   VM the hypervisor holds either virtual CPU back now and then
    ///   (steal), which also reads as contention; one such hold on a
    ///   worker outweighs many loops' gain, while the caller's own holds,
    ///   which going alone would not avoid, are seldom in its short share
    ///   of a loop. A sum of time sent sites alone on an otherwise idle VM
    ///   and cost 2-thread frames their gain; the count did not.
    /// A site sent alone stays so for RASTER_CONTENDED_HOLD_MS, then tries
    /// its workers again.
    ///
    /// Measured on the 2-core Xeon VM, `rasterbench run --variants
    /// exact,full --backends simd,openmp --threads 1,2 --quick --no-dram
    /// --contend 1 --rounds 10` (48 workloads), rows whose 2-thread median
    /// was `slower` than their 1-thread one (the whole 95% interval above
    /// 1.02): with the count rule alone, 1 in each of two runs (morph simd,
    /// a 2-band fill: 1.26 and 1.24); with the per-region rule added for
    /// one-item-per-participant loops, 0, 1 and 1 in three runs; with the
    /// hand-off rule too, 0 in each of three runs. With every loop forced
    /// alone (2 threads doing exactly the 1-thread work) that host showed
    /// t2/t1 of 1.00-1.53 for identical work: it resolves such a ratio to
    /// about 10%. Uncontended, `rasterbench ab` against the build without
    /// a rule (8 rounds, every simd workload at 1 and 2 threads): no
    /// 2-thread row slower with the count rule (geomean +1.0%); with a sum
    /// of time, 4 of 24 (geomean +9.8%).
    struct Balance {
        /// Until when the site runs alone, and whether its last judged
        /// loop drew a verdict (raster_omp.h's two-in-a-row rule).
        var site = raster_team_site()
        var soloUntil: UInt64 { site.solo_until }
        /// Loops so far, and those the workers lost.
        var loops = 0, losses = 0

        /// `judged`: for a loop that had no item to hand out beyond one
        /// per participant, the OpenMP backend's verdict on it (0: keep
        /// the workers; else run alone until then). `handedOff`: the
        /// caller ran none of the loop's items, which counts as lost.
        /// Such a loop is one sample, as an OpenMP region is: the site goes
        /// alone on the second verdict in a row (raster_team_site_verdict).
        mutating func add(_ loop: raster_team_region, contended: Bool, handedOff: Bool, judged: UInt64?) {
            guard contended else {
                loops = 0; losses = 0
                raster_team_site_verdict(&site, 0)
                return
            }
            if let judged {
                // (The judge's deadline is this one: the join plus the hold.)
                raster_team_site_verdict(&site, judged != 0 || handedOff ? loop.join_ns &+ WorkerPool.contendedHold : 0)
                return
            }
            // The caller alone would do all the work at the rate it did its
            // own share: its CPU time over its wall time, which is below 1
            // when the caller, not a worker, is on the contended core.
            let callerCPU = loop.cpu_ns &- loop.helper_cpu_ns, callerWall = loop.caller_done_ns &- loop.fork_ns
            let work = Double(loop.cpu_ns)
            let alone = callerCPU >= callerWall || callerCPU == 0 ? work : work * Double(callerWall) / Double(callerCPU)
            if handedOff || alone < Double(loop.join_ns &- loop.fork_ns) { losses += 1 }
            loops += 1
            guard loops >= WorkerPool.balanceLoops else { return }
            if 2 * losses > loops { site.solo_until = loop.join_ns &+ WorkerPool.contendedHold }
            loops = 0
            losses = 0
        }
    }

    /// Polls the caller spins at the join before it yields its core on
    /// every poll. A worker that holds the last item may be on the
    /// caller's own core (under contention the scheduler can leave both
    /// there while another thread has the other core: raster_omp.h,
    /// RASTER_TEAM_MIN_CORE_PERCENT); a caller that spins then takes half
    /// of that core from the worker it waits for, and the loop runs at up
    /// to twice its 1-thread time. Yielding costs a system call when no
    /// one else wants the core, so the caller first spins for the last
    /// item's usual lag (a few microseconds). Seen on the 2-core Xeon VM
    /// with `rasterbench run --scenes morph --filter morph --variants exact
    /// --backends simd --threads 1,2 --quick --no-dram --contend 1 --rounds
    /// 12`, each round's t=2 median over its t=1 median: with a caller that
    /// always spun, the scaled morph rows ran at 1.5-2.0 in one to four
    /// rounds of 12. Such rounds remain with the yield (the idle worker's
    /// own spin window, when contention is not yet signalled, can do the
    /// same), so the yield is kept for the argument, not for a measured gain.
    static let joinSpinPolls = 128

    /// Contended loops a site's account covers: enough that a few loops
    /// whose worker was held back do not decide alone, few enough that a
    /// site that loses is found within a few frames (morph's fill: 16
    /// loops of about 0.4 ms).
    static let balanceLoops = 16

    /// A call site of `run`, told apart by its source location.
    private struct Site: Hashable {
        let file: UInt, line: UInt
        init(file: StaticString, line: UInt) {
            self.file = UInt(bitPattern: file.utf8Start)
            self.line = line
        }
    }

    /// How many loops of two or more threads ran with their workers
    /// (`team`) or were sent to the caller alone by the contention rules
    /// (`solo`), in this process (the harness reports the share).
    static var tally: (team: UInt64, solo: UInt64) {
        (teamLoops.load(ordering: .relaxed), soloLoops.load(ordering: .relaxed))
    }
}

/// The simd backend's loops of two or more threads in this process: how
/// many ran with their workers and how many the contention rules sent to
/// the caller alone (WorkerPool says why), for the harness's report.
public enum SIMDLoopTally {
    public static var team: UInt64 { WorkerPool.tally.team }
    public static var solo: UInt64 { WorkerPool.tally.solo }
}

/// One parked thread's hand-off state.
private final class Worker: Sendable {
    /// The generation of the last loop handed to this worker.
    let ticket = Atomic<Int>(0)
    /// Set while the worker sleeps (or is about to) on `wake`.
    let sleeping = Atomic<Bool>(false)
    let wake = DispatchSemaphore(value: 0)
}
