/* The relayout driver of relayout_run.h: each box normalised into an xs_move,
 * its form picked, and its split axis handed out over the pool by the
 * hand-off of runtime/handoff.h, as the index conversions are. */
#include "driver/relayout_run.h"

#include "cpu/cpu_level.h"
#include "runtime/handoff.h"

#include <string.h>

/* Boxes that write fewer bytes run alone, untimed: a microsecond's work
 * or less. */
#define XS_MOVE_SPLIT_BYTES (16 * 1024)
/* Nanoseconds per byte written before a kind of move is measured: 4 bytes
 * a nanosecond, at or below one core's rate for every form (on an Intel
 * Xeon, avx512: a 256 MB f32 transpose, 34.9 ms on one thread, 7.7 bytes
 * a nanosecond). Only the first move of each kind uses it. */
#define XS_MOVE_PRIOR_NS_PER_BYTE 0.25

/* The one-thread rate of each kind of move (xs_move_kind), per CPU level,
 * streamed or not, in ns per byte written: every timed box adds its
 * threads' time over its bytes (a split box, the sum of its chunks'). */
static xs_rate move_rate[XS_NLEVELS][4][2];

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

/* Whether, in the loop order of m's outer axes, the run that goes on from
 * each run of ``m`` in the result along the axis whose destination step is
 * a run's bytes (the same row's run of the next tile) comes at most
 * ``runs`` runs on; 1 where no axis is so. Runs that go on from others
 * across that axis's wrap (a row's last tile to the next row's first), or
 * by a negative step, come before them or not in the range: the ends they
 * would complete are written by memcpy, which costs time, not bytes. */
static int runs_go_on_within(const xs_move *m, int64_t runs) {
    const int64_t bytes = m->count[m->outer] * m->size;
    int64_t between = 1;
    for (int k = m->outer - 1; k >= 0; k--) {
        if (m->dst_step[k] == bytes) return between <= runs;
        between *= m->count[k];
    }
    return 1;
}

/* A streamed run's outer axes in the source's order as well, where the
 * line that a run shares with the one that goes on from it can be held
 * till that one comes (XS_ENDS ends, relayout_impl.h): the source is then
 * read in order, and the result written a run at a time wherever it goes,
 * past the caches. In the result's order, from_linear of tiles reads each
 * run of a result row from the tile after the last one's, a step (4 KiB
 * for f32[4096,4096]{1,0:T(8,128)}) that the hardware's prefetchers do
 * not follow. from_linear, 64 MB, one thread, AMD EPYC Zen 3, avx2, three
 * runs taking turns, result's order -> source's order: f32 T(8,128)
 * tiles 9.1-10.3 -> 6.3-7.7 ms, f32[4000,4000] (padded) 9.5-12.4 ->
 * 6.1-7.5, bf16[4096,8192] 12.3-15.9 -> 8.6-9.2, s8[8192,8192] 12.2-14.8
 * -> 9.6-10.6. to_linear of tiles keeps the result's order where a tile
 * row has more than XS_ENDS tiles (in the source's order each run's line
 * would wait a tile row's runs: 32 and more in the bench's rows), and
 * takes the source's where it has fewer: f32[16384,1024]{1,0:T(8,128)}
 * (8 tiles a row) took 6.9-7.4 ms against 7.4-7.6 in the result's order
 * (7.7-7.9 against 8.0-8.5 into an out= 16 bytes past a line; two runs
 * taking turns, as above). A box of one tile row then has its tiles
 * outermost, and threads split it along them: the lines across two
 * threads' chunks go out by memcpy. At the baseline, which streams
 * nothing, only the order of its memcpy runs changes. */
static void order_runs_by_source(xs_move *m) {
    xs_move sorted = *m;
    order_outer_by_source(&sorted);
    if (!runs_go_on_within(&sorted, XS_ENDS)) return;
    *m = sorted;
    m->ends = 1;
}

/* Whether a transpose is an interleave of 2 or 4 rows into one contiguous
 * run (relayout_impl.h). Streamed, one keeps the destination's order of
 * its outer axes, so that each run goes on from the one before, and the
 * lines that two runs share are completed at once: in the source's order
 * the lines of a tile's rows are written in turns a tile apart, and
 * bf16[4096,8192]{1,0:T(8,128)(2,1)} to_linear took 1.35x as long into
 * an aligned out= (1.1x for s8 (4,1) tiles) and 1.45x at 16 bytes past a
 * line (AMD EPYC Zen 4, avx2 and avx512 kernels, one thread). */
static int interleaves(const xs_move *m) {
    return xs_row_groups(m->count[m->outer + 1], m->dst_step[m->outer], m->size);
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
    /* A transpose with no outer axis is split along the axis contiguous in
     * the destination, so that each thread reads whole source rows in
     * order (xs_transpose's strips): split along the other, bf16[4096,8192]
     * {0,1} from_linear ran 1.23x as fast on two threads as on one (Intel
     * Xeon, avx512). */
    m->split = m->kind == XS_MOVE_TRANSPOSE && m->outer == 0;
    m->ends = 0;
    return 1;
}

/* A box's split axis in chunks whose bounds fall on 64-byte lines of the
 * destination wherever its step allows: a chunk is a run of groups of
 * ``group`` lines of the axis, the first group short by ``shift`` lines,
 * so that each thread writes whole lines (and streams them) but at the
 * box's two ends. */
typedef struct {
    const xs_move *move;
    xs_relayout_fn range;
    ptrdiff_t lines;  /* of the split axis */
    ptrdiff_t group;
    ptrdiff_t shift;
    uint64_t *ns;     /* the chunks' time, summed */
} chunk_arg;

static void line_groups(const xs_move *m, ptrdiff_t lines, chunk_arg *c) {
    int64_t step = m->dst_step[m->split] < 0 ? -m->dst_step[m->split] : m->dst_step[m->split];
    int64_t common = 64;  /* gcd(step, 64) */
    while (step % common) common /= 2;
    c->lines = lines;
    c->group = (ptrdiff_t)(64 / common);
    c->shift = 0;
    for (ptrdiff_t p = 0; p < c->group; p++)  /* the first line that starts a 64-byte line */
        if ((uintptr_t)(m->dst + p * m->dst_step[m->split]) % 64 == 0) {
            c->shift = (c->group - p) % c->group;
            break;
        }
}

static ptrdiff_t group_start(const chunk_arg *c, ptrdiff_t k) {
    ptrdiff_t line = k * c->group - c->shift;
    return line < 0 ? 0 : line > c->lines ? c->lines : line;
}

static ptrdiff_t run_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const chunk_arg *c = arg;
    uint64_t t0 = xs_now_ns();
    c->range(c->move, group_start(c, start), group_start(c, stop));
    XS_ADD_NS(c->ns, xs_now_ns() - t0);
    return -1;
}

void xs_relayout_run(const xs_relayout_job *job, int threads) {
    const xs_relayout_fn range = xs_active_kernels()->relayout;
    for (int b = 0; b < job->boxes; b++) {
        xs_move m;
        if (!setup_move(job, b, &m)) continue;
        int64_t total = m.size;
        for (int k = 0; k <= m.outer + (m.kind == XS_MOVE_TRANSPOSE); k++) total *= m.count[k];
        /* a move reads and writes each byte: streamed by the index kernels'
         * threshold of bytes read and written */
        m.stream = 2 * (double)total >= (double)job->stream_bytes;
        if (m.kind == XS_MOVE_TRANSPOSE && !(m.stream && interleaves(&m))) order_outer_by_source(&m);
        if (m.kind == XS_MOVE_RUN && m.stream) order_runs_by_source(&m);
        const ptrdiff_t lines = (ptrdiff_t)m.count[m.split];
        if (threads <= 1 || total < XS_MOVE_SPLIT_BYTES) {
            range(&m, 0, lines);
            continue;
        }
        uint64_t ns = 0;
        chunk_arg arg = {&m, range, 0, 1, 0, &ns};
        line_groups(&m, lines, &arg);
        const ptrdiff_t groups = (lines + arg.shift + arg.group - 1) / arg.group;
        xs_rate *rate = &move_rate[xs_level()][m.kind][m.stream];
        const double byte_ns = xs_rate_estimate(rate, XS_MOVE_PRIOR_NS_PER_BYTE);
        const double group_ns = byte_ns * (double)(total / lines) * (double)arg.group;
        xs_handoff plan = xs_handoff_plan(byte_ns * (double)total, groups,
                                          xs_handoff_min_chunk(group_ns, 1), threads);
        const int workers = xs_pool_workers();
        xs_handoff_run(run_chunk, &arg, groups, plan);
        if (xs_pool_workers() == workers)  /* a box that started threads times that too */
            xs_rate_add(rate, (double)ns / (double)total);
    }
}
