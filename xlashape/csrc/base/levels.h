/* The CPU levels: the one list of them, the instruction sets each level's
 * files are compiled for, and the pragmas that compile a file's functions
 * for one of them.
 *
 * XS_LEVELS lists the levels, lowest first, each by its name. The level
 * enum, the names, the kernel structs the dispatcher picks from (kernels.h)
 * and the run-time check of what a level needs (dispatch.c) all follow it.
 * A level ``name`` has:
 * - XS_FEATURES_<name>: the instruction sets its code may use, in the
 *   spelling of GCC's target attribute and __builtin_cpu_supports (the
 *   check reads each name in the string, so they are written only here);
 * - kernels_<name>.c, which compiles its kernels between XS_TARGET_BEGIN
 *   and XS_TARGET_END with those features (where it has any) and defines
 *   xs_kernels_<name>;
 * - kernels_vec_<name>.h, its vector operations (the baseline has none).
 */
#ifndef XLASHAPE_LEVELS_H
#define XLASHAPE_LEVELS_H

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define XS_X86_DISPATCH 1
#define XS_ARM_LEVELS 0
#define XS_LEVELS(X) X(baseline) X(avx2) X(avx512)
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__) && defined(__ARM_NEON) && \
    !defined(__AARCH64EB__)
/* 64-bit Arm, little-endian (Linux, macOS, Windows with clang). NEON is
 * part of every such CPU: its empty feature list needs no check, and its
 * file is compiled for the whole build's target, without a pragma. A level
 * that needs a check (SVE) would join here with its features, an
 * xs_cpu_has that reads them (getauxval's hardware capabilities on Linux,
 * sysctlbyname on macOS) and a target pragma in its file. */
#define XS_X86_DISPATCH 0
#define XS_ARM_LEVELS 1
#define XS_LEVELS(X) X(baseline) X(neon)
#else
#define XS_X86_DISPATCH 0
#define XS_ARM_LEVELS 0
#define XS_LEVELS(X) X(baseline)
#endif

#define XS_FEATURES_baseline ""
#define XS_FEATURES_avx2 "avx2,fma,bmi,bmi2,popcnt"
#define XS_FEATURES_avx512 "avx512f,avx512dq,avx512vl,avx512bw,avx512cd,avx2,fma,bmi,bmi2,popcnt"
#define XS_FEATURES_neon ""

#include <string.h>

#if XS_X86_DISPATCH
/* Whether the CPU (and OS) support the instruction set ``name`` (of
 * ``len`` characters). __builtin_cpu_supports takes only a literal, so the
 * names the features above use are listed here to be matched; a name not
 * listed counts as unsupported, so a level asking for it is never picked. */
#define XS_CPU_FEATURES(X) \
    X("avx2") X("fma") X("bmi") X("bmi2") X("popcnt") X("avx512f") X("avx512dq") X("avx512vl") \
    X("avx512bw") X("avx512cd")
static inline int xs_cpu_has(const char *name, size_t len) {
#define XS_CPU_HAS(f) \
    if (len == sizeof f - 1 && memcmp(name, f, len) == 0) return __builtin_cpu_supports(f);
    XS_CPU_FEATURES(XS_CPU_HAS)
#undef XS_CPU_HAS
    return 0;
}
#endif

/* Whether this CPU supports every instruction set of a comma-separated
 * list (a level's XS_FEATURES_<name>). Call it outside any target pragma. */
static inline int xs_cpu_supports(const char *list) {
#if XS_X86_DISPATCH
    __builtin_cpu_init();
    for (const char *name = list; *name != '\0';) {
        size_t len = strcspn(name, ",");
        if (!xs_cpu_has(name, len)) return 0;
        name += len + (name[len] == ',');
    }
    return 1;
#else
    return list[0] == '\0';
#endif
}

#define XS_LEVEL_ENUM(name) XS_LEVEL_##name,
enum xs_level { XS_LEVELS(XS_LEVEL_ENUM) XS_NLEVELS };
#undef XS_LEVEL_ENUM

#define XS_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define XS_TARGET_BEGIN(features) XS_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#define XS_TARGET_END() XS_PRAGMA(clang attribute pop)
#else
#define XS_TARGET_BEGIN(features) XS_PRAGMA(GCC push_options) XS_PRAGMA(GCC target(features))
#define XS_TARGET_END() XS_PRAGMA(GCC pop_options)
#endif

#endif
