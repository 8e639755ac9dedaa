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

#include "base/job.h"


ptrdiff_t xs_ravel(const xs_job *job, ptrdiff_t n, int threads);

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
/* How the ravel loops over rows prefetch their input in calls that store
 * other than plainly: enum xs_prefetch (kernels_common.h). */
void xs_set_prefetch_mode(int mode);
int xs_prefetch_mode(void);

#endif
