/* The hand-off: on how many threads a parallel call runs, and in chunks of
 * how many items. Every job the pool runs decides here: ravel, unravel and
 * the tiled forms (driver/dispatch.c), relayout's boxes and strips
 * (driver/relayout_run.c), and the boxes of indices (_boxes.pyx).
 *
 * The decision (xs_handoff_decide) is a pure function of what the call
 * costs. With ``work`` the call's time on one thread, ``wake_k`` the time
 * before worker k starts on it and ``worker_k`` what it costs on top
 * (handing it out: pool.h, xs_pool_costs), a call on w threads takes about
 *
 *     T(w) = (work + wake_1 + ... + wake_(w-1)) / w
 *            + worker_1 + ... + worker_(w-1)
 *
 * (the calling thread works from the start, each worker from its start on,
 * all finishing together: chunks are taken as threads come). Workers that
 * still spin after the last call start sooner and cost less than sleeping
 * ones, and are handed chunks first; where all cost alike, T is
 * (work + (w - 1) wake) / w + (w - 1) worker, least near
 * w = sqrt((work - wake) / worker). A call gets the w that minimises T over
 * 1 .. its cap (its threads=, the CPUs this process may use, and one chunk
 * of at least ``min_chunk`` items a thread): a mid-size call gets the
 * workers that pay for themselves, not all or none.
 *
 * The one-thread rate behind ``work`` is measured, per call kind, as the
 * pool's costs are, by an xs_rate (rate.h): the median of the last few
 * samples, so that no one sample (a call that lost its CPU, or met page
 * faults) turns a decision. */
#ifndef XLASHAPE_HANDOFF_H
#define XLASHAPE_HANDOFF_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/pool.h"
#include "runtime/rate.h"

typedef struct {
    double work_ns;         /* the call on one thread */
    xs_worker_cost awake;   /* a worker that still spins (pool.h) */
    xs_worker_cost asleep;  /* one that sleeps: counted no cheaper than ``awake`` */
    int awake_workers;      /* the workers that spin, handed chunks first */
    ptrdiff_t items;        /* what the call cuts into chunks: rows, groups of lines, boxes */
    ptrdiff_t min_chunk;    /* the fewest items worth a chunk (at least 1) */
    int cap;                /* the most threads the call may use, the calling one included */
} xs_handoff_costs;

typedef struct {
    int threads;      /* 1: the call runs alone, on the calling thread */
    ptrdiff_t chunk;  /* the items of a chunk (at least min_chunk) */
} xs_handoff;

/* T(threads) of the model above, in nanoseconds. */
double xs_handoff_model_ns(const xs_handoff_costs *costs, int threads);

/* The threads that minimise the model (the fewest of equals), and the
 * chunks: XS_POOL_CHUNKS_PER_THREAD a thread, each at least min_chunk. */
xs_handoff xs_handoff_decide(const xs_handoff_costs *costs);

/* The CPUs this process may use (set at import by xlashape/core/threads.py,
 * from its affinity and cgroup quota): no call runs on more threads. */
void xs_set_cpus(int cpus);
int xs_cpus(void);

/* The decision for a call on the pool as it is now (xs_pool_costs; before
 * the pool starts, XS_HANDOFF_WAKE_PRIOR_NS and XS_HANDOFF_WORKER_PRIOR_NS),
 * capped by ``threads`` and xs_cpus(); and running it: fn over [0, items)
 * on the pool, or on this thread. */
xs_handoff xs_handoff_plan(double work_ns, ptrdiff_t items, ptrdiff_t min_chunk, int threads);
ptrdiff_t xs_handoff_run(xs_chunk_fn fn, const void *arg, ptrdiff_t items, xs_handoff plan);

/* For tests: count ``wake_ns`` and ``worker_ns`` for every worker, awake or
 * asleep, instead of the pool's measured costs (negative: the measured
 * costs again), so that every call large enough splits, whatever the
 * machine's load. */
void xs_handoff_set_costs(double wake_ns, double worker_ns);

/* The least time a chunk should take: 2 us, about ten times the claim of one
 * (pool.c measured 8-240 ns with two threads claiming, on a 2-vCPU
 * machine shared with other work). */
#define XS_HANDOFF_CHUNK_NS 2000.0

/* The chunk of a call whose items take ``item_ns`` each: XS_HANDOFF_CHUNK_NS
 * worth, at least ``fewest`` items. */
ptrdiff_t xs_handoff_min_chunk(double item_ns, ptrdiff_t fewest);

#endif
