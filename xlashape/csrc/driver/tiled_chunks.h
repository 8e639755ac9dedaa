/* The chunk functions of a tiled job (a job whose ``tiled`` field is set;
 * tiled/tiled.h has the plan): run by the driver (dispatch.c) as it runs
 * its own chunks, on this thread or the pool's. */
#ifndef XLASHAPE_TILED_CHUNKS_H
#define XLASHAPE_TILED_CHUNKS_H

#include "base/job.h"

/* Chunks of a tiled job (runtime/pool.h's xs_chunk_fn): the first bad row of
 * rows [start, stop), or -1. */
ptrdiff_t xs_tiled_ravel_chunk(const void *job, ptrdiff_t start, ptrdiff_t stop);
ptrdiff_t xs_tiled_unravel_chunk(const void *job, ptrdiff_t start, ptrdiff_t stop);

#endif
