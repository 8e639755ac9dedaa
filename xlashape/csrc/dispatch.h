/* The one route from the Cython glue to the kernels: a job describes one
 * batch call; xs_ravel and xs_unravel run it (on the pool's threads when
 * it is large enough) and return the first bad row, or -1.
 *
 * Kernels are chosen by the index dtype from the struct of kernels
 * (kernels.h) of the CPU level picked once, at import (xs_select_level);
 * a job with a tiled plan runs the tiled chunks of tiled.h instead. Ravel reads one (N, rank) array
 * (the rows kernel), rank contiguous columns of one dtype (the fused column
 * kernel), or any columns (the column kernels of kernels_columns.h). Under
 * 'wrap' or 'clip' the first two run by blocks as if every dimension
 * raised, and a block with an index out of range is redone by the column
 * kernels in each dimension's mode: indices in range cost what they cost
 * under 'raise'. */
#ifndef XLASHAPE_DISPATCH_H
#define XLASHAPE_DISPATCH_H

#include "levels.h"
#include "plan.h"

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

/* The level running now, the best this CPU supports, and each level's
 * name. xs_select_level(-1) picks the best; otherwise the level asked for,
 * if this CPU supports it (returns -1 when it does not). */
int xs_level(void);
int xs_best_level(void);
const char *xs_level_name(int level);
int xs_select_level(int level);

ptrdiff_t xs_ravel(const xs_job *job, ptrdiff_t n, int threads);

/* The bench's in-cache limit at the level in use: read n_in int64 and
 * write n_out, one a multiple of the other, in contiguous streams
 * (kernels_traffic.h). */
void xs_traffic(const int64_t *in, ptrdiff_t n_in, int64_t *out, ptrdiff_t n_out);
ptrdiff_t xs_unravel(const xs_job *job, ptrdiff_t n, int threads);

/* The bytes of traffic (read and written) from which a call streams its
 * results past the caches: a call that moves that much cannot leave its
 * results in cache for the caller to read next. */
void xs_set_stream_bytes(int64_t bytes);
int64_t xs_stream_bytes(void);
/* The bytes from which a call writes its results as aligned slots
 * (kernels_store.h): a call that moves that much leaves a core's L2. */
void xs_set_align_bytes(int64_t bytes);
int64_t xs_align_bytes(void);

#endif
