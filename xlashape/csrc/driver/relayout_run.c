/* The relayout driver of relayout_run.h: each box normalised into an xs_move,
 * its form picked, and its most major axis split over the pool. */
#include "driver/relayout_run.h"

#include "cpu/cpu_level.h"

#include <string.h>

/* A chunk should take at least this long to be worth a worker's wake-up
 * (as a multiple of it), and hold at least this many bytes. */
#define XS_MOVE_WAKEUPS 2.0
#define XS_MOVE_MIN_CHUNK_BYTES (256 * 1024)
/* A rough rate, for that sizing only: bytes moved per nanosecond. */
#define XS_MOVE_BYTES_PER_NS 4.0

/* Drop axes of count 1 and merge each axis into the next where the two are
 * one run of the next's step in both buffers. Returns the axes left. */
static int merge_axes(int n, int64_t *count, int64_t *ss, int64_t *ds) {
    int kept = 0;
    for (int k = 0; k < n; k++) {
        if (count[k] == 1) continue;
        count[kept] = count[k], ss[kept] = ss[k], ds[kept] = ds[k];
        kept++;
    }
    int out = 0;
    for (int k = 0; k < kept; k++) {
        if (out > 0 && ss[out - 1] == ss[k] * count[k] && ds[out - 1] == ds[k] * count[k]) {
            count[out - 1] *= count[k];
            ss[out - 1] = ss[k];
            ds[out - 1] = ds[k];
            continue;
        }
        count[out] = count[k], ss[out] = ss[k], ds[out] = ds[k];
        out++;
    }
    return out;
}

/* Move axis ``from`` to position ``to`` (to > from), shifting those between. */
static void move_axis(xs_move *m, int from, int to) {
    int64_t c = m->count[from], s = m->src_step[from], d = m->dst_step[from];
    for (int k = from; k < to; k++) {
        m->count[k] = m->count[k + 1];
        m->src_step[k] = m->src_step[k + 1];
        m->dst_step[k] = m->dst_step[k + 1];
    }
    m->count[to] = c, m->src_step[to] = s, m->dst_step[to] = d;
}

/* Order the outer axes of a transpose by source step, largest first: each
 * transpose then reads on from where the one before it stopped, wherever the
 * source allows it, and the micro-blocks write whole result lines in any
 * order. (f32[64,64,64,64]{0,1,2,3} to_linear, streamed, on an Intel Xeon
 * at avx2: from 0.60 to 0.98 of a copy, one run each beside a build; 0.95-0.97
 * in idle bench runs after.) */
static void order_outer_by_source(xs_move *m) {
    for (int k = 1; k < m->outer; k++)
        for (int i = k; i > 0 && m->src_step[i - 1] < m->src_step[i]; i--) {
            int64_t c = m->count[i], s = m->src_step[i], d = m->dst_step[i];
            m->count[i] = m->count[i - 1], m->src_step[i] = m->src_step[i - 1];
            m->dst_step[i] = m->dst_step[i - 1];
            m->count[i - 1] = c, m->src_step[i - 1] = s, m->dst_step[i - 1] = d;
        }
}

/* Fill ``m`` from box ``b`` of ``job``; returns 0 for an empty box. */
static int setup_move(const xs_relayout_job *job, int b, xs_move *m) {
    const int64_t *start = job->start + (ptrdiff_t)b * job->axes;
    const int64_t *count = job->count + (ptrdiff_t)b * job->axes;
    m->src = job->src;
    m->dst = job->dst;
    m->size = job->size;
    for (int k = 0; k < job->axes; k++) {
        if (count[k] == 0) return 0;
        m->src += start[k] * job->src_step[k];
        m->dst += start[k] * job->dst_step[k];
        m->count[k] = count[k];
        m->src_step[k] = job->src_step[k];
        m->dst_step[k] = job->dst_step[k];
    }
    int n = merge_axes(job->axes, m->count, m->src_step, m->dst_step);
    if (n == 0) {  /* one element */
        m->count[0] = 1, m->src_step[0] = m->size, m->dst_step[0] = m->size;
        n = 1;
    }
    int last = n - 1;
    m->kind = XS_MOVE_GATHER;
    if (m->dst_step[last] == m->size) {
        if (m->src_step[last] == m->size) {
            m->kind = XS_MOVE_RUN;
        } else if (m->src_step[last] == 0) {
            m->kind = XS_MOVE_FILL;
        } else {
            for (int k = last - 1; k >= 0; k--) {
                if (m->src_step[k] == m->size) {
                    move_axis(m, k, last - 1);
                    m->kind = XS_MOVE_TRANSPOSE;
                    break;
                }
            }
        }
    }
    m->outer = n - (m->kind == XS_MOVE_TRANSPOSE ? 2 : 1);
    if (m->kind == XS_MOVE_TRANSPOSE) order_outer_by_source(m);
    /* A transpose with no outer axis is split along the axis contiguous in
     * the destination, so that each thread reads whole source rows in
     * order (xs_transpose's strips): split along the other, bf16[4096,8192]
     * {0,1} from_linear ran 1.23x as fast on two threads as on one (Intel
     * Xeon, avx512). */
    m->split = m->kind == XS_MOVE_TRANSPOSE && m->outer == 0;
    return 1;
}

typedef struct {
    const xs_move *move;
    xs_relayout_fn range;
} chunk_arg;

static ptrdiff_t run_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const chunk_arg *c = arg;
    c->range(c->move, start, stop);
    return -1;
}

void xs_relayout_run(const xs_relayout_job *job, int threads) {
    const xs_relayout_fn range = xs_active_kernels()->relayout;
    const double wake_ns = xs_pool_wake_ns();
    for (int b = 0; b < job->boxes; b++) {
        xs_move m;
        if (!setup_move(job, b, &m)) continue;
        int64_t total = m.size;
        for (int k = 0; k <= m.outer + (m.kind == XS_MOVE_TRANSPOSE); k++) total *= m.count[k];
        m.stream = total >= job->stream_bytes;
        const ptrdiff_t rows = (ptrdiff_t)m.count[m.split];
        int64_t per_row = total / rows;
        double bytes = XS_MOVE_WAKEUPS * wake_ns * XS_MOVE_BYTES_PER_NS;
        if (bytes < XS_MOVE_MIN_CHUNK_BYTES) bytes = XS_MOVE_MIN_CHUNK_BYTES;
        ptrdiff_t min_chunk = (ptrdiff_t)(bytes / (double)per_row) + 1;
        if (threads > 1 && rows >= 2 * min_chunk) {
            chunk_arg arg = {&m, range};
            xs_pool_run(run_chunk, &arg, rows, threads, min_chunk);
        } else {
            range(&m, 0, rows);
        }
    }
}
