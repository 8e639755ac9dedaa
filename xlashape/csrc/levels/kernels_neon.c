/* The NEON level (aarch64): the loops of kernels_impl.h for int32 and
 * int64 indices, kernels_columns.h, the tiled block kernels of
 * tiled_kernels.h and the relayout kernels of relayout_impl.h, over the
 * vector operations of kernels_vec_neon.h; and the level's struct (kernels.h). NEON is part of
 * every aarch64 CPU, so no target pragma is needed and dispatch.c picks
 * the level on every one (levels.h). Index dtypes of other sizes take the
 * baseline's kernels. */
#include "levels/kernels.h"

#if XS_ARM_LEVELS
#include "kernels/kernels_generic.h"
#include "kernels/kernels_common.h"
#include "vec/kernels_vec_neon.h"

#define XS_LEVEL neon
#define XS_LEVEL_DTYPES(X) XS_DTYPE_I32(X) XS_DTYPE_I64(X)
#define XS_EACH_LIST XS_LEVEL_DTYPES
#define XS_EACH_FILE "kernels/kernels_dtype.h"
#include "base/each.h"
#include "kernels/kernels_columns.h"
#include "kernels/kernels_traffic.h"
#include "tiled/tiled_kernels.h"
#include "relayout/relayout_impl.h"
#include "levels/kernels_table.h"
#endif
