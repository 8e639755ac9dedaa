/* The hand-off of handoff.h. */
#include "runtime/handoff.h"

/* Before the pool has started, nothing is measured: these stand for its
 * wake-up and per-worker cost, so that only a call of about 70 us or more
 * starts it (starting it costs more than the call: the threads, and the
 * measurement of pool.c's calibrate). Once started, the pool's own figures
 * take over: on an AMD EPYC (Zen 4, 2 cores, shared), 20-60 us to wake a
 * sleeping worker, 2-5 us to signal it, 0.2-1 us for a spinning one to
 * start, 0.1-0.2 us a chunk claimed. */
#define XS_HANDOFF_WAKE_PRIOR_NS 50000.0
#define XS_HANDOFF_WORKER_PRIOR_NS 10000.0

double xs_handoff_model_ns(const xs_handoff_costs *costs, int threads) {
    const double w = threads;
    return (costs->work_ns + (w - 1) * costs->wake_ns) / w + (w - 1) * costs->worker_ns;
}

/* T(w) - T(w + 1) = (work - wake) / (w (w + 1)) - per_worker: one more
 * thread pays while w (w + 1) per_worker < work - wake. T is convex in w,
 * so the first w where it stops paying is the least over all; and the
 * test reads ``work`` once, so the w it gives never falls as work grows. */
xs_handoff xs_handoff_decide(const xs_handoff_costs *costs) {
    xs_handoff plan = {1, costs->items};
    const ptrdiff_t min_chunk = costs->min_chunk < 1 ? 1 : costs->min_chunk;
    const ptrdiff_t most = costs->items / min_chunk;  /* a chunk a thread at least */
    const int cap = most < costs->cap ? (int)most : costs->cap;
    const double gain = costs->work_ns - costs->wake_ns;
    int w = 1;
    while (w < cap && (double)w * (double)(w + 1) * costs->worker_ns < gain) w++;
    if (w == 1) return plan;
    plan.threads = w;
    plan.chunk = costs->items / ((ptrdiff_t)XS_POOL_CHUNKS_PER_THREAD * w);
    if (plan.chunk < min_chunk) plan.chunk = min_chunk;
    return plan;
}

static int cpus = XS_POOL_MAX + 1;  /* until xlashape/threads.py sets it */

void xs_set_cpus(int count) { cpus = count < 1 ? 1 : count; }
int xs_cpus(void) { return cpus; }

ptrdiff_t xs_handoff_min_chunk(double item_ns, ptrdiff_t fewest) {
    double items = item_ns > 0 ? XS_HANDOFF_CHUNK_NS / item_ns : (double)fewest;
    if (items > 1e15) items = 1e15;
    return items < (double)fewest ? fewest : (ptrdiff_t)items + 1;
}

static double set_wake_ns = -1, set_worker_ns = -1;

void xs_handoff_set_costs(double wake_ns, double worker_ns) {
    set_wake_ns = wake_ns;
    set_worker_ns = worker_ns;
}

xs_handoff xs_handoff_plan(double work_ns, ptrdiff_t items, ptrdiff_t min_chunk, int threads) {
    xs_handoff_costs costs = {work_ns, 0, 0, items, min_chunk, threads < cpus ? threads : cpus};
    if (set_wake_ns >= 0) {
        costs.wake_ns = set_wake_ns;
        costs.worker_ns = set_worker_ns;
    } else if (xs_pool_workers() > 0) {
        xs_pool_costs(&costs.wake_ns, &costs.worker_ns);
    } else {
        costs.wake_ns = XS_HANDOFF_WAKE_PRIOR_NS;
        costs.worker_ns = XS_HANDOFF_WORKER_PRIOR_NS;
    }
    return xs_handoff_decide(&costs);
}

ptrdiff_t xs_handoff_run(xs_chunk_fn fn, const void *arg, ptrdiff_t items, xs_handoff plan) {
    if (plan.threads <= 1) return fn(arg, 0, items);
    return xs_pool_run(fn, arg, items, plan.threads, plan.chunk);
}
