/* The x86 levels' instruction sets, once, and single-line macros that
 * compile the functions between XS_TARGET_BEGIN and XS_TARGET_END for one
 * of them (GCC's target pragma, clang's attribute push), as the level
 * files of the relayout kernels do. */
#ifndef XLASHAPE_TARGETS_H
#define XLASHAPE_TARGETS_H

#define XS_TARGET_AVX2 "avx2,fma,bmi,bmi2,popcnt"
#define XS_TARGET_AVX512 "avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt"

#define XS_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define XS_TARGET_BEGIN(features) XS_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#define XS_TARGET_END() XS_PRAGMA(clang attribute pop)
#else
#define XS_TARGET_BEGIN(features) XS_PRAGMA(GCC push_options) XS_PRAGMA(GCC target(features))
#define XS_TARGET_END() XS_PRAGMA(GCC pop_options)
#endif

#endif
