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
 * Moves that read and write at least stream_bytes (the index kernels'
 * threshold, xs_stream_bytes of driver/dispatch.h, which the glue copies
 * into each job) store with non-temporal (streaming) stores at the vector
 * levels: such output would not stay in cache, and streaming it skips
 * reading each line before writing it. Runs and interleaves stream their
 * vectors, transposes whole result lines (relayout_impl.h says how).
 *
 * Boxes large enough to pay are split along their most major axis, on
 * 64-byte lines of the destination, over the worker pool of pool.h, on as
 * many threads as the hand-off of handoff.h gives them. The kernels
 * (relayout_impl.h) are those of the CPU level in use, from its struct of
 * kernels.h. */
#ifndef XLASHAPE_RELAYOUT_H
#define XLASHAPE_RELAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/pool.h"

#define XS_MOVE_MAX_AXES 64
/* The most line ends of streamed runs a range sets aside for the runs
 * that go on from them, beside the one it holds (relayout_impl.h's
 * xs_lines): the driver puts a streamed run's outer axes in the source's
 * order only where the run that goes on from each comes at most this many
 * runs on (driver/relayout_run.c). */
#define XS_ENDS 8

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
    int stream;  /* store past the caches (non-temporal) */
    int split;   /* the axis split into ranges (xs_relayout_fn): 0, or 1 (see relayout.c) */
    int ends;    /* runs in the source's order: their line ends set aside (XS_ENDS) */
    int64_t count[XS_MOVE_MAX_AXES];
    int64_t src_step[XS_MOVE_MAX_AXES];
    int64_t dst_step[XS_MOVE_MAX_AXES];
} xs_move;

/* Whether ``rows`` elements of ``size`` bytes, ``step`` bytes apart, are
 * the groups of an interleave of 2 or 4 rows (the (2,1) and (4,1) tiles):
 * together, in at most 8 bytes. A transpose whose side of ``rows`` is so
 * in its destination is an interleave of rows, in its source the inverse
 * (relayout_impl.h). */
static inline int xs_row_groups(int64_t rows, int64_t step, int size) {
    return size <= 4 && (rows == 2 || rows == 4) && rows * size <= 8 && step == rows * size;
}

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
    int64_t stream_bytes;    /* stream a box that reads and writes this many bytes or more */
} xs_relayout_job;

#endif
