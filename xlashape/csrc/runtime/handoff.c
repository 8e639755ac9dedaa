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

xs_handoff xs_handoff_plan(double work_ns, ptrdiff_t items, ptrdiff_t min_chunk, int threads) {
    xs_handoff_costs costs = {work_ns, 0, 0, items, min_chunk, threads < cpus ? threads : cpus};
    if (xs_pool_workers() > 0) {
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

void xs_rate_add(xs_rate *rate, double sample) {
    unsigned slot = __atomic_fetch_add(&rate->added, 1u, __ATOMIC_RELAXED) % XS_RATE_SAMPLES;
    __atomic_store(&rate->sample[slot], &sample, __ATOMIC_RELAXED);
}

double xs_rate_estimate(const xs_rate *rate, double prior) {
    unsigned added = __atomic_load_n(&rate->added, __ATOMIC_RELAXED);
    int count = added < XS_RATE_SAMPLES ? (int)added : XS_RATE_SAMPLES;
    if (count == 0) return prior;
    double sorted[XS_RATE_SAMPLES];
    for (int k = 0; k < count; k++) {
        double value;
        __atomic_load(&rate->sample[k], &value, __ATOMIC_RELAXED);
        int at = k;  /* insertion sort */
        for (; at > 0 && sorted[at - 1] > value; at--) sorted[at] = sorted[at - 1];
        sorted[at] = value;
    }
    return sorted[(count - 1) / 2];
}
