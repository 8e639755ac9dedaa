/* The AVX-512 (F, DQ, VL, BW, CD) level: the loops of kernels_impl.h for the
 * index dtypes of XS_LEVEL_DTYPES (int32 and int64), kernels_columns.h,
 * the tiled block kernels of tiled_kernels.h and the relayout kernels of
 * relayout_impl.h, compiled for the level's instruction sets (levels.h) by
 * a target pragma, so that only these functions use them; and the level's
 * struct (kernels.h), which cpu/cpu_level.c picks only when the CPU (and
 * OS) support the level. Index dtypes the level does not list take the
 * baseline's kernels. */
#include "levels/kernels.h"

#if XS_X86_DISPATCH
#include "kernels/kernels_generic.h"

XS_TARGET_BEGIN(XS_FEATURES_avx512)
#include "kernels/kernels_common.h"
#include "vec/kernels_vec_avx512.h"

#define XS_LEVEL avx512
#define XS_LEVEL_DTYPES(X) XS_DTYPE_I32(X) XS_DTYPE_I64(X)
#define XS_EACH_LIST XS_LEVEL_DTYPES
#define XS_EACH_FILE "kernels/kernels_dtype.h"
#include "base/each.h"
#include "kernels/kernels_columns.h"
#include "kernels/kernels_traffic.h"
#include "tiled/tiled_kernels.h"
#include "relayout/relayout_impl.h"
#include "levels/kernels_table.h"
XS_TARGET_END()
#endif
