/* Relayout kernels at the AVX2 level (relayout_impl.h with its in-register
 * transposes), compiled for it by a target pragma as kernels_avx2.c is.
 * relayout.c calls them only when the index kernels run at this level. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt")
#endif

#define XS_RELAYOUT_VEC 1
#include "relayout_impl.h"

const xs_relayout_kernels xs_relayout_avx2 = {"avx2", xs_relayout_range};

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
