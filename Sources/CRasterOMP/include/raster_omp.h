// RasterBench's C backend: C99 kernels parallelised with OpenMP pragmas.
//
// Every function works on premultiplied RGBA8 rows (`stride` bytes apart)
// and takes the thread count explicitly. The maths of each kernel is the one
// documented in RasterKit/Kernels; this file knows nothing of Swift.
// Built without -fopenmp the pragmas are ignored and everything runs on the
// calling thread; raster_omp_available() tells which build this is.
#ifndef RASTER_OMP_H
#define RASTER_OMP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The largest canvas side accepted (RasterKit's Image.maxDimension): 2^15
/// keeps every byte offset and every pixel coordinate exactly
/// representable in Int32 and Float, and bounds K4's strip table.
#define RASTER_MAX_DIMENSION 32768

/// 1 when compiled with OpenMP, 0 when the pragmas were ignored.
int raster_omp_available(void);
/// Pins the calling thread to one core (Linux; 0 on success, -1 where
/// refused or unsupported). For the harness's contending threads.
int raster_pin_thread(int core);

/// Runs `iterations` rounds of independent float multiply-adds, each
/// raster_fma_probe_lanes() wide, on the calling thread and returns a value
/// to keep (so none is dead code); raster_fma_probe_flops() is the
/// floating-point operations that did.
float raster_fma_probe(long iterations, float seed);
long raster_fma_probe_flops(long iterations);
/// The probe's vector width in floats: 16 where the build has AVX-512, else 8.
int raster_fma_probe_lanes(void);

/// The OpenMP runtime's default team size (1 without OpenMP).
int raster_omp_max_threads(void);
/// libomp's idle spin time for the calling thread's teams in ms (-1 without
/// OpenMP): RASTER_IDLE_SPIN_MS, or 0 while they are contended.
int raster_omp_blocktime_ms(void);

/// A parallel region's contention watch (see RASTER_LATE_START_US). The
/// caller calls raster_team_fork() before the region, with the team it
/// wants and the claim counter its threads will take `count` items from;
/// it returns the team to use: 1 means run the items on the caller, with no
/// region. Every thread calls raster_team_arrive() first thing inside the
/// region and raster_team_leave() when it has no more items, and the caller
/// raster_team_join() after it.
///
/// Two adaptations follow. While the calling thread's teams are contended,
/// their idle threads sleep at once (the KMP blocktime, which follows the
/// thread that forks; a user's own KMP_BLOCKTIME is left alone). And a call
/// site whose helpers came late to find every item taken, in a region the
/// caller finished within RASTER_SOLO_REGION_US, runs on the caller alone
/// for RASTER_CONTENDED_HOLD_MS, then tries its team again:
/// OpenMP's join waits for every thread of a team, even one that only
/// arrives to leave, so a short region gains nothing from a thread the
/// scheduler holds back and waits a slice for it. So does a site that,
/// while the calling thread's teams are contended, lost a short region:
/// the caller waited at the join for longer than the helpers worked in it
/// (their CPU time between arriving and leaving), so the caller alone
/// would have been done sooner. Under contention an idle helper sleeps,
/// and in regions of tens of microseconds its wake-up alone costs more than
/// its share of the work; uncontended, helpers spin between regions and the
/// rule is off, so a wake-up after an idle gap (a frame's first region)
/// does not send a site alone. A site whose team, over
/// a region of at least RASTER_SHARED_CORE_MIN_US, ran for less than
/// RASTER_TEAM_MIN_CORE_PERCENT of one core's time (the threads' CPU
/// time, summed, against the region's wall time) also runs alone for as
/// long: its threads are sharing one core (see that constant). None of
/// this judges the region in which a thread first forks a team of its
/// size: libomp starts the team's threads there, late by far. `site` is
/// the call site's own state (a static _Thread_local, zeroed).
///
/// Each rule judges one region, and one region is one sample: a site goes
/// alone on the second of two verdicts in a row among its judged regions
/// (raster_team_site_verdict), and after its hold on the first verdict of
/// a contention that outlasted it. A competing thread makes most regions
/// lose, so it costs one more region. A hypervisor's hold of one virtual
/// CPU makes a single one: on the 2-core AMD EPYC VM with nothing else
/// running, about one K1 frame in 230 at 2 threads lost a helper for most
/// of a 0.6 ms region, and the site then ran alone for the whole hold,
/// 70% of a `bench` row's regions, its median at the 1-thread time.
/// Re-check: Results/studies/steal/alternate.sh (`bench` of the suite's
/// K1 frame on openmp at 2 threads, two builds alternating, each process's
/// count of regions run alone).
typedef struct {
    uint64_t solo_until;
    /// The site's last judged region drew a verdict.
    int armed;
} raster_team_site;
/// Applies raster_team_judge's verdict on one of `site`'s regions (0, or
/// the time until which it would run alone) by the two-in-a-row rule above.
void raster_team_site_verdict(raster_team_site *site, uint64_t solo_until);
typedef struct {
    uint64_t fork_ns, caller_done_ns, cpu_ns, helper_cpu_ns;
    int late, idle, count, team;
    const int *next;
    raster_team_site *site;
} raster_team_watch;
int raster_team_fork(raster_team_watch *watch, raster_team_site *site, int team, const int *next, int count);
void raster_team_arrive(raster_team_watch *watch);
void raster_team_leave(raster_team_watch *watch);
void raster_team_join(const raster_team_watch *watch);

/// One finished parallel region (an OpenMP team's, or a loop of the simd
/// backend's worker pool), as its caller measured it, for the rules above,
/// written once. The OpenMP backend acts on their verdict; the simd pool
/// takes only their contention signal and judges its call sites by how
/// many of their loops were lost (its WorkerPool says why). Times are
/// raster_now_ns() and raster_thread_cpu_ns() readings.
typedef struct {
    /// When the work was handed out; when the caller ran out of items;
    /// when every item was done.
    uint64_t fork_ns, caller_done_ns, join_ns;
    /// CPU time all threads, and the helpers alone, spent on the items.
    uint64_t cpu_ns, helper_cpu_ns;
    /// Some helper started more than RASTER_LATE_START_US after the fork;
    /// every helper did and found no item left, and the join waited for
    /// them (OpenMP's does; the simd pool never waits for a helper that
    /// claimed nothing, so it passes 0).
    int late, useless;
} raster_team_region;
/// Judges `region` by the rules above. `contended_until` is the caller's
/// contention clock, moved on when the region shows contention. Returns
/// the time until which the region's call site runs on the caller alone,
/// 0 when it keeps its team.
uint64_t raster_team_judge(const raster_team_region *region, uint64_t *contended_until);
/// For tests: 1 sends every call site of both threaded backends to the
/// caller alone, as the rules above would (so the solo paths can be checked
/// against the 1-thread image); -1 sends none (for tests of how work is
/// split); 0, the default, leaves it to the rules.
void raster_team_force_solo(int mode);
int raster_team_solo_forced(void);
/// CLOCK_MONOTONIC and the calling thread's CPU time, in ns.
uint64_t raster_now_ns(void);
uint64_t raster_thread_cpu_ns(void);
/// How many calls of raster_team_fork() in this process asked for a team
/// of two or more and got it (`team`) or were sent to the caller alone by
/// the rules above (`solo`): the harness prints the share after a run, so a
/// 2-thread openmp row timed like its 1-thread row says why.
void raster_team_tally(uint64_t *team, uint64_t *solo);
/// An empty two-thread region in which each thread arrives at `watch`: for
/// the watch's tests.
void raster_omp_test_region(raster_team_watch *watch);

/// K1 over one image or plane. `px`, `py` hold `count` point positions,
/// `colors` 4 floats (r, g, b, a, premultiplied, 8-bit units) per point.
/// Pixel (i, j) of the output samples q = ((i + 0.5) sample_x,
/// (j + 0.5) sample_y) in the points' coordinates (RasterKit's
/// FreeformGrid); `swirl` > 0 warps q first (unit space: rotation about
/// (0.5, 0.5) by swirl |q - m|^2, then a clamp to [0, 1]^2).
/// `whole_exponent` > 0 evaluates m^e by multiplication;
/// 0 uses powf(m, exponent). `table` (NULL for none) is the `lut` variant's
/// influence curve over t = d^2/L^2 with `table_intervals` + 2 entries.
/// `columns` is the caller's memory for `count` rows of `pitch` floats,
/// pitch >= the width rounded up to RASTER_OMP_FREEFORM_CHUNK (the x part
/// of each point's d^2/L^2, filled here; unused with a swirl).
/// `uniform_alpha` says every colour has the same alpha.
#define RASTER_OMP_FREEFORM_CHUNK 64
/// The most points a gradient has (RasterKit's FreeformGradient.maxPoints
/// reads it): the rows keep per-point state in arrays of this size.
#define RASTER_OMP_FREEFORM_MAX_POINTS 16
typedef struct raster_omp_freeform {
    int count;
    const float *px;
    const float *py;
    const float *colors;
    float inv_influence;
    float exponent;
    int whole_exponent;
    const float *table;
    int table_intervals;
    float sample_x;
    float sample_y;
    float swirl;
    float *columns;
    int pitch;
    int uniform_alpha;
} raster_omp_freeform;

/// K1's swirl needs sin and cos of theta in [0, 32] (swirl <= 64,
/// |q - m|^2 <= 1/2). The simd and openmp backends share this polynomial
/// (raster_k1_lanes.h's raster_k1_sincos16, which gives the accuracy argument):
/// k = round(theta 2/pi), r = theta - k pi/2 by Cody and Waite's two-part
/// pi/2 (PIO2_HI is pi/2 rounded to float, PIO2_LO the rest; each product
/// is fused), then Taylor polynomials on |r| <= pi/4 to r^9 (sin) and
/// r^10 (cos), whose remainders are below 2e-9, and the quadrant k mod 4.
// How long an idle worker thread stays hot (spinning) after a parallel loop
// before it sleeps, in milliseconds, for both threaded backends: the simd
// backend's WorkerPool and libomp's team (KMP_BLOCKTIME, set from this at
// load time unless the user set it; libomp's own default is 200 ms). A
// frame's ops run back to back, well inside it; 60 Hz frames are 16.7 ms
// apart, so between frames an idle renderer sleeps instead of burning two
// cores. It also keeps one backend's idle team from stealing a core from the
// next benchmark row: with 200 ms, a simd row at 2 threads measured right
// after an openmp row ran its first ~14 samples at 2.6x its median
// (telegram exact, the scene run of 77e277f, `git show c9a8dbf:Results/vm-2026-11-22-scenes.csv`, samples_ms). Re-check:
// `run --scenes telegram,liquid,morph --threads 2 --backends simd,openmp
// --rounds 3 --quick` and the simd rows' p95/median: 2.77 on average (7.73
// at worst) with 200 ms, 1.08 (1.16) with 1 ms, same host, one after the other.
#define RASTER_IDLE_SPIN_MS 1

// Contention, for both threaded backends. A worker that starts a parallel
// loop more than RASTER_LATE_START_US after the caller handed it out was
// held back by the scheduler: another thread wants its core (on a phone,
// the app's own threads; here `run --contend`). For RASTER_CONTENDED_HOLD_MS
// after that, idle workers do not spin for RASTER_IDLE_SPIN_MS but sleep at
// once. Why: a worker spinning on a shared core uses up its scheduler slice
// spinning, so it is preempted partway through a later loop, and the caller
// waits out the other thread's slice (milliseconds) for the item it holds
// (OpenMP's join waits for it even when it holds none); a worker that
// sleeps runs only in short bursts with work, which finish inside a slice.
// The late start is far above a hand-off to a spinning worker (about a
// microsecond) or a wake from sleep (tens of microseconds here) and below a
// slice (0.75 ms and up). Re-check: `rasterbench run --scenes liquid,morph
// --kernels fill,composite --variants exact --backends simd,openmp --threads
// 1,2 --contend 1 --rounds 3 --quick` and each row's t=2 median against its
// t=1 median, with RASTER_CONTENDED_HOLD_MS 0 (the old behaviour) and as set.
#define RASTER_LATE_START_US 200
#define RASTER_CONTENDED_HOLD_MS 100
// While contended, an OpenMP region the caller alone finishes within this
// runs on the caller alone; a longer one keeps its team (raster_team_fork
// says how). The break-even: a helper on a shared core gets about half of
// it, so it saves at most a third of a region of length L, while waiting
// for it costs a scheduler slice S (milliseconds) in the regions where it
// is held back, a fraction p of them: L = 3 p S, about 2 ms for p = 1/2
// and S = 1.5 ms. Re-check as for RASTER_CONTENDED_HOLD_MS: at 1 ms the
// composite kernel (a 1.2 ms region) ran 2.2x slower at t=2 than at t=1;
// with every site alone while contended, the openmp stars fill and the
// scaled scenes lost their t=2 gain (0.4-0.6 of t=1 became 1.0).
#define RASTER_SOLO_REGION_US 2000
// While another thread holds one core of two, the scheduler may put a
// team's two threads on the other core together and leave them there
// (two runnable threads there, one here: moving one would not even the
// load). They then take turns, and the region costs the caller's work plus
// the switching and the join's wait for a thread that is between turns:
// 2-thread frames ran up to 1.3x their 1-thread time under `run --contend
// 1`. A late start does not show it (the woken helper may preempt the
// caller at once); the threads' CPU time does: summed over a region, it is
// about one core's worth of the wall time instead of nearly two. Below
// RASTER_TEAM_MIN_CORE_PERCENT of one core the site runs alone for
// RASTER_CONTENDED_HOLD_MS. A helper on the other thread's core, with the
// caller on a free one (or the reverse), still adds about half a core: 150%,
// above the line. Regions under RASTER_SHARED_CORE_MIN_US are left to the
// late-start rule: in them, waking a sleeping helper is a large part of the
// wall time. Re-check as for RASTER_CONTENDED_HOLD_MS.
#define RASTER_TEAM_MIN_CORE_PERCENT 125
#define RASTER_SHARED_CORE_MIN_US 500

// How rows are shared among threads, for both threaded backends (the simd
// backend's RowBands reads these). Rows go in bands of at least
// RASTER_MIN_ROWS_PER_THREAD (below that a hand-off costs more than the
// band), up to RASTER_BANDS_PER_THREAD bands per thread, which the threads
// take as they come free (OpenMP's schedule(dynamic); the simd backend's
// WorkerPool): when another thread holds a core -- on a phone, the app's
// own -- a thread the scheduler holds back leaves its bands to the others
// instead of making them wait at the end of the loop for one equal share.
// Re-check: `rasterbench run --kernels linear,freeform --threads 1,2
// --contend 1` and compare each row's t=2 median with its t=1 median.
#define RASTER_MIN_ROWS_PER_THREAD 8
#define RASTER_BANDS_PER_THREAD 4

#define RASTER_OMP_SWIRL_2_OVER_PI 0.636619772f
#define RASTER_OMP_SWIRL_PIO2_HI 1.57079637f
#define RASTER_OMP_SWIRL_PIO2_LO (-4.37113901e-8f)
#define RASTER_OMP_SWIRL_SIN3 (-1.66666672e-1f)
#define RASTER_OMP_SWIRL_SIN5 8.33333377e-3f
#define RASTER_OMP_SWIRL_SIN7 (-1.98412701e-4f)
#define RASTER_OMP_SWIRL_SIN9 2.75573188e-6f
#define RASTER_OMP_SWIRL_COS4 4.16666679e-2f
#define RASTER_OMP_SWIRL_COS6 (-1.38888892e-3f)
#define RASTER_OMP_SWIRL_COS8 2.48015876e-5f
#define RASTER_OMP_SWIRL_COS10 (-2.75573188e-7f)

/// The swirl's sin and cos of `n` angles (for tests of that stage).
void raster_omp_swirl_sincos(const float *theta, float *sin_theta, float *cos_theta, int n);

/// K1 written as RGBA8 into every pixel of `dst`.
void raster_omp_freeform_rgba8(const raster_omp_freeform *g, uint8_t *dst, int width, int height,
                               ptrdiff_t stride, int threads);

/// K1 written as four Float planes (r, g, b, a; `width * height` each,
/// consecutive) for the grid variants.
void raster_omp_freeform_planes(const raster_omp_freeform *g, float *planes, int width, int height,
                                int threads);

/// Bilinear up-sampling of four planes of `sw` x `sh` floats into RGBA8
/// `dst` (width x height). The caller gives the taps (RasterKit's
/// BilinearAxis, one formula for every backend): per output column
/// `tap_index`/`tap_weight` (`width` entries: left source column and the
/// right one's weight, 0 at the last column), per output row
/// `row_index`/`row_weight` (`height` entries). Each band of output rows
/// stretches the source rows it reads into two row slots of its thread's
/// scratch (pixel.h's raster_row_pair says why) and blends them. Scratch:
/// `rows` holds 8 * width floats per thread (`threads` of them). `planes`
/// holds RASTER_UPSAMPLE_PAD more floats after its 4 * sw * sh, zeroed:
/// the stretch loads eight floats from a block's first source column
/// (raster_pack8.h's raster_taps8_near), so the last row's loads reach
/// past it, and its last column's right tap (weight 0) must be finite.
#define RASTER_UPSAMPLE_PAD 8
void raster_omp_upsample(const float *planes, int sw, int sh, float *rows, const int32_t *tap_index,
                         const float *tap_weight, const int32_t *row_index, const float *row_weight,
                         uint8_t *dst, int width, int height, ptrdiff_t stride, int threads);

/// Bilinear resampling of RGBA8 `src` (sw x sh) into RGBA8 `dst`
/// (width x height) with the caller's taps (as raster_omp_upsample; the
/// source row taps index rows of `src`). Each band of output rows stretches
/// the source rows it reads to the target width (interleaved RGBA floats)
/// into two row slots of its thread's scratch and blends them. Scratch:
/// `rows` holds 8 * width floats per thread (`threads` of them).
void raster_omp_resample(const uint8_t *src, int sw, int sh, ptrdiff_t src_stride, float *rows,
                         const int32_t *tap_index, const float *tap_weight,
                         const int32_t *row_index, const float *row_weight,
                         uint8_t *dst, int width, int height, ptrdiff_t stride, int threads);

/// K2 pad: u is clamped to [LOW, HIGH] before the stop rule. Any range
/// strictly containing [0, 1] gives the same colours (the rule pads by
/// itself); clamping to [0, 1] would not: u > 1 would land ON a stop at 1
/// and u < 0 on a stop at 0, where coincident stops pick the later one.
#define RASTER_GRADIENT_PAD_LOW (-1.0f)
#define RASTER_GRADIENT_PAD_HIGH 2.0f

/// K2's most stops, and most ramp intervals: n stops give n - 1 intervals
/// between them plus the pad colours before the first and from the last.
#define RASTER_GRADIENT_MAX_STOPS 16
#define RASTER_GRADIENT_MAX_INTERVALS 17
_Static_assert(RASTER_GRADIENT_MAX_INTERVALS == RASTER_GRADIENT_MAX_STOPS + 1, "intervals = stops + 1");

/// K2. `shape` 0: linear, geometry = {ux, uy, u_origin}, u = x*ux + y*uy +
/// u_origin at pixel centres' integer coordinates (the half-pixel offset is
/// folded into u_origin). 1: radial, geometry = {cx - 0.5, cy - 0.5, 1/r}.
/// The ramp has `intervals` entries: start offset, slope and bias (4 floats
/// each) of the affine colour u * slope + bias, built as GradientRamp
/// builds it: starts non-decreasing, the first from -inf and the last at
/// the last stop, both constant colours (slope 0). The run code relies on
/// that last one: it has no end in `starts`, and pad's clamp may take t
/// past the last stop, where only a constant colour is right.
/// `extend` 0 pad, 1 repeat, 2 reflect.
void raster_omp_gradient(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                         const double geometry[3], const float *starts, const float *slopes,
                         const float *biases, int intervals, int extend, int threads);

/// K2's rows as work items, which every threaded schedule of every
/// variant shares out. A radial frame whose centre has a whole 2 cy = m
/// draws rows [a, c) and copies each to row m - y, which has the same |dy|
/// (y - cy rounds symmetrically), hence the same words whatever the
/// variant computes from it; rows [m - c + 1, m - a] are then no items of
/// their own. Otherwise (and for linear frames) one item per row,
/// a = c = 0.
typedef struct { int items, a, c, m; } raster_gradient_row_plan;

raster_gradient_row_plan raster_gradient_plan_rows(int shape, int height, const double geometry[3]);

/// The row that item `i` of `plan` draws: items below the copies' first
/// row are rows; the rest are shifted past the copies.
static inline int raster_gradient_plan_row(raster_gradient_row_plan plan, int i) {
    return i < plan.m - plan.c + 1 ? i : i + (plan.c - plan.a);
}

/// After row y of the frame at `dst` is drawn: its copy to row m - y, if
/// the plan gives it one.
void raster_gradient_plan_copy(raster_gradient_row_plan plan, uint8_t *dst, ptrdiff_t stride, int width, int y);

typedef struct {
    int interval;
    float period, sign, offset;
    /// 1 + the class's slot in the frame's fold table when the ladder gave
    /// the run (so the slot is looked up once per frame), else 0.
    int fold;
} raster_gradient_span;

/// A radial frame's classes in the order of the distance d from the centre:
/// rung j holds the pixels whose d lies in [top of rung j - 1, top of rung
/// j) (rung 0 from d = 0; the last rung has no top), all of class span[j].
/// With it a row's runs follow from one another: each run's end is where
/// the row crosses its rung's top (going out) or bottom (going in), x = cx
/// +- sqrt(d^2 - dy^2), and the next run is the next rung -- when the
/// crossing is far enough from the pixel centres on both sides that Float's
/// u cannot put either pixel in another class (raster_gradient_next_span
/// checks that, and classifies the pixels where it does not hold).
#define RASTER_GRADIENT_LADDER_RUNGS 128
typedef struct {
    /// 0: the frame has more classes than rungs (a radius of a few pixels
    /// over a large canvas); its rows find their runs by classifying.
    int rungs;
    /// Per interval of the ramp: its rung within a period (repeat), within
    /// the rising half of a double period (reflect; the falling half is in
    /// the reverse order), or its rung (pad); -1 when no u >= 0 has it.
    int step[RASTER_GRADIENT_MAX_INTERVALS];
    /// Rungs per period (per double period for reflect; all of them for pad).
    int per_period;
    raster_gradient_span span[RASTER_GRADIENT_LADDER_RUNGS];
    /// The distance of the rung's top (inf: none), and the gap a pixel
    /// centre must keep from it: 2^-20 (u_top + inv_r + 2) d_top
    /// (gradient_spans.c's ladder_run gives the argument).
    double top[RASTER_GRADIENT_LADDER_RUNGS], margin[RASTER_GRADIENT_LADDER_RUNGS];
} raster_gradient_ladder;

/// K2 rows as spans. Along a row u is monotone (linear) or monotone on each
/// side of the centre column (radial), so the row splits into runs of
/// pixels that share one ramp interval and one extend period: within a run
/// t = sign * (u - period) + offset and the colour is one affine function
/// of u. `raster_gradient_u` is the u every backend's span code computes.
typedef struct {
    int shape;             // 0 linear: u = x * ux + u0; 1 radial: u = sqrt((x - cx)^2 + dy2) * inv_r
    int extend;            // 0 pad, 1 repeat, 2 reflect
    int intervals;         // entries of `starts` (the ramp's intervals)
    int width;
    int mid;               // radial: the first x with x - cx >= 0
    const float *starts;
    float ux, u0, cx, dy2, inv_r;
    int known_x;           // the pixel whose class `known` holds (found while ending the run before), or -1
    struct { int interval; float period, sign, offset; } known;
    double radius;         // radial: 1 / inv_r, so that a run's end is estimated without a divide per run
    const raster_gradient_ladder *ladder; // radial: the frame's ladder (set by the caller), or NULL
    int rung;              // with a ladder: pixel known_x is certainly on this rung or further along the side, or -1
} raster_gradient_row;

float raster_gradient_u(const raster_gradient_row *row, int x);

/// Sets `row` to row y's parameters for a call whose `geometry` is
/// raster_omp_gradient's. In place, not returned: a caller that copies a
/// returned row reads it in wider loads than the stores that wrote it,
/// and each such load waits for the stores to retire (a stall per row that
/// cost the simd backend about a tenth of its linear frame; re-check:
/// perf annotate the row loop and look for samples right after the call).
void raster_gradient_row_init(raster_gradient_row *row, int shape, int extend, const float *starts, int intervals,
                              int width, const double geometry[3], int y);

/// The run of the row that starts at pixel x (< width): fills `span` and
/// returns the run's end (exclusive). Every pixel of the run classifies,
/// by the stop and extend rules applied to raster_gradient_u, as `span`
/// says; the next pixel does not. The row remembers the class of the
/// pixel after the run (when it was found) for the next call. A radial row
/// given its frame's ladder (raster_gradient_row_use_ladder) takes each
/// run's end from the ladder where that is certain, and classifies pixels
/// only where it is not: the same runs, found with fewer steps.
int raster_gradient_next_span(raster_gradient_row *row, int x, raster_gradient_span *span);

/// A radial row is symmetric about the centre column when 2 cx is a whole
/// number (the centre on a pixel centre or between two): then x - cx is
/// exact in Float and pixel x has the u (hence the colour) of pixel
/// m - x. Returns m when that holds and the centre splits the row, else -1.
/// Pixels [max(0, m - width + 1), mid) can then be copied from their
/// mirrors in [mid, width).
int raster_gradient_mirror_axis(const raster_gradient_row *row);

/// A linear run's colours in fixed point, stepped by integer adds.
/// Within a run t, hence each channel c = t * slope + bias, is affine in x;
/// `start` holds (c(x0) + 1/2) * 2^RASTER_GRADIENT_STEP_BITS rounded, and
/// `step` the change per pixel likewise, both evaluated in double from the
/// row's parameters (the same u that classified the run). Pixel x0 + i is
/// (start + i * step) >> RASTER_GRADIENT_STEP_BITS: the half added before
/// the floor is the round-half-up of docs/contract.md §1, and no clamp is
/// needed because the colours at both ends of the chunk (an affine function
/// has its extremes there) are within [RASTER_GRADIENT_STEP_MARGIN,
/// 256 - RASTER_GRADIENT_STEP_MARGIN] after the half is added.
///
/// Why this holds the ±1 bound of docs/contract.md §3: start is rounded
/// once and step once, each to 2^-(BITS + 1) of a level, so over a chunk of
/// at most RASTER_GRADIENT_STEP_PIXELS pixels the stepped value is within
/// (PIXELS + 1) * 2^-(BITS + 1) < 0.002 levels (less than the margin) of
/// c(x): the byte is the rounding of a value that close to the
/// double-precision colour of the run's affine t, itself the per-pixel
/// colour up to Float's u.
/// Returns the chunk's end (x0 < end <= x1), or x0 when a colour leaves
/// that range (a steep ramp extrapolated past a Float boundary, or a colour
/// rounding to 0 or 255 at an end): then the caller shades the chunk per
/// pixel with a clamp. Values stepped past the chunk's end may wrap; only
/// unsigned or vector (wrapping) adds may compute them, and their pixels
/// belong to later runs of the row.
#define RASTER_GRADIENT_STEP_BITS 20
#define RASTER_GRADIENT_STEP_PIXELS 4096
#define RASTER_GRADIENT_STEP_MARGIN 0.015625
int raster_gradient_run_steps(const raster_gradient_row *row, const raster_gradient_span *span, const float *slope,
                              const float *bias, int x0, int x1, int32_t start[4], int32_t step[4]);

/// A radial run's colours as one multiply-add per channel from
/// d = sqrt((x - cx)^2 + dy2), the distance the run loops compute: within
/// the run t = sign * (d * inv_r - period) + offset and the channel is
/// t * slope + bias, so channel + 1/2 = d * k + c with k and c evaluated
/// in double and rounded to Float once (the half of round-half-up folded
/// into c; the loops floor or truncate the result). Every pixel of the run
/// has t in the interval [lo, hi] up to Float's rounding of u, so its
/// colour lies between the interval's end colours. The run qualifies
/// (returns 1, filling k and c) when those end colours plus the half are
/// within [RASTER_GRADIENT_FOLD_MARGIN, 256 - RASTER_GRADIENT_FOLD_MARGIN]
/// and every term (|slope| * u, |c|) is below RASTER_GRADIENT_FOLD_LIMIT:
/// then u's rounding moves a colour by at most 2^14 * 2^-23 = 2^-9 of a
/// level, and each of the three Float roundings of the fold (k, c, the
/// multiply-add) by at most 2^14 * 2^-24 = 2^-10, together far below the
/// margin, so the result needs no clamp. Otherwise (a steep interval,
/// terms that would cancel, colours outside [0, 255]) it returns 0 and the
/// caller clamps t to the interval as before. No square root: it costs a
/// few multiplies per run.
#define RASTER_GRADIENT_FOLD_LIMIT 16384.0
#define RASTER_GRADIENT_FOLD_MARGIN 0.375
int raster_gradient_radial_fold(const raster_gradient_row *row, const raster_gradient_span *span, const float *slope,
                                const float *bias, float k[4], float c[4]);

/// A radial frame's folds (raster_gradient_radial_fold), each computed
/// once per frame rather than once per run: a fold depends on the run's
/// class (interval, period, mirrored) and the frame's inv_r, never on the
/// row. The table holds every class whose period index (period for
/// repeat, period / 2 for reflect, 0 for pad) is below `periods`, which
/// covers the u of the frame's corners when the table is large enough;
/// a class it does not hold is folded per run. Folding per run took about
/// 7% of the gradient's samples when `bench` drew the gradients study's
/// jobs/radial-off.json (simd, 1 thread; re-check with `perf record` and
/// look for raster_gradient_radial_fold).
#define RASTER_GRADIENT_FOLD_SLOTS 256
typedef struct {
    int periods, intervals, extend;
    /// Per slot: 1 when the class folds (k and c hold its coefficients), else 0.
    uint8_t folds[RASTER_GRADIENT_FOLD_SLOTS];
    float k[RASTER_GRADIENT_FOLD_SLOTS][4], c[RASTER_GRADIENT_FOLD_SLOTS][4];
    /// The frame's classes by distance, for its rows' `ladder`.
    raster_gradient_ladder ladder;
} raster_gradient_fold_table;

/// Gives a radial row of the frame `table` was made for the frame's ladder
/// (when it has one), for raster_gradient_next_span.
static inline void raster_gradient_row_use_ladder(raster_gradient_row *row, const raster_gradient_fold_table *table) {
    if (table && row->shape != 0 && table->ladder.rungs > 0) row->ladder = &table->ladder;
}

/// Fills `table` for a radial call of raster_omp_gradient's parameters on a
/// width x height canvas.
void raster_gradient_fold_table_init(raster_gradient_fold_table *table, int extend, const float *starts,
                                     const float *slopes, const float *biases, int intervals, int width, int height,
                                     const double geometry[3]);
/// Calls body(table, context) with a table filled as above that lives on
/// this call's stack: a frame's table is 13 KB, above what Swift's
/// temporary allocations keep off the heap, and the simd backend allocates
/// nothing per frame.
void raster_gradient_with_fold_table(int extend, const float *starts, const float *slopes, const float *biases,
                                     int intervals, int width, int height, const double geometry[3],
                                     void (*body)(const raster_gradient_fold_table *table, void *context), void *context);

/// The slot of `span`'s class in `table`, or -1 when the table does not
/// hold it. It never holds the last interval: the suite's ramps make it a
/// constant colour, filled rather than folded, and give no end for it in
/// `starts`.
static inline int raster_gradient_fold_slot(const raster_gradient_fold_table *table, const raster_gradient_span *span) {
    const float j = table->extend == 2 ? span->period * 0.5f : span->period;
    if (!(j >= 0.0f && j < (float)table->periods) || span->interval + 1 >= table->intervals) return -1;
    return (2 * (int)j + (span->sign < 0.0f)) * table->intervals + span->interval;
}

/// `span`'s fold from `table`: 1 when its class folds (`k` and `c` then
/// point at the coefficients), 0 when it does not, -1 when the table does
/// not hold the class (the caller folds the run itself).
static inline int raster_gradient_fold_lookup(const raster_gradient_fold_table *table, const raster_gradient_span *span,
                                              const float **k, const float **c) {
    const int slot = span->fold > 0 ? span->fold - 1 : raster_gradient_fold_slot(table, span);
    if (slot < 0) return -1;
    *k = table->k[slot];
    *c = table->c[slot];
    return table->folds[slot];
}

/// Pixels per expected run below which a row is cheaper per pixel (a
/// compare and select per interval) than as runs.
#define RASTER_GRADIENT_SPAN_MIN_PIXELS 16.0

/// Whether rows of `width` pixels, u changing by at most `u_per_pixel` per
/// pixel, should be drawn as runs.
int raster_gradient_prefers_spans(int width, double u_per_pixel, int intervals, int extend, int shape);

/// K2's `lut` variant: the ramp sampled into a table of `size` colours, as
/// Blend2D and vello_cpu do. Entry 1 + i holds the stop rule's colour at
/// t = (i + 0.5) / size (i in [0, size)); entry 0 holds the colour before
/// the first stop and entry size + 1 the colour from the last stop on, so
/// pad needs only a clamp of the entry index to [-1, size] (+ 1), and both
/// pad colours are exact. An interval narrower than one entry (stops closer
/// than 1/size) is not resolved: it shows as a hard edge where the entry
/// centres cross it. `size` is a power of two (repeat and reflect wrap by
/// masking) between these bounds, the smallest at which no channel of the
/// ramp changes by more than RASTER_GRADIENT_LUT_STEP per entry.
#define RASTER_GRADIENT_LUT_MIN 256
#define RASTER_GRADIENT_LUT_MAX 1024
#define RASTER_GRADIENT_LUT_STEP 1.0f
/// Radial positions (in entries, float) are held at or below this before
/// their conversion: it fits every backend's float-to-int path, is a
/// multiple of every table period, and a float this large has no fraction
/// left to look up.
#define RASTER_GRADIENT_LUT_RADIAL_CAP 4194304.0f

/// The whole entry (floor) of entry position v = u * size, held within
/// +-2^62 so that no conversion overflows (such positions have no
/// fraction left in a double anyway); NaN gives entry 0.
static inline int64_t raster_gradient_lut_entry(double v) {
    if (!(v > -0x1p62)) v = v != v ? 0.0 : -0x1p62;
    if (v > 0x1p62) v = 0x1p62;
    return (int64_t)floor(v);
}

/// The table index of a whole entry by the extend mode (0 pad, 1 repeat,
/// 2 reflect): every backend's lookup rule.
static inline int raster_gradient_lut_index(int64_t entry, int size, int extend) {
    if (extend == 0) return (int)(entry < -1 ? -1 : (entry > size ? size : entry)) + 1;
    if (extend == 1) return (int)(entry & (size - 1)) + 1;
    const int m = (int)(entry & (2 * size - 1));
    return (m < size ? m : 2 * size - 1 - m) + 1;
}

/// The table size for a ramp of `intervals` slopes (4 floats each, 8-bit
/// units per unit t).
int raster_gradient_lut_size(const float *slopes, int intervals);

/// Fills `lut` (size + 2 words) from the ramp, by the rule above.
void raster_gradient_lut_build(uint32_t *lut, int size, const float *starts, const float *slopes,
                               const float *biases, int intervals);

/// The variant's whole image; arguments as raster_omp_gradient's, plus the
/// table. Linear rows step a 32.32 fixed-point entry position per pixel
/// (rows whose positions would not fit take the position per pixel in
/// double); radial rows take one square root per pixel (on the right of a
/// centre whose 2 cx is whole: the left half is its mirror image).
void raster_omp_gradient_lut(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                             const double geometry[3], const uint32_t *lut, int size, int extend, int threads);

/// Draws item `i` of `plan` (its row, and the mirror copy if it has one)
/// into the frame at `dst`; other arguments as raster_omp_gradient_lut's.
void raster_gradient_lut_item(uint8_t *dst, ptrdiff_t stride, int width, raster_gradient_row_plan plan, int i, int shape,
                              const double geometry[3], const uint32_t *lut, int size, int extend);

/// The stages of a row, for their tests: pixels [x, width) of a linear row
/// whose entry position at pixel x is p (32.32 fixed point), growing by
/// `step` per pixel (entry = p >> 32, which must fit int32 on the row);
/// and a whole radial row.
void raster_gradient_lut_steps(uint32_t *row, int x, int width, int64_t p, int64_t step, const uint32_t *lut, int size,
                               int extend);
void raster_gradient_lut_radial_row(uint32_t *row, int width, int y, const double geometry[3], const uint32_t *lut,
                                    int size, int extend);

/// K6: `dst = src * opacity + dst * (1 - src.a * opacity / 255)`.
void raster_omp_composite(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride,
                          int width, int height, float opacity, int threads);

/// K3 Gaussian blur. One 1-D filter along a line of `length` samples, as
/// RasterKit's `BlurLineFilter` describes it (maths in GaussianBlur.swift):
/// - RASTER_OMP_BLUR_FIR: exact taps; `taps` holds 2 * (reach + 3) + 1
///   weights w_{-reach-3} ... w_{reach+3} (zero beyond `reach`), `tail` the
///   weight of taps cut beyond the line on each side (clamp edges only).
/// - RASTER_OMP_BLUR_BOX: three extended-box passes of radius `box_radius`
///   with end taps `box_alpha`, `box_norm` = 1 / (2r + 1 + 2 alpha), values on
///   an integer grid of 1 / `box_grid` 8-bit units.
/// - RASTER_OMP_BLUR_IIR: Deriche's recursion; `iir` holds two sections of
///   10 floats: pole, causal, anticausal, causal rest, anticausal rest
///   (re, im each), as DericheIIR.floats.
/// `clamp` 1 repeats the edge samples, 0 reads zeros outside the line.
typedef enum raster_omp_blur_kind {
    RASTER_OMP_BLUR_FIR = 0,
    RASTER_OMP_BLUR_BOX = 1,
    RASTER_OMP_BLUR_IIR = 2,
} raster_omp_blur_kind;

typedef struct raster_omp_blur_filter {
    int kind;
    int length;
    int clamp;
    const float *taps;
    int reach;
    float tail;
    int box_radius;
    float box_alpha;
    float box_norm;
    float box_grid;
    float iir[20];
} raster_omp_blur_filter;

/// Samples in one line buffer of filter `f` (the line plus its edge
/// padding); each buffer holds that many times 64 floats, and each thread
/// needs two.
size_t raster_omp_blur_samples(const raster_omp_blur_filter *f);

/// K3 at full resolution, in place on RGBA8 `image`: `rows` along x (its
/// length is `width`), then `columns` along y (length `height`), through
/// `plane` (strips * height * 64 UInt16, 8.8 fixed point, stored strip by
/// strip; strips = ceil(width / 16)). `buffers` holds
/// 2 * buffer_floats floats per thread for min(threads, max(bands, strips))
/// threads, where bands = ceil(height / 16) and strips = ceil(width / 16);
/// buffer_floats >= 64 * raster_omp_blur_samples of both filters. The
/// result does not depend on `threads`.
void raster_omp_blur(const raster_omp_blur_filter *rows, const raster_omp_blur_filter *columns,
                     uint8_t *image, int width, int height, ptrdiff_t stride,
                     uint16_t *plane, float *buffers, size_t buffer_floats, int threads);

/// K3's down-sampled variants: area down-sample of `image` by `factor` into
/// `small` (sw * sh * 4 UInt16 8.8, sw = rows->length, sh =
/// columns->length), `rows` and `columns` on it through `small_plane`
/// (ceil(sw / 16) * sh * 64 UInt16), bilinear up-sample back into `image`. `clamp` selects how edge
/// blocks average (inside pixels only, or zeros included). `buffers` as for
/// raster_omp_blur with sw, sh; `row_buffers` holds
/// 32 * ceil(width / 4) + 4 * (sw + 3) floats per thread for
/// min(threads, height) threads.
void raster_omp_blur_resampled(const raster_omp_blur_filter *rows, const raster_omp_blur_filter *columns,
                               int factor, int clamp, uint8_t *image, int width, int height, ptrdiff_t stride,
                               uint16_t *small, uint16_t *small_plane, float *buffers, size_t buffer_floats,
                               float *row_buffers, int threads);

// K4, the path fill, has its own header beside this one: raster_fill.h.

/// K5, the Liquid article's tangent control points: `n` >= 3 anchors (x, y
/// interleaved) forming a closed loop give 2n control points in `out`
/// (4n floats: c1_i then c2_i for each arc i -> i + 1), with
/// t_i = normalise(p_{i+1} - p_{i-1}) (zero if that is zero),
/// c1_i = p_i + t_i |p_{i+1} - p_i| / 3, c2_i = p_{i+1} - t_{i+1} |p_{i+1} - p_i| / 3.
void raster_omp_control_points(const float *anchors, float *out, int64_t n, int threads);


// ---------------------------------------------------------------------------
// K7 mesh gradient. Constants shared with the Swift backends (defined here
// only; Swift imports them).

/// The exact variant's tessellation: chords within this many pixels of the
/// surface. Each pixel's (u, v) is then refined by one Newton step, which
/// from half a pixel away lands within ~1e-3 px, so the tolerance only has
/// to keep Newton in its basin.
#define RASTER_MESH_TOLERANCE 0.5f
/// The exact variant skips the Newton step in a cell whose estimated colour
/// slope (8-bit units per pixel) times RASTER_MESH_TOLERANCE is at most this:
/// the linearly interpolated (u, v) is then within this many units of colour,
/// which with Float arithmetic and rounding (< 1 more) stays inside the bound of 3 in docs/contract.md §3.
#define RASTER_MESH_SKIP_NEWTON 1.0f
/// The `coarse` variant's chord tolerance: no Newton step, so a pixel's
/// (u, v) is off by up to this much (times the colour's slope per pixel).
#define RASTER_MESH_COARSE_TOLERANCE 1.0f
/// Most tessellation segments per cell and axis (a cell's chords may exceed
/// the tolerance beyond that: only for cells bent by thousands of pixels).
#define RASTER_MESH_MAX_SEGMENTS 128
/// Rows per strip: the (u, v) winner planes hold one strip, so they stay in
/// cache between the rasterising and the shading pass.
#define RASTER_MESH_STRIP_ROWS 16
/// Barycentric slack of the inside test: a pixel centre on an edge shared by
/// two triangles is taken by both (rounding can never leave a crack), and
/// the fold rule keeps one of them.
#define RASTER_MESH_EDGE_SLACK 1e-4f
/// Floats per cell in `raster_omp_mesh.coefficients`: 6 channels (x, y, r,
/// g, b, a) x 16 power-basis coefficients, a[ch][l * 4 + k] for s^k t^l.
#define RASTER_MESH_CELL_FLOATS 96

/// K7's tessellated mesh as built by the Swift set-up (RasterKit's
/// MeshLattice): a lattice of `nu` x `nv` nodes at global parameters
/// `lattice_u[a]`, `lattice_v[b]` with positions `nodes[2 * (b * nu + a)]`
/// (x, y). Lattice quad q = b * (nu - 1) + a spans nodes (a, b)...(a+1, b+1)
/// and lies in one cell. `strip_start[k]...strip_start[k+1]` index the quads
/// in `strip_quads` that may cover rows of strip k
/// (RASTER_MESH_STRIP_ROWS rows each).
typedef struct raster_omp_mesh {
    int cell_columns;
    int cell_rows;
    const float *coefficients;
    int nu;
    int nv;
    const float *lattice_u;
    const float *lattice_v;
    const float *nodes;
    const int32_t *strip_start;
    const int32_t *strip_quads;
    int strips;
    /// Per cell: 1 when its pixels take one Newton step (exact variant, a
    /// steep or folded cell), 0 when not; NULL: never.
    const uint8_t *refine;
    /// The `coarse` variant (Gouraud): 4 floats (r, g, b, a) per node, laid
    /// out as `nodes`; each triangle's colour is interpolated linearly from
    /// them instead of the bicubic evaluated per pixel. NULL otherwise.
    const float *node_colors;
} raster_omp_mesh;

/// K7 source-over onto `dst`. Per strip: the strip's quads are rasterised
/// (two triangles each, (u, v) interpolated linearly) into winner planes
/// that keep, per pixel, the largest (v, u) (the fold rule of docs/contract.md §2.7, so the order
/// of the quads does not matter), then each covered pixel's (u, v) is
/// refined (if `refine`), its colour evaluated from its cell's bicubic and
/// composited. `planes` holds RASTER_MESH_PLANES(node_colors != NULL) *
/// width * RASTER_MESH_STRIP_ROWS floats per thread (`threads` of them).
/// Strips are independent: the image does not depend on the thread count.
/// Winner planes per thread: u and v, plus r, g, b, a for `coarse`.
#define RASTER_MESH_PLANES_UV 2
#define RASTER_MESH_PLANES_GOURAUD 6
#define RASTER_MESH_PLANES(gouraud) ((gouraud) ? RASTER_MESH_PLANES_GOURAUD : RASTER_MESH_PLANES_UV)

void raster_omp_mesh_rgba8(const raster_omp_mesh *mesh, float *planes, uint8_t *dst, int width, int height,
                           ptrdiff_t stride, int threads);

#ifdef __cplusplus
}
#endif
#endif
