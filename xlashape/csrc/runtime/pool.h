/* A persistent pool of worker threads for the batch kernels.
 *
 * xs_pool_run cuts rows [0, n) into chunks, and the calling thread and up
 * to threads - 1 workers take chunks until none is left. The caller never
 * waits for a worker that has not started: a worker that wakes late finds
 * the chunks taken, so a busy machine costs at most one wake-up call over
 * running alone. Workers spin briefly (XS_POOL_SPIN_NS) after a job, so
 * back-to-back calls skip the wake-up, then sleep on a condition variable.
 *
 * The pool grows to the largest ``threads`` asked for, up to XS_POOL_MAX
 * workers; more threads than that run as XS_POOL_MAX + 1. One call runs
 * on the pool at a time; a call from another thread meanwhile runs alone
 * on its own thread rather than queue. A forked child starts with no
 * workers (they are not copied by fork) and creates them again on demand.
 * On platforms without POSIX threads every call runs on the calling thread.
 */
#ifndef XLASHAPE_POOL_H
#define XLASHAPE_POOL_H

#include <stddef.h>
#include <stdint.h>

/* Whether this build has a pool: POSIX threads under GCC or clang. Elsewhere
 * (Windows, MSVC) every call runs on the calling thread. */
#if defined(_WIN32) || !(defined(__GNUC__) || defined(__clang__))
#define XS_POOL_THREADED 0
#else
#define XS_POOL_THREADED 1
#endif

#define XS_POOL_MAX 255
#define XS_POOL_SPIN_NS 50000
/* A job is cut into this many chunks per thread (fewer where a chunk would
 * fall below the smallest asked for), so that late and slow threads even
 * out. */
#define XS_POOL_CHUNKS_PER_THREAD 4

/* The first bad row of rows [start, stop), or -1. */
typedef ptrdiff_t (*xs_chunk_fn)(const void *arg, ptrdiff_t start, ptrdiff_t stop);

/* Runs fn over [0, n) in chunks of at least ``min_chunk`` rows on up to
 * ``threads`` threads; the first bad row overall, or -1. The hand-off
 * (handoff.h) picks ``threads`` and ``min_chunk``. */
ptrdiff_t xs_pool_run(xs_chunk_fn fn, const void *arg, ptrdiff_t n, int threads,
                      ptrdiff_t min_chunk);

/* Nanoseconds from handing out a job until a sleeping worker starts on it:
 * the median of several trials when the pool first starts (0 before). A
 * job wakes only the workers it may use. */
double xs_pool_wake_ns(void);

/* What one worker costs a job: the time until it starts on it, and its
 * hand-out on top (the caller's signal to wake it, the claims of its
 * chunks), in nanoseconds. */
typedef struct {
    double wake_ns;
    double worker_ns;
} xs_worker_cost;

/* What the next job would cost per worker (pool.c, add_costs: medians of
 * recent jobs, first measured when the pool starts), for a worker that
 * still spins after the last job and for one that sleeps; returns the
 * workers that spin (the lowest numbered, which jobs use first). All 0
 * before the pool starts. */
int xs_pool_costs(xs_worker_cost *awake, xs_worker_cost *asleep);

/* Workers started so far. */
int xs_pool_workers(void);

uint64_t xs_now_ns(void);

#endif
