/* Relayout: moving the elements of a linear buffer (or a NumPy array) from
 * one layout of a shape to another, as blocks.
 *
 * The Python side (xlashape/relayout.py) reduces a pair of layouts to a
 * loop nest once: axes that are digits of the dimensions common to both
 * layouts, each with a source and a destination step in bytes, and boxes
 * (a start and a count per axis) that cover the elements, or the padding
 * to fill. xs_relayout_run runs each box: it drops axes of count 1, merges
 * axes that are one run in both buffers, and picks the innermost form:
 *
 * - XS_MOVE_RUN: the last axis is contiguous in both: a copy of a run;
 * - XS_MOVE_FILL: contiguous in the destination, step 0 in the source (a
 *   padding value): a fill;
 * - XS_MOVE_TRANSPOSE: the last axis is contiguous in the destination and
 *   another in the source: a blocked 2-D transpose of those two;
 * - XS_MOVE_GATHER: anything else, element by element.
 *
 * Moves that write at least stream_bytes (XS_STREAM_BYTES by default)
 * store their runs and interleaves with non-temporal (streaming) stores at
 * the vector levels: such output would not stay in cache, and streaming it
 * skips reading each line before writing it. (Transposes store as usual:
 * streamed through an L1 tile, they measured about half as fast.)
 *
 * Boxes large enough to pay are split along their most major axis over
 * the worker pool of pool.h. The kernels of each CPU level are one struct
 * (xs_relayout_kernels), chosen by the index kernels' level. */
#ifndef XLASHAPE_RELAYOUT_H
#define XLASHAPE_RELAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "pool.h"

#define XS_MOVE_MAX_AXES 64
#define XS_STREAM_BYTES ((int64_t)8 << 20)  /* the default of xs_relayout_job.stream_bytes */

enum xs_move_kind { XS_MOVE_RUN = 0, XS_MOVE_FILL = 1, XS_MOVE_TRANSPOSE = 2, XS_MOVE_GATHER = 3 };

/* One box once normalised: ``outer`` loop axes (most major first), then
 * the inner axes of ``kind``: one for RUN, FILL and GATHER; two for
 * TRANSPOSE, the axis contiguous in the source (j) then the one contiguous
 * in the destination (i). Steps in bytes. */
typedef struct {
    const char *src;
    char *dst;
    int size;    /* element bytes: 1, 2, 4 or 8 */
    int kind;
    int outer;
    int stream;  /* store runs and interleaves past the caches (non-temporal) */
    int64_t count[XS_MOVE_MAX_AXES];
    int64_t src_step[XS_MOVE_MAX_AXES];
    int64_t dst_step[XS_MOVE_MAX_AXES];
} xs_move;

/* A level's kernels: ``range`` runs the part of a move whose axis 0 lies
 * in [start, stop). */
typedef struct {
    const char *name;
    void (*range)(const xs_move *move, ptrdiff_t start, ptrdiff_t stop);
} xs_relayout_kernels;

extern const xs_relayout_kernels xs_relayout_baseline;
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
extern const xs_relayout_kernels xs_relayout_avx2;
extern const xs_relayout_kernels xs_relayout_avx512;
#endif

/* The runner of the worker pool (pool.h's xs_pool_run, handed over by the
 * module that owns the pool). */
typedef ptrdiff_t (*xs_pool_fn)(xs_chunk_fn fn, const void *arg, ptrdiff_t n, int threads,
                                ptrdiff_t min_chunk);

typedef struct {
    const char *src;
    char *dst;
    int size;
    int axes;                /* <= XS_MOVE_MAX_AXES, in the destination's order */
    const int64_t *src_step; /* axes steps, bytes (0 everywhere: a fill from *src) */
    const int64_t *dst_step;
    int boxes;
    const int64_t *start;    /* boxes x axes */
    const int64_t *count;    /* boxes x axes */
    int64_t stream_bytes;    /* stream a box's output from this many bytes up */
} xs_relayout_job;

/* Runs every box of ``job`` at CPU ``level`` (dispatch.h's numbering) on up
 * to ``threads`` threads through ``pool`` (given the pool's wake-up time in
 * nanoseconds, to size the chunks). */
void xs_relayout_run(const xs_relayout_job *job, int level, int threads, xs_pool_fn pool,
                     double wake_ns);

#endif
