/* AVX-512 (F, DQ, VL, BW, CD) kernels for int32 and int64 indices: the baseline loops of
 * kernels_impl.h, kernels_columns.h and the tiled block kernels of
 * tiled_kernels.h compiled for this level by a target pragma, so that only
 * these functions use its instructions. dispatch.c calls them only when
 * the CPU (and OS) support the level. */
#include "dispatch.h"
#include "tiled.h"

#if XS_X86_DISPATCH
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt")
#endif

#include "kernels_common.h"
#include "kernels_vec_avx512.h"

#define XS_LEVEL avx512
#include "kernels_wide.h"
#include "kernels_columns.h"
#include "kernels_traffic.h"
#include "tiled_kernels.h"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
