// setenv is POSIX, hidden by -std=c11 without this.
#define _POSIX_C_SOURCE 200809L
#include "raster_omp.h"
#include "pixel.h"

#ifdef _OPENMP
#include <stdio.h>
#include <stdlib.h>

// Runs when the library is loaded, before any OpenMP call can start libomp
// (which reads KMP_BLOCKTIME once, when it initialises). A user's own
// KMP_BLOCKTIME wins. kmp_set_blocktime() would only reach teams forked by
// the thread that calls it.
// Whether KMP_BLOCKTIME is ours to adapt (the user did not set it).
static int blocktime_adaptive;

__attribute__((constructor)) static void raster_omp_set_blocktime(void) {
    blocktime_adaptive = getenv("KMP_BLOCKTIME") == NULL;
    char ms[16];
    snprintf(ms, sizeof ms, "%d", RASTER_IDLE_SPIN_MS);
    setenv("KMP_BLOCKTIME", ms, 0);
}
#endif

#include <time.h>

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// Per calling thread: until when its teams count as contended, and the
// spin time last given to libomp (-1: not yet).
static _Thread_local uint64_t contended_until;
static _Thread_local int spin_set = -1;
// The largest team this thread has forked so far. A region with a larger
// one is where libomp starts the new threads (its first region, or the
// first at that size): they arrive late and use little CPU for reasons
// that say nothing about contention, so the region is not judged. Judged,
// it made the site run alone for RASTER_CONTENDED_HOLD_MS from the first
// frame on: 69% of a `run --quick` linear row's regions at 2 threads, on
// an otherwise idle AVX-512 Xeon VM, from that one region.
static _Thread_local int largest_team;

static const uint64_t late_start_ns = (uint64_t)RASTER_LATE_START_US * 1000u;
static const uint64_t contended_hold_ns = (uint64_t)RASTER_CONTENDED_HOLD_MS * 1000000u;
static const uint64_t solo_region_ns = (uint64_t)RASTER_SOLO_REGION_US * 1000u;
static const uint64_t shared_core_min_ns = (uint64_t)RASTER_SHARED_CORE_MIN_US * 1000u;

static uint64_t team_forks, solo_forks;

void raster_team_tally(uint64_t *team, uint64_t *solo) {
    *team = __atomic_load_n(&team_forks, __ATOMIC_RELAXED);
    *solo = __atomic_load_n(&solo_forks, __ATOMIC_RELAXED);
}

static int solo_forced;

void raster_team_force_solo(int mode) { __atomic_store_n(&solo_forced, mode > 0 ? 1 : mode < 0 ? -1 : 0, __ATOMIC_RELAXED); }
int raster_team_solo_forced(void) { return __atomic_load_n(&solo_forced, __ATOMIC_RELAXED); }

int raster_team_fork(raster_team_watch *watch, raster_team_site *site, int team, const int *next, int count) {
    const uint64_t now = now_ns();
    const int forced = raster_team_solo_forced();
    if (team > 1 && (forced > 0 || (forced == 0 && now < site->solo_until))) {
        __atomic_fetch_add(&solo_forks, 1, __ATOMIC_RELAXED);
        return 1;
    }
    if (team > 1) __atomic_fetch_add(&team_forks, 1, __ATOMIC_RELAXED);
#ifdef _OPENMP
    const int want = now < contended_until ? 0 : RASTER_IDLE_SPIN_MS;
    if (blocktime_adaptive && want != spin_set) {
        kmp_set_blocktime(want);
        spin_set = want;
    }
#endif
    *watch = (raster_team_watch){ .team = team, .next = next, .count = count, .site = site };
    // After the setting: its first call on a thread starts libomp there,
    // which takes longer than a late start.
    watch->fork_ns = now_ns();
    return team;
}

// The calling thread's CPU time (a system call, about a microsecond here:
// twice per thread per region).
static uint64_t thread_cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// The CPU time at which this thread arrived in its current region.
static _Thread_local uint64_t arrived_cpu_ns;

void raster_team_arrive(raster_team_watch *watch) {
    arrived_cpu_ns = thread_cpu_ns();
    if (raster_thread_index() == 0) return;
    if (now_ns() - watch->fork_ns <= late_start_ns) return;
    __atomic_store_n(&watch->late, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(watch->next, __ATOMIC_RELAXED) >= watch->count)
        __atomic_fetch_add(&watch->idle, 1, __ATOMIC_RELAXED);
}

void raster_team_leave(raster_team_watch *watch) {
    const uint64_t cpu = thread_cpu_ns() - arrived_cpu_ns;
    __atomic_fetch_add(&watch->cpu_ns, cpu, __ATOMIC_RELAXED);
    if (raster_thread_index() != 0) {
        __atomic_fetch_add(&watch->helper_cpu_ns, cpu, __ATOMIC_RELAXED);
        return;
    }
    watch->caller_done_ns = now_ns();
}

void raster_team_join(const raster_team_watch *watch) {
    if (watch->team > largest_team) {
        largest_team = watch->team;
        return;
    }
    const raster_team_region region = {
        .fork_ns = watch->fork_ns, .caller_done_ns = watch->caller_done_ns, .join_ns = now_ns(),
        .cpu_ns = watch->cpu_ns, .helper_cpu_ns = watch->helper_cpu_ns,
        .late = watch->late, .useless = watch->late && watch->idle == watch->team - 1,
    };
    raster_team_site_verdict(watch->site, raster_team_judge(&region, &contended_until));
}

void raster_team_site_verdict(raster_team_site *site, uint64_t solo_until) {
    if (solo_until && site->armed) site->solo_until = solo_until;
    // Still armed after a hold: the first verdict after it acts at once.
    site->armed = solo_until != 0;
}

uint64_t raster_team_judge(const raster_team_region *r, uint64_t *contended_until) {
    const uint64_t now = r->join_ns, wall = now - r->fork_ns;
    // The team had about one core between its threads (raster_omp.h).
    const int shared = wall >= shared_core_min_ns && r->cpu_ns * 100 < wall * RASTER_TEAM_MIN_CORE_PERCENT;
    if (r->late || shared)
        *contended_until = now + contended_hold_ns;
    else if (now >= *contended_until)
        return 0;
    // Contended, now or lately. A short region goes alone if every helper
    // came to nothing (alone, it is done before a held-back helper would
    // even start), or if the team lost it: the caller waited at the join
    // longer than the helpers worked, for a helper's wake-up or for one the
    // scheduler held back mid-item (raster_omp.h, RASTER_SOLO_REGION_US).
    const int lost = now - r->caller_done_ns > r->helper_cpu_ns;
    if (shared || ((r->useless || lost) && r->caller_done_ns - r->fork_ns < solo_region_ns))
        return now + contended_hold_ns;
    return 0;
}

uint64_t raster_now_ns(void) { return now_ns(); }
uint64_t raster_thread_cpu_ns(void) { return thread_cpu_ns(); }

void raster_omp_test_region(raster_team_watch *watch) {
    #pragma omp parallel num_threads(2)
    {
        raster_team_arrive(watch);
        raster_team_leave(watch);
    }
}

int raster_omp_available(void) {
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

int raster_omp_max_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int raster_omp_blocktime_ms(void) {
#ifdef _OPENMP
    return kmp_get_blocktime();
#else
    return -1;
#endif
}
