/* A CPU level's kernels, as one struct: each level's file (kernels_<level>.c,
 * levels.h lists them) defines one, xs_kernels_<level>, and dispatch.c
 * runs every call through the one of the level picked.
 *
 * A level leaves NULL the index dtypes it compiles no kernel for; the
 * dispatcher takes the baseline's there. Every kernel returns nonzero when
 * some row of [start, stop) is bad, and takes as its last int how it
 * stores its results (enum xs_store, kernels_common.h). */
#ifndef XLASHAPE_KERNELS_H
#define XLASHAPE_KERNELS_H

#include "base/job.h"
#include "base/levels.h"
#include "relayout/relayout.h"
#include "tiled/tiled.h"

/* Ravel of C-contiguous (N, rank) rows of one dtype into int64 offsets. */
typedef uint64_t (*xs_ravel_rows_fn)(const xs_plan *, const void *, int64_t *, ptrdiff_t,
                                     ptrdiff_t, int);
/* Ravel of rank contiguous columns of one dtype; the 32-bit form writes
 * 32-bit offsets (its int: the columns are one (N, rank) array's). */
typedef uint64_t (*xs_ravel_cols_fn)(const xs_plan *, const char *const *, int64_t *, ptrdiff_t,
                                     ptrdiff_t, int);
typedef uint64_t (*xs_ravel_cols32_fn)(const xs_plan *, const char *const *, uint32_t *,
                                       ptrdiff_t, ptrdiff_t, int, int);
/* Unravel of contiguous offsets of one dtype into int64 rows (steps in
 * items), and straight into a 32-bit result: C-contiguous rows (step 0)
 * or contiguous columns step items apart (returns the first row not done;
 * the bad flag goes to the pointer). */
typedef uint64_t (*xs_unravel_rows_fn)(const xs_plan *, const void *, int64_t *, ptrdiff_t,
                                       ptrdiff_t, ptrdiff_t, ptrdiff_t, int);
typedef ptrdiff_t (*xs_unravel32_fn)(const xs_plan *, const void *, uint32_t *, ptrdiff_t,
                                     ptrdiff_t, ptrdiff_t, int, uint64_t *);
/* Ravel of any columns, dtypes, strides and modes (kernels_columns.h). */
typedef uint64_t (*xs_ravel_columns_fn)(const xs_job *, ptrdiff_t, ptrdiff_t);
/* The bench's in-cache limit (kernels_traffic.h). */
typedef void (*xs_traffic_fn)(const int64_t *, ptrdiff_t, int64_t *, ptrdiff_t);
/* Relayout: the part of a move whose axis 0 lies in [start, stop). */
typedef void (*xs_relayout_fn)(const xs_move *, ptrdiff_t, ptrdiff_t);

typedef struct {
    const char *name;
    xs_ravel_rows_fn ravel[XS_NDTYPES];
    xs_ravel_cols_fn ravel_cols[XS_NDTYPES];
    xs_ravel_cols32_fn ravel_cols32[XS_NDTYPES];
    xs_unravel_rows_fn unravel[XS_NDTYPES];     /* NULL: the general kernel */
    xs_unravel32_fn unravel32[XS_NDTYPES];     /* NULL: by int64 blocks */
    xs_ravel_columns_fn columns;
    xs_traffic_fn traffic;
    const xs_tiled_kernels *tiled_i32, *tiled_i64;  /* tiled.h's block kernels */
    xs_relayout_fn relayout;
} xs_kernels;

#define XS_DECLARE_LEVEL(name) extern const xs_kernels xs_kernels_##name;
XS_LEVELS(XS_DECLARE_LEVEL)
#undef XS_DECLARE_LEVEL

#endif
