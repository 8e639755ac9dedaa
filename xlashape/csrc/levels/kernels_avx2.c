/* The AVX2 (with FMA and BMI2) level: the loops of kernels_impl.h for int32 and int64
 * indices, kernels_columns.h, the tiled block kernels of tiled_kernels.h
 * and the relayout kernels of relayout_impl.h, compiled for the level's
 * instruction sets (levels.h) by a target pragma, so that only these
 * functions use them; and the level's struct (kernels.h), which dispatch.c
 * picks only when the CPU (and OS) support the level. Index dtypes of
 * other sizes take the baseline's kernels. */
#include "levels/kernels.h"

#if XS_X86_DISPATCH
#include "kernels/kernels_generic.h"

XS_TARGET_BEGIN(XS_FEATURES_avx2)
#include "kernels/kernels_common.h"
#include "vec/kernels_vec_avx2.h"

#define XS_LEVEL avx2
#define XS_LEVEL_DTYPES(X) X(I32, i32, int32_t, 1) X(I64, i64, int64_t, 1)
#include "kernels/kernels_dtypes.h"
#include "kernels/kernels_columns.h"
#include "kernels/kernels_traffic.h"
#include "tiled/tiled_kernels.h"
#include "relayout/relayout_impl.h"
#include "levels/kernels_table.h"
XS_TARGET_END()
#endif
