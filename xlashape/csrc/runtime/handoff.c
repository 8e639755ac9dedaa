/* The hand-off of handoff.h. */
#include "runtime/handoff.h"

/* Before the pool has started, nothing is measured: these stand for its
 * wake-up and per-worker cost, so that only a call of about 70 us or more
 * starts it (starting it costs more than the call: the threads, and the
 * measurement of pool.c's calibrate). Once started, the pool's own figures
 * take over. On a 2-vCPU AMD EPYC (Zen 4) shared with other work (a load
 * average of 4 to 12): 7-9 us to wake a sleeping worker at the pool's
 * start, 15-50 us later under load, and 5 us for a spinning one to start;
 * the caller's signal 60 us to milliseconds (the woken worker can take the
 * caller's CPU); a chunk claimed in 8-240 ns. */
#define XS_HANDOFF_WAKE_PRIOR_NS 50000.0
#define XS_HANDOFF_WORKER_PRIOR_NS 10000.0

/* Worker k's cost (k = 0 the first handed chunks). */
static xs_worker_cost worker_cost(const xs_handoff_costs *costs, int k) {
    if (k < costs->awake_workers) return costs->awake;
    xs_worker_cost cost = costs->asleep;
    if (cost.wake_ns < costs->awake.wake_ns) cost.wake_ns = costs->awake.wake_ns;
    if (cost.worker_ns < costs->awake.worker_ns) cost.worker_ns = costs->awake.worker_ns;
    return cost;
}

double xs_handoff_model_ns(const xs_handoff_costs *costs, int threads) {
    double starts = 0, extra = 0;
    for (int k = 0; k < threads - 1; k++) {
        xs_worker_cost cost = worker_cost(costs, k);
        starts += cost.wake_ns;
        extra += cost.worker_ns;
    }
    return (costs->work_ns + starts) / threads + extra;
}

/* With S the starts of the first w - 1 workers, and ``wake`` and
 * ``worker`` worker w's, T(w + 1) < T(w) exactly where
 *
 *     w (w + 1) worker < work - (w wake - S):
 *
 * one more thread pays while that holds. The marginal cost only grows
 * with w (a sleeping worker costing no less than a spinning one), so the
 * first w where it stops paying is the least T over all; and ``work``
 * enters once, less a figure that does not depend on it, so the w given
 * never falls as work grows. */
xs_handoff xs_handoff_decide(const xs_handoff_costs *costs) {
    xs_handoff plan = {1, costs->items};
    const ptrdiff_t min_chunk = costs->min_chunk < 1 ? 1 : costs->min_chunk;
    const ptrdiff_t most = costs->items / min_chunk;  /* a chunk a thread at least */
    const int cap = most < costs->cap ? (int)most : costs->cap;
    double starts = 0;
    int w = 1;
    for (; w < cap; w++) {
        xs_worker_cost cost = worker_cost(costs, w - 1);
        const double w1 = (double)w * (double)(w + 1);
        if (!(w1 * cost.worker_ns < costs->work_ns - ((double)w * cost.wake_ns - starts))) break;
        starts += cost.wake_ns;
    }
    if (w == 1) return plan;
    plan.threads = w;
    plan.chunk = costs->items / ((ptrdiff_t)XS_POOL_CHUNKS_PER_THREAD * w);
    if (plan.chunk < min_chunk) plan.chunk = min_chunk;
    return plan;
}

static int cpus = XS_POOL_MAX + 1;  /* until xlashape/core/threads.py sets it */

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
    xs_handoff_costs costs = {work_ns, {0, 0}, {0, 0}, 0, items, min_chunk,
                              threads < cpus ? threads : cpus};
    if (set_wake_ns >= 0) {
        costs.asleep.wake_ns = set_wake_ns;
        costs.asleep.worker_ns = set_worker_ns;
        costs.awake = costs.asleep;
    } else if (xs_pool_workers() > 0) {
        costs.awake_workers = xs_pool_costs(&costs.awake, &costs.asleep);
    } else {
        costs.asleep.wake_ns = XS_HANDOFF_WAKE_PRIOR_NS;
        costs.asleep.worker_ns = XS_HANDOFF_WORKER_PRIOR_NS;
    }
    return xs_handoff_decide(&costs);
}

ptrdiff_t xs_handoff_run(xs_chunk_fn fn, const void *arg, ptrdiff_t items, xs_handoff plan) {
    if (plan.threads <= 1) return fn(arg, 0, items);
    return xs_pool_run(fn, arg, items, plan.threads, plan.chunk);
}
