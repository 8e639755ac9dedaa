/* Relayout kernels at the AVX-512 (the AVX2 blocks, compiled with AVX-512 enabled) level (relayout_impl.h with its in-register
 * transposes), compiled for it by a target pragma as kernels_avx512.c is.
 * relayout.c calls them only when the index kernels run at this level. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt")
#endif

#define XS_RELAYOUT_VEC 1
#include "relayout_impl.h"

const xs_relayout_kernels xs_relayout_avx512 = {"avx512", xs_relayout_range};

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
