/* Running a relayout job (relayout/relayout.h): its boxes normalised, the
 * innermost form of each picked, and the boxes large enough to pay split
 * over the worker pool; the moves are the level in use's kernels
 * (relayout/relayout_impl.h). */
#ifndef XLASHAPE_RELAYOUT_RUN_H
#define XLASHAPE_RELAYOUT_RUN_H

#include "relayout/relayout.h"

/* Runs every box of ``job`` at the CPU level in use, on up to ``threads``
 * threads of the pool. */
void xs_relayout_run(const xs_relayout_job *job, int threads);

#endif
