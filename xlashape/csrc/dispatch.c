/* The driver of dispatch.h: the level's kernel table, the chunk functions
 * that run a kernel and rescan a flagged chunk, and the hand-off to the
 * pool. */
#include "dispatch.h"

#include <stdlib.h>
#include <string.h>

#include "kernels_generic.h"
#include "pool.h"
#include "tiled.h"

typedef uint64_t (*ravel_rows_fn)(const xs_plan *, const void *, int64_t *, ptrdiff_t,
                                  ptrdiff_t);
typedef uint64_t (*unravel_rows_fn)(const xs_plan *, const void *, int64_t *, ptrdiff_t,
                                    ptrdiff_t, ptrdiff_t, ptrdiff_t);

#define XS_DECLARE_RAVEL(TN, T, LEVEL)                                                  \
    uint64_t xs_ravel_rows_##TN##_##LEVEL(const xs_plan *, const T *, int64_t *, ptrdiff_t, \
                                          ptrdiff_t);
#define XS_DECLARE(TN, T, LEVEL)                                                        \
    XS_DECLARE_RAVEL(TN, T, LEVEL)                                                      \
    uint64_t xs_unravel_rows_##TN##_##LEVEL(const xs_plan *, const T *, int64_t *,      \
                                            ptrdiff_t, ptrdiff_t, ptrdiff_t, ptrdiff_t);
XS_DECLARE_RAVEL(i8, int8_t, baseline)
XS_DECLARE_RAVEL(i16, int16_t, baseline)
XS_DECLARE(i32, int32_t, baseline)
XS_DECLARE(i64, int64_t, baseline)
XS_DECLARE_RAVEL(u8, uint8_t, baseline)
XS_DECLARE_RAVEL(u16, uint16_t, baseline)
XS_DECLARE(u32, uint32_t, baseline)
XS_DECLARE(u64, uint64_t, baseline)
#if XS_X86_DISPATCH
XS_DECLARE(i32, int32_t, avx2)
XS_DECLARE(i64, int64_t, avx2)
XS_DECLARE(i32, int32_t, avx512)
XS_DECLARE(i64, int64_t, avx512)
#endif

typedef struct {
    ravel_rows_fn ravel[XS_NDTYPES];
    unravel_rows_fn unravel[XS_NDTYPES];
} kernel_table;

#define XS_R(TN, LEVEL) (ravel_rows_fn) xs_ravel_rows_##TN##_##LEVEL
#define XS_U(TN, LEVEL) (unravel_rows_fn) xs_unravel_rows_##TN##_##LEVEL
#define XS_TABLE(I32, I64)                                                              \
    {{XS_R(i8, baseline), XS_R(i16, baseline), XS_R(i32, I32), XS_R(i64, I64),          \
      XS_R(u8, baseline), XS_R(u16, baseline), XS_R(u32, baseline), XS_R(u64, baseline)}, \
     {NULL, NULL, XS_U(i32, I32), XS_U(i64, I64),                                       \
      NULL, NULL, XS_U(u32, baseline), XS_U(u64, baseline)}}

static const kernel_table tables[XS_NLEVELS] = {
    XS_TABLE(baseline, baseline),
#if XS_X86_DISPATCH
    XS_TABLE(avx2, avx2),
    XS_TABLE(avx512, avx512),
#else
    XS_TABLE(baseline, baseline),
    XS_TABLE(baseline, baseline),
#endif
};

static const char *const level_names[XS_NLEVELS] = {"baseline", "avx2", "avx512"};
static int active_level = -1;
static const kernel_table *active = &tables[XS_BASELINE];

int xs_best_level(void) {
#if XS_X86_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2"))
        return XS_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("bmi2"))
        return XS_AVX2;
#endif
    return XS_BASELINE;
}

int xs_level(void) { return active_level < 0 ? XS_BASELINE : active_level; }

const char *xs_level_name(int level) {
    return level >= 0 && level < XS_NLEVELS ? level_names[level] : "unknown";
}

int xs_select_level(int level) {
    int best = xs_best_level();
    if (level < 0) level = best;
    if (level > best) return -1;
    active_level = level;
    active = &tables[level];
    return level;
}

/* -- chunks --------------------------------------------------------------- */

static ptrdiff_t ravel_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    uint64_t bad;
    if (job->rows_contiguous)
        bad = active->ravel[job->column_dtype[0]](job->plan, job->column[0], job->out, start,
                                                  stop);
    else
        bad = xs_ravel_columns(job, start, stop);
    return bad ? xs_ravel_first_bad(job, start, stop) : -1;
}

static int itemsize(int dtype) {
    static const int sizes[XS_NDTYPES] = {1, 2, 4, 8, 1, 2, 4, 8};
    return sizes[dtype];
}

static ptrdiff_t unravel_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    uint64_t bad;
    /* 8- and 16-bit offsets have no unravel kernel of their own (NULL). */
    if (active->unravel[job->linear_dtype] != NULL &&
        job->linear_step == itemsize(job->linear_dtype) && job->out_step0 % 8 == 0 &&
        job->out_step1 % 8 == 0 && ((uintptr_t)job->rows_out & 7) == 0)
        bad = active->unravel[job->linear_dtype](job->plan, job->linear,
                                                 (int64_t *)job->rows_out, job->out_step0 / 8,
                                                 job->out_step1 / 8, start, stop);
    else
        bad = xs_unravel_strided(job, start, stop);
    return bad ? xs_unravel_first_bad(job, start, stop) : -1;
}

/* -- hand-off -------------------------------------------------------------- */

/* Nanoseconds per row, per direction, measured on calls of at least
 * XS_TIMED_ROWS rows: alone, and split over the pool. A batch large enough
 * to split is split only while splitting has been the faster of the two,
 * so a busy or oversubscribed machine (where workers wake late or lose
 * their CPU mid-chunk) soon runs calls alone again; every XS_PROBE_EVERY-th
 * such call tries the other way, so that both figures stay current. (The
 * figures are shared by all calls of a direction, whatever their rank or
 * layout: a heuristic, which never changes a result.) */
#define XS_TIMED_ROWS 8192
#define XS_PROBE_EVERY 16
static double ns_alone[2] = {1.0, 1.0};
static double ns_split[2] = {0.0, 0.0};  /* 0: not measured yet */
static unsigned eligible_calls[2];

static void update(double *ns, uint64_t t0, ptrdiff_t n) {
    double rate = (double)(xs_now_ns() - t0) / (double)n;
    *ns = *ns == 0.0 ? rate : 0.75 * *ns + 0.25 * rate;
}

/* Rows a chunk needs to pay for handing it to a worker: worth at least
 * half a wake-up. Before the pool has started (and measured its wake-up),
 * large enough that small batches never start it. */
static ptrdiff_t min_chunk(int direction) {
    double wake = xs_pool_wake_ns();
    if (wake <= 0) return 1 << 15;
    double rows = wake / ns_alone[direction] / 2;
    return rows < 2048 ? 2048 : (ptrdiff_t)rows;
}

static ptrdiff_t run(xs_chunk_fn fn, const xs_job *job, ptrdiff_t n, int threads,
                     int direction) {
    if (n < XS_TIMED_ROWS) return fn(job, 0, n);
    ptrdiff_t chunk = min_chunk(direction);
    int split = threads > 1 && n >= 2 * chunk;
    if (split) {
        split = ns_split[direction] == 0.0 || ns_split[direction] < ns_alone[direction];
        if (++eligible_calls[direction] % XS_PROBE_EVERY == 0) split = !split;
    }
    uint64_t t0 = xs_now_ns();
    ptrdiff_t bad = split ? xs_pool_run(fn, job, n, threads, chunk) : fn(job, 0, n);
    update(split ? &ns_split[direction] : &ns_alone[direction], t0, n);
    return bad;
}

ptrdiff_t xs_ravel(const xs_job *job, ptrdiff_t n, int threads) {
    if (active_level < 0) xs_select_level(-1);
    return run(job->tiled ? xs_tiled_ravel_chunk : ravel_chunk, job, n, threads, 0);
}

ptrdiff_t xs_unravel(const xs_job *job, ptrdiff_t n, int threads) {
    if (active_level < 0) xs_select_level(-1);
    return run(job->tiled ? xs_tiled_unravel_chunk : unravel_chunk, job, n, threads, 1);
}
