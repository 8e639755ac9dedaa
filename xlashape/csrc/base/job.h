/* One batch call, as the Cython glue describes it to the driver
 * (driver/dispatch.h) and the driver to the kernels: the layout's plan, where
 * the indices are read and the results written, and how. Built in one
 * place, zeroed first: xs_job_init below. */
#ifndef XLASHAPE_JOB_H
#define XLASHAPE_JOB_H

#include <string.h>

#include "base/plan.h"

struct xs_tiled;

typedef struct {
    const xs_plan *plan;
    const struct xs_tiled *tiled;  /* a tiled layout's plan (tiled.h), or NULL */
    /* ravel: one column per dimension (for an (N, rank) array, column j
     * starts j items into the data and steps by its row stride). */
    const char *const *column;     /* rank pointers */
    const ptrdiff_t *column_step;  /* rank strides, in bytes */
    const int *column_dtype;       /* rank xs_dtype codes */
    const uint8_t *mode;           /* rank xs_mode codes, or NULL: all raise */
    int rows_contiguous;           /* one C-contiguous (N, rank) array */
    int64_t *out;                  /* ravel: N contiguous offsets */
    /* The results are 32-bit (int32 or uint32; the glue has checked that
     * every valid one fits): ravel's out and unravel's rows_out hold 4-byte
     * items. The kernels fill int64 blocks that are then narrowed. */
    int out32;
    /* unravel */
    const char *linear;
    ptrdiff_t linear_step;         /* bytes */
    int linear_dtype;
    char *rows_out;                /* unravel: (N, rank) int64 (or 32-bit), any strides */
    ptrdiff_t out_step0, out_step1;  /* bytes */
    /* How the kernels store the results (enum xs_store): set by xs_ravel
     * and xs_unravel on their own copy of the job (the caller's is ignored). */
    int store;
} xs_job;

/* A job with every field zero (NULL pointers, no tiling, raise in every
 * dimension, 64-bit results): the glue sets the fields of its call on it. */
static inline void xs_job_init(xs_job *job) { memset(job, 0, sizeof *job); }

#endif
