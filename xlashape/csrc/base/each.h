/* The one way to stamp out code per entry of a list: include a template
 * once per entry of a list macro, in order: a level's share of the dtype
 * registry (XS_LEVEL_DTYPES, kernels/kernels_dtype.h) and the tiled
 * kernels' index types by ranks (XS_TILED_CASES, tiled/tiled_kernels.h).
 *
 * Before including this file, define XS_EACH_LIST as the list (a macro
 * whose entries are X(...) calls) and XS_EACH_FILE as the template's path;
 * both are undefined again at the end. While the template is read,
 * XS_EACH_ENTRY(F) is F applied to the arguments of its entry, so a
 * template names its parameters by a field macro of the list
 * (`#define XS_T XS_EACH_ENTRY(XS_DTYPE_T)`). No include guard: used once
 * per list. Loops do not nest, as those parameters are read from
 * XS_EACH_LIST and XS_EACH_K when the template's text is compiled: a
 * template that stamps out more code within itself does so with its own
 * parameters written out (tiled/tiled_kernels_impl.h's counts of extra
 * digits).
 *
 * The preprocessor has no loop over #include, so the ladder below includes
 * the template at each position up to XS_EACH_MAX where the list is that
 * long; a longer list fails to compile here, with its name. */
#if defined(XS_EACH_K)
#error "base/each.h: a template included by it includes it again; loops over lists do not nest"
#endif
#if !defined(XS_EACH_LIST) || !defined(XS_EACH_FILE)
#error "base/each.h: define XS_EACH_LIST (the list) and XS_EACH_FILE (the template) first"
#endif

#ifndef XLASHAPE_EACH_H
#define XLASHAPE_EACH_H
#define XS_EACH_MAX 32
#define XS_EACH_COUNT_ENTRY(...) +1
#define XS_EACH_TUPLE(...) (__VA_ARGS__),
#define XS_EACH_STR_(x) #x
#define XS_EACH_STR(x) XS_EACH_STR_(x)
#define XS_EACH_APPLY(F, args) F args
#define XS_EACH_PICK(k, ...) XS_EACH_PICK_(k, __VA_ARGS__)
#define XS_EACH_PICK_(k, ...) XS_EACH_PICK_##k(__VA_ARGS__)
#define XS_EACH_ENTRY(F) \
    XS_EACH_APPLY(F, XS_EACH_PICK(XS_EACH_K, XS_EACH_LIST(XS_EACH_TUPLE) ()))
#define XS_EACH_PICK_0(a0, ...) a0
#define XS_EACH_PICK_1(a0, a1, ...) a1
#define XS_EACH_PICK_2(a0, a1, a2, ...) a2
#define XS_EACH_PICK_3(a0, a1, a2, a3, ...) a3
#define XS_EACH_PICK_4(a0, a1, a2, a3, a4, ...) a4
#define XS_EACH_PICK_5(a0, a1, a2, a3, a4, a5, ...) a5
#define XS_EACH_PICK_6(a0, a1, a2, a3, a4, a5, a6, ...) a6
#define XS_EACH_PICK_7(a0, a1, a2, a3, a4, a5, a6, a7, ...) a7
#define XS_EACH_PICK_8(a0, a1, a2, a3, a4, a5, a6, a7, a8, ...) a8
#define XS_EACH_PICK_9(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, ...) a9
#define XS_EACH_PICK_10(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, ...) a10
#define XS_EACH_PICK_11(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, ...) a11
#define XS_EACH_PICK_12(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, ...) a12
#define XS_EACH_PICK_13(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, ...) a13
#define XS_EACH_PICK_14(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, ...) a14
#define XS_EACH_PICK_15(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, ...) a15
#define XS_EACH_PICK_16(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, ...) a16
#define XS_EACH_PICK_17(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, ...) a17
#define XS_EACH_PICK_18(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, ...) a18
#define XS_EACH_PICK_19(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, ...) a19
#define XS_EACH_PICK_20(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, ...) a20
#define XS_EACH_PICK_21(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, ...) a21
#define XS_EACH_PICK_22(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, ...) a22
#define XS_EACH_PICK_23(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, ...) a23
#define XS_EACH_PICK_24(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, ...) a24
#define XS_EACH_PICK_25(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, ...) a25
#define XS_EACH_PICK_26(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, ...) a26
#define XS_EACH_PICK_27(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, ...) a27
#define XS_EACH_PICK_28(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, ...) a28
#define XS_EACH_PICK_29(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, ...) a29
#define XS_EACH_PICK_30(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, ...) a30
#define XS_EACH_PICK_31(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, ...) a31
#endif

#define XS_EACH_N (0 XS_EACH_LIST(XS_EACH_COUNT_ENTRY))
#if XS_EACH_N > XS_EACH_MAX
/* #error cannot name the list (its text is not expanded); the assertion does */
_Static_assert(0, "base/each.h includes a template for at most XS_EACH_MAX (32) entries of a list, "
                  "and " XS_EACH_STR(XS_EACH_LIST) " has more: add positions to its ladder");
#error "base/each.h: a list longer than XS_EACH_MAX (32), named by the assertion above"
#endif

#if XS_EACH_N > 0
#define XS_EACH_K 0
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 1
#define XS_EACH_K 1
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 2
#define XS_EACH_K 2
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 3
#define XS_EACH_K 3
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 4
#define XS_EACH_K 4
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 5
#define XS_EACH_K 5
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 6
#define XS_EACH_K 6
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 7
#define XS_EACH_K 7
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 8
#define XS_EACH_K 8
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 9
#define XS_EACH_K 9
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 10
#define XS_EACH_K 10
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 11
#define XS_EACH_K 11
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 12
#define XS_EACH_K 12
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 13
#define XS_EACH_K 13
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 14
#define XS_EACH_K 14
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 15
#define XS_EACH_K 15
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 16
#define XS_EACH_K 16
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 17
#define XS_EACH_K 17
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 18
#define XS_EACH_K 18
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 19
#define XS_EACH_K 19
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 20
#define XS_EACH_K 20
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 21
#define XS_EACH_K 21
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 22
#define XS_EACH_K 22
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 23
#define XS_EACH_K 23
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 24
#define XS_EACH_K 24
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 25
#define XS_EACH_K 25
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 26
#define XS_EACH_K 26
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 27
#define XS_EACH_K 27
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 28
#define XS_EACH_K 28
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 29
#define XS_EACH_K 29
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 30
#define XS_EACH_K 30
#include XS_EACH_FILE
#undef XS_EACH_K
#endif
#if XS_EACH_N > 31
#define XS_EACH_K 31
#include XS_EACH_FILE
#undef XS_EACH_K
#endif

#undef XS_EACH_N
#undef XS_EACH_LIST
#undef XS_EACH_FILE
