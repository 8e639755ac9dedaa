/* The driver of dispatch.h: the chunk functions that run a kernel of the
 * level in use (cpu/cpu_level.h) and rescan a flagged chunk, how a call
 * stores its results, and the hand-off to the pool. */
#include "driver/dispatch.h"

#include "cpu/cpu_level.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "kernels/kernels_common.h"
#include "kernels/kernels_generic.h"
#include "runtime/handoff.h"
#include "runtime/pool.h"
#include "driver/tiled_chunks.h"

/* -- chunks --------------------------------------------------------------- */

/* How a ravel job's rows are read: one (N, rank) array, rank contiguous
 * columns of one dtype (the fused column kernel), or any columns. */
enum ravel_form { ROWS, COLUMNS, GENERAL };

static enum ravel_form ravel_form(const xs_job *job) {
    if (job->rows_contiguous) return ROWS;
    int dtype = job->column_dtype[0];
    if (job->plan->rank > XS_MAX_UNROLLED) return GENERAL;
    for (int j = 0; j < job->plan->rank; j++)
        if (job->column_dtype[j] != dtype || job->column_step[j] != xs_dtype_size(dtype))
            return GENERAL;
    return COLUMNS;
}

/* The raise kernel of a ROWS or COLUMNS job: nonzero when some index in
 * rows [start, stop) is out of range. */
static uint64_t ravel_raise(const xs_job *job, enum ravel_form form, ptrdiff_t start,
                            ptrdiff_t stop) {
    int dtype = job->column_dtype[0];
    if (form == ROWS)
        return xs_active_kernels()->ravel[dtype](job->plan, job->column[0], job->out, start,
                                                 stop, job->store);
    return xs_active_kernels()->ravel_cols[dtype](job->plan, job->column, job->out, start, stop, job->store);
}

/* The end of the block of about XS_COLUMN_BLOCK rows from row b0 (at most
 * stop) by which a ravel under 'wrap' or 'clip' runs, its results (items
 * of ``item`` bytes from ``out``) ending on a 64-byte line: each block's
 * store stream (kernels_store.h) then starts and ends on whole lines. A
 * masked store at each end, into a line not in cache, stalls the streamed
 * stores behind it: on an Intel Xeon (avx512), 10^7 rank-4 int32 rows
 * under 'clip' into out= at 16 mod 64 took 1.59x the 'raise' time with
 * blocks of a fixed 2048 rows. */
static ptrdiff_t block_end(const void *out, ptrdiff_t item, ptrdiff_t b0, ptrdiff_t stop) {
    ptrdiff_t b1 = b0 + XS_COLUMN_BLOCK;
    b1 -= (ptrdiff_t)(((uintptr_t)out + (uintptr_t)(b1 * item)) % 64) / item;
    return b1 < stop ? b1 : stop;
}

/* The first of rows [b0, stop) whose result (rows of ``row`` bytes from
 * ``out``) starts a 64-byte line, where one of the next 16 does; b0
 * otherwise, and for a call stored plainly. A call stored other than
 * plainly runs the rows before it apart, so that the store stream of the
 * rest needs no turn (kernels_store.h): a ravel's offsets always reach a
 * line, so do unravel's rows of 16 bytes, and rank-4 int64 rows at 16 mod
 * 64 never do. */
static ptrdiff_t line_start(const void *out, ptrdiff_t row, ptrdiff_t b0, ptrdiff_t stop,
                            int store) {
    if (store == XS_STORE_PLAIN) return b0;
    for (ptrdiff_t b = b0; b < stop && b < b0 + 16; b++)
        if (((uintptr_t)out + (uintptr_t)(b * row)) % 64 == 0) return b;
    return b0;
}

static ptrdiff_t ravel_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    const xs_kernels *k = xs_active_kernels();
    enum ravel_form form = ravel_form(job);
    uint64_t bad = 0;
    if (form == GENERAL) {
        bad = k->columns(job, start, stop);
    } else if (job->mode == NULL) {
        const ptrdiff_t head = line_start(job->out, 8, start, stop, job->store);
        bad = ravel_raise(job, form, start, head) | ravel_raise(job, form, head, stop);
    } else {
        /* 'wrap' or 'clip' dimensions: the raise kernel by blocks, so that
         * indices in range cost what they cost under 'raise'; a block in
         * which it meets one out of range is redone exactly, each column
         * in its mode. */
        for (ptrdiff_t b0 = start, b1; b0 < stop; b0 = b1) {
            b1 = block_end(job->out, 8, b0, stop);
            if (ravel_raise(job, form, b0, b1)) bad |= k->columns(job, b0, b1);
        }
    }
    return bad ? xs_ravel_first_bad(job, start, stop) : -1;
}

static ptrdiff_t unravel_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    const xs_unravel_rows_fn kernel = xs_active_kernels()->unravel[job->linear_dtype];
    uint64_t bad;
    /* 8- and 16-bit offsets have no unravel kernel of their own (NULL). */
    if (kernel != NULL &&
        job->linear_step == xs_dtype_size(job->linear_dtype) && job->out_step0 % 8 == 0 &&
        job->out_step1 % 8 == 0 && ((uintptr_t)job->rows_out & 7) == 0) {
        int64_t *out = (int64_t *)job->rows_out;
        const ptrdiff_t s0 = job->out_step0 / 8, s1 = job->out_step1 / 8;
        const ptrdiff_t head = s1 == 1 && s0 == job->plan->rank  /* C-contiguous rows */
            ? line_start(out, job->out_step0, start, stop, job->store) : start;
        bad = kernel(job->plan, job->linear, out, s0, s1, start, head, job->store) |
              kernel(job->plan, job->linear, out, s0, s1, head, stop, job->store);
    } else
        bad = xs_unravel_strided(job, start, stop);
    return bad ? xs_unravel_first_bad(job, start, stop) : -1;
}

/* -- 32-bit results ---------------------------------------------------------- */

/* Rows per block of a 32-bit ravel, and items per block of a 32-bit
 * unravel: the kernels fill an int64 block on the stack, and the block is
 * then narrowed into the result. */
#define XS_NARROW_ITEMS 1024

/* out[i] = the low 32 bits of wide[i], for i < n: a loop the compiler
 * vectorises. */
static void narrow(uint32_t *restrict out, const int64_t *restrict wide, ptrdiff_t n) {
    for (ptrdiff_t i = 0; i < n; i++) out[i] = (uint32_t)wide[i];
}

/* The chunk function of a job as if its results were int64. */
static ptrdiff_t ravel_chunk64(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    return job->tiled ? xs_tiled_ravel_chunk(job, start, stop) : ravel_chunk(job, start, stop);
}

static ptrdiff_t unravel_chunk64(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    return job->tiled ? xs_tiled_unravel_chunk(job, start, stop) : unravel_chunk(job, start, stop);
}

/* Ravel into 32-bit offsets by blocks of rows, each a job of its own whose
 * columns start at the block's first row, its int64 offsets then
 * narrowed. */
static ptrdiff_t ravel_narrowed(const xs_job *job, ptrdiff_t start, ptrdiff_t stop) {
    const int rank = job->plan->rank;
    int64_t wide[XS_NARROW_ITEMS];
    const char *stack[XS_MAX_UNROLLED];
    const char **column = rank <= XS_MAX_UNROLLED ? stack : malloc(rank * sizeof *column);
    if (column == NULL) return start;  /* no memory: reported as this row, never silently */
    uint32_t *out = (uint32_t *)(void *)job->out;
    xs_job block = *job;
    block.column = column;
    block.out = wide;
    block.out32 = 0;
    block.store = XS_STORE_PLAIN;  /* a block on the stack, read back at once */
    ptrdiff_t bad = -1;
    for (ptrdiff_t b0 = start; b0 < stop && bad < 0; b0 += XS_NARROW_ITEMS) {
        ptrdiff_t n = stop - b0 < XS_NARROW_ITEMS ? stop - b0 : XS_NARROW_ITEMS;
        for (int j = 0; j < rank; j++) column[j] = job->column[j] + b0 * job->column_step[j];
        bad = ravel_chunk64(&block, 0, n);
        if (bad >= 0) bad += b0;
        narrow(out + b0, wide, n);
    }
    if (column != stack) free(column);
    return bad;
}

/* Ravel into 32-bit offsets: rows or contiguous columns of a buffer of at
 * most 2**31 elements in 32-bit arithmetic, straight into out (under
 * 'wrap' or 'clip' by blocks, a block with an index out of range redone by
 * ravel_narrowed); other jobs by ravel_narrowed. */
static ptrdiff_t ravel_chunk32(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    enum ravel_form form = job->tiled ? GENERAL : ravel_form(job);
    if (form == GENERAL || job->plan->size > ((uint64_t)1 << 31) || job->plan->rank > XS_MAX_UNROLLED)
        return ravel_narrowed(job, start, stop);
    xs_ravel_cols32_fn kernel = xs_active_kernels()->ravel_cols32[job->column_dtype[0]];
    uint32_t *out = (uint32_t *)(void *)job->out;
    if (job->mode == NULL) {
        const ptrdiff_t head = line_start(out, 4, start, stop, job->store);
        return kernel(job->plan, job->column, out, start, head, form == ROWS, job->store) |
                       kernel(job->plan, job->column, out, head, stop, form == ROWS, job->store)
                   ? xs_ravel_first_bad(job, start, stop) : -1;
    }
    for (ptrdiff_t b0 = start, b1; b0 < stop; b0 = b1) {
        b1 = block_end(out, 4, b0, stop);
        if (kernel(job->plan, job->column, out, b0, b1, form == ROWS, job->store)) {
            ptrdiff_t bad = ravel_narrowed(job, b0, b1);
            if (bad >= 0) return bad;
        }
    }
    return -1;
}

/* Unravel into 32-bit indices: C-contiguous rows and contiguous columns
 * (the transpose of a (rank, N) result) straight from the level's kernel
 * where it takes the plan; otherwise each block of offsets is unravelled
 * into int64, then narrowed into the result's strides. */
static ptrdiff_t unravel_chunk32(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const xs_job *job = arg;
    const int rank = job->plan->rank;
    xs_unravel32_fn direct = job->tiled ? NULL : xs_active_kernels()->unravel32[job->linear_dtype];
    if (direct != NULL && job->linear_step == xs_dtype_size(job->linear_dtype) &&
        ((uintptr_t)job->rows_out & 3) == 0) {
        uint32_t *out = (uint32_t *)(void *)job->rows_out;
        uint64_t bad = 0;
        /* each returns its start where the kernel does not take the plan */
        if (job->out_step1 == 4 && job->out_step0 == 4 * (ptrdiff_t)rank) {  /* C-contiguous rows */
            const ptrdiff_t head = line_start(out, job->out_step0, start, stop, job->store);
            if (direct(job->plan, job->linear, out, 0, start, head, job->store, &bad) == head &&
                direct(job->plan, job->linear, out, 0, head, stop, job->store, &bad) == stop)
                return bad ? xs_unravel_first_bad(job, start, stop) : -1;
        } else if (job->out_step0 == 4 && job->out_step1 % 4 == 0 && job->out_step1 != 0) {
            if (direct(job->plan, job->linear, out, job->out_step1 / 4, start, stop, job->store,
                       &bad) == stop)
                return bad ? xs_unravel_first_bad(job, start, stop) : -1;
        }
    }
    int64_t stack[XS_NARROW_ITEMS];
    const ptrdiff_t rows = rank == 0 ? XS_NARROW_ITEMS : rank > XS_NARROW_ITEMS ? 1 : XS_NARROW_ITEMS / rank;
    int64_t *wide = rank <= XS_NARROW_ITEMS ? stack : malloc(rank * sizeof *wide);
    if (wide == NULL) return start;  /* no memory: reported as this row, never silently */
    /* contiguous columns (the transpose of a (rank, N) result): the block
     * is laid out by columns too, so that each narrows in one run */
    const int by_columns = job->out_step0 == 4 && rank <= XS_NARROW_ITEMS;
    xs_job block = *job;
    block.rows_out = (char *)wide;
    block.out_step0 = (by_columns ? 1 : rank) * (ptrdiff_t)sizeof *wide;
    block.out_step1 = (by_columns ? rows : 1) * (ptrdiff_t)sizeof *wide;
    block.out32 = 0;
    block.store = XS_STORE_PLAIN;  /* a block on the stack, read back at once */
    ptrdiff_t bad = -1;
    for (ptrdiff_t b0 = start; b0 < stop && bad < 0; b0 += rows) {
        ptrdiff_t n = stop - b0 < rows ? stop - b0 : rows;
        block.linear = job->linear + b0 * job->linear_step;
        bad = unravel_chunk64(&block, 0, n);
        if (bad >= 0) bad += b0;
        char *first = job->rows_out + b0 * job->out_step0;
        if (by_columns)
            for (int d = 0; d < rank; d++)
                narrow((uint32_t *)(void *)(first + d * job->out_step1), wide + d * rows, n);
        else if (job->out_step1 == 4 && job->out_step0 == 4 * (ptrdiff_t)rank)
            narrow((uint32_t *)(void *)first, wide, n * rank);  /* C-contiguous rows */
        else
            for (ptrdiff_t i = 0; i < n; i++)
                for (int d = 0; d < rank; d++)
                    *(uint32_t *)(void *)(first + i * job->out_step0 + d * job->out_step1) =
                        (uint32_t)wide[i * rank + d];
    }
    if (wide != stack) free(wide);
    return bad;
}

/* -- hand-off -------------------------------------------------------------- */

/* Calls of fewer rows run alone, untimed: about a microsecond's work, less
 * than any worker's start. */
#define XS_SPLIT_ROWS 2048
/* A chunk's fewest rows: 256 rows write whole cache lines at its ends
 * but for the first and last. */
#define XS_CHUNK_ROWS 256
/* Nanoseconds per byte moved (read and written) before a direction's rate
 * is measured: 20 GB/s, one core's rate or less (on an Intel Xeon, avx512,
 * rank 4 int64 rows, 40 bytes each, one thread: 0.028 ns/byte ravel and
 * 0.039 unravel at 10^4 rows, 0.063 and 0.040 at 10^8). Only the first
 * call of each kind uses it. */
#define XS_PRIOR_NS_PER_BYTE 0.05

/* The one-thread rate, in ns per byte moved, per direction, CPU level and
 * store mode (which says where the call's bytes live: plain stores within
 * a core's L2, aligned slots past it, streamed stores past the last-level
 * cache). Every timed call adds its threads' time over its bytes (a call
 * split over the pool adds the sum of its chunks' times), so the rate
 * follows the calls made, with no probe call the other way. (Shared by
 * every rank and layout of a direction: a heuristic, which never changes a
 * result.) */
static xs_rate row_rate[2][XS_NLEVELS][3];

/* A chunk of a job, timed, and fenced on the thread that wrote it when the
 * job streams its stores (the kernels' own blocks, as under 'clip', do not
 * each fence), so that the results are visible before the pool counts the
 * chunk done and the call returns. */
typedef struct {
    xs_chunk_fn fn;
    const xs_job *job;
    int fence;
    uint64_t *ns;  /* the chunks' time, summed */
} timed_job;

static void fence_stores(void) {
#if XS_X86_DISPATCH  /* sfence, as assembly: the level headers alone hold intrinsics */
    __asm__ __volatile__("sfence" ::: "memory");
#elif defined(_MSC_VER) && !defined(__clang__)
    /* nothing: MSVC builds the baseline level alone, which stores nothing
     * non-temporal, and no pool (runtime/pool.h), so no other thread reads */
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

static ptrdiff_t timed_chunk(const void *arg, ptrdiff_t start, ptrdiff_t stop) {
    const timed_job *t = arg;
    uint64_t t0 = xs_now_ns();
    ptrdiff_t bad = t->fn(t->job, start, stop);
    if (t->fence) fence_stores();
    XS_ADD_NS(t->ns, xs_now_ns() - t0);
    return bad;
}

/* ``timed``: the call's time may feed the rate (not that of a call into
 * fresh memory, which times the page faults more than the kernels). */
static ptrdiff_t run(xs_chunk_fn fn, const xs_job *job, ptrdiff_t n, int threads,
                     int direction, double row_bytes, int timed) {
    uint64_t ns = 0;
    timed_job t = {fn, job, job->store == XS_STORE_STREAM, &ns};
    if (threads <= 1 || n < XS_SPLIT_ROWS) {
        ptrdiff_t bad = fn(job, 0, n);
        if (t.fence) fence_stores();
        return bad;
    }
    xs_rate *rate = &row_rate[direction][xs_level()][job->store];
    const double row_ns = xs_rate_estimate(rate, XS_PRIOR_NS_PER_BYTE) * row_bytes;
    xs_handoff plan = xs_handoff_plan(row_ns * (double)n, n,
                                      xs_handoff_min_chunk(row_ns, XS_CHUNK_ROWS), threads);
    const int workers = xs_pool_workers();
    ptrdiff_t bad = xs_handoff_run(timed_chunk, &t, n, plan);
    if (timed && xs_pool_workers() == workers)  /* a call that started threads times that too */
        xs_rate_add(rate, (double)ns / ((double)n * row_bytes));
    return bad;
}

/* -- how results are stored -------------------------------------------------- */

/* Bytes a call reads and writes from which its results are written by
 * non-temporal stores (kernels_store.h): set at import from the CPU's
 * cache sizes (xlashape/cpu.py); until then, never. */
static double stream_from = 9.2e18;

void xs_set_stream_bytes(int64_t bytes) { stream_from = (double)bytes; }
int64_t xs_stream_bytes(void) { return (int64_t)stream_from; }

/* Bytes a call moves from which it writes aligned slots (kernels_store.h):
 * set at import to three quarters of a core's L2 (xlashape/cpu.py). Past
 * it, a store across two cache lines costs more than the permute that
 * avoids it; within it, less. On an Intel Xeon (avx512, 2 MiB of L2), rank
 * 4, one thread, an unravel into an out= at 16 mod 64, against the same
 * into one at 0 mod 64: turned, 1.09-1.18x the time at 1.2 and 2.0 MB
 * moved, 1.02-1.06x from 4 to 12 MB; stored plainly, 1.01x at 1.2 MB,
 * 1.07-1.22x from 2.0 MB. (The unravel kernels store rows plainly all the
 * same where aligned slots would not move them, or where the level turns
 * them at a loss: kernels_store.h, xs_vstream_rows_mode.) */
static double align_from = (double)(1 << 20);

void xs_set_align_bytes(int64_t bytes) { align_from = (double)bytes; }
int64_t xs_align_bytes(void) { return (int64_t)align_from; }

/* How the ravel loops over rows prefetch (kernels_common.h, enum
 * xs_prefetch): set at import from the CPU's L2 (xlashape/cpu.py). */
static int prefetch_mode = XS_PREFETCH_L1;

void xs_set_prefetch_mode(int mode) { prefetch_mode = mode; }
int xs_prefetch_mode(void) { return prefetch_mode; }

/* Whether the pages holding ``at`` are all in memory (on Linux; elsewhere
 * assumed so). A result in pages not yet touched (a fresh np.empty, or a
 * new result of xlashape's) is not streamed: each page fault zeroes its
 * page with ordinary stores, which leave its lines in cache, and a
 * non-temporal store to a line in cache is slow. On an Intel Xeon
 * (avx512), an unravel of 10^7 rank-4 rows into fresh memory took 94-99 ms
 * streamed against 56-57 ms with ordinary stores. */
static int resident(const char *const *at, int count) {
#if defined(__linux__)
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int k = 0; k < count; k++) {
        unsigned char in = 0;
        if (mincore((void *)((uintptr_t)at[k] & ~(page - 1)), 1, &in) != 0 || !(in & 1)) return 0;
    }
#else
    (void)at;
    (void)count;
#endif
    return 1;
}

/* How a call that moves ``bytes`` stores its results, whose first, middle
 * and last items are at ``at``. */
static int store_mode(double bytes, const char *const *at, int *fresh) {
    *fresh = 0;
    if (bytes >= stream_from) {
        if (resident(at, 3)) return XS_STORE_STREAM;
        *fresh = 1;
    }
    return bytes >= align_from ? XS_STORE_ALIGNED : XS_STORE_PLAIN;
}

/* Bytes per row: a ravel's indices and offset, an unravel's offset and indices. */
static double ravel_row_bytes(const xs_job *job) {
    double bytes = job->out32 ? 4 : 8;
    for (int j = 0; j < job->plan->rank; j++) bytes += xs_dtype_size(job->column_dtype[j]);
    return bytes;
}

static double unravel_row_bytes(const xs_job *job) {
    return xs_dtype_size(job->linear_dtype) + (double)job->plan->rank * (job->out32 ? 4 : 8);
}

/* Run a call whose results' rows start at ``rows``, ``step`` bytes apart,
 * each row reading and writing ``row_bytes``: how it stores them is set on
 * its own copy of the job. */
static ptrdiff_t start(xs_chunk_fn fn, const xs_job *job, ptrdiff_t n, int threads,
                       int direction, double row_bytes, const char *rows, ptrdiff_t step) {
    xs_job call = *job;
    const char *at[3] = {rows, rows + n / 2 * step, rows + (n - 1) * step};
    int fresh = 0;
    call.store = n > 0 ? store_mode((double)n * row_bytes, at, &fresh) : XS_STORE_PLAIN;
    return run(fn, &call, n, threads, direction, row_bytes, !fresh);
}

ptrdiff_t xs_ravel(const xs_job *job, ptrdiff_t n, int threads) {
    return start(job->out32 ? ravel_chunk32 : ravel_chunk64, job, n, threads, 0,
                 ravel_row_bytes(job), (const char *)job->out, job->out32 ? 4 : 8);
}

ptrdiff_t xs_unravel(const xs_job *job, ptrdiff_t n, int threads) {
    /* a row's last item: where a row of a strided result ends */
    const char *last = job->rows_out + (job->plan->rank - 1) * job->out_step1;
    return start(job->out32 ? unravel_chunk32 : unravel_chunk64, job, n, threads, 1,
                 unravel_row_bytes(job), last, job->out_step0);
}
