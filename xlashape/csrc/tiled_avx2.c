/* The tiled block kernels at the AVX2 level (tiled_kernels.h, with the
 * vector operations of kernels_vec_avx2.h), under a target pragma as in
 * kernels_avx2.c; tiled.c calls them only where the CPU supports the level. */
#include "dispatch.h"
#include "tiled.h"

#if XS_X86_DISPATCH
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt")
#endif

#include "kernels_common.h"
#include "kernels_vec_avx2.h"

#define XS_LEVEL avx2
#include "tiled_kernels.h"

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
