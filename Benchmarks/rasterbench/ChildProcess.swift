import CSafeFile
import Foundation
import RasterHarness
import RasterKit
#if canImport(Glibc)
import Glibc
#endif

/// A child process run to completion with a time limit, its output to a
/// file, in a process group of its own so that it and whatever it starts
/// can be stopped together. While `ChildProcess.watchingInterrupts` runs,
/// SIGINT, SIGTERM and SIGHUP sent to this process are passed on to the
/// child's group (a terminal's Ctrl-C no longer reaches it directly), the
/// child is waited for, and the caller's cleanup runs before this process
/// ends by the same signal: no child is left running, no temporary left.
struct ChildProcess {
    enum Outcome: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
    }

    /// How long a child may take to end after SIGTERM before it gets SIGKILL.
    static let graceSeconds = 5.0

    /// Runs `body` with interrupts held for it; on an interrupt `cleanup`
    /// runs and the process ends by that signal.
    static func watchingInterrupts<T>(cleanup: () -> Void, _ body: () throws -> T) rethrows -> T {
        rk_interrupt_watch()
        defer { rk_interrupt_unwatch() }
        let result = try body()
        endIfInterrupted(cleanup: cleanup)
        return result
    }

    /// Ends the process by the pending signal, after `cleanup`, if one arrived.
    static func endIfInterrupted(cleanup: () -> Void) {
        let sig = rk_interrupt_pending()
        guard sig != 0 else { return }
        cleanup()
        rk_interrupt_raise(sig)
    }

    /// Runs `executable` with `arguments`, standard output and error to
    /// `output` (a descriptor), standard input from /dev/null; waits at most
    /// `timeout` seconds, then stops it (SIGTERM, SIGKILL after a grace).
    /// On an interrupt the signal is passed on, the child waited for, then
    /// `cleanup` runs and this process ends by the signal.
    static func run(_ executable: String, arguments: [String], output: Int32, timeout: Double,
                    cleanup: () -> Void) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, s) }
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            throw HarnessError.io(path: Console.escaped(executable), reason: "cannot start (\(String(cString: strerror(spawned))))")
        }
        let start = MonotonicClock.now()
        while true {
            if let outcome = reap(pid, block: false) { return outcome }
            let sig = rk_interrupt_pending()
            if sig != 0 {
                kill(-pid, sig)
                _ = stop(pid, after: graceSeconds)
                cleanup()
                rk_interrupt_raise(sig)
            }
            if MonotonicClock.seconds(since: start) > timeout {
                kill(-pid, SIGTERM)
                _ = stop(pid, after: graceSeconds)
                return .timedOut
            }
            usleep(20_000)
        }
    }

    /// Waits up to `seconds` for the child to end, then kills its group;
    /// whatever it started and left in its group is killed too.
    private static func stop(_ pid: pid_t, after seconds: Double) -> Outcome {
        defer { kill(-pid, SIGKILL) }
        let start = MonotonicClock.now()
        while MonotonicClock.seconds(since: start) < seconds {
            if let outcome = reap(pid, block: false) { return outcome }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
        return reap(pid, block: true) ?? .signalled(SIGKILL)
    }

    private static func reap(_ pid: pid_t, block: Bool) -> Outcome? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, block ? 0 : WNOHANG)
            if r < 0 && errno == EINTR { continue }
            if r == 0 { return nil }
            if r < 0 { return .signalled(0) } // not our child any more: nothing to wait for
            break
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(status & 0x7f)
    }
}
