/* Relayout kernels at the AVX-512 (the AVX2 blocks, compiled with AVX-512 enabled) level: relayout_impl.h with its in-register
 * transposes, compiled for the level's instruction set (targets.h).
 * relayout.c calls them only when the index kernels run at this level. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include "targets.h"

XS_TARGET_BEGIN(XS_TARGET_AVX512)
#define XS_RELAYOUT_VEC 1
#include "relayout_impl.h"

const xs_relayout_kernels xs_relayout_avx512 = {"avx512", xs_relayout_range};
XS_TARGET_END()
#endif
