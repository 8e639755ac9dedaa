/* Relayout kernels at the AVX-512 level: relayout_impl.h with its
 * in-register transposes (32x32 of 2-byte, 16x16 of 4-byte and 8x8 of
 * 8-byte elements, in 64-byte rows), compiled for the level's instruction set (targets.h).
 * relayout.c calls them only when the index kernels run at this level. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include "targets.h"

XS_TARGET_BEGIN(XS_TARGET_AVX512)
#define XS_RELAYOUT_VEC 2
#include "relayout_impl.h"

const xs_relayout_kernels xs_relayout_avx512 = {"avx512", xs_relayout_range};
XS_TARGET_END()
#endif
