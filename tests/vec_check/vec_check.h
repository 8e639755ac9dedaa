/* The vector operations of kernels_vec.h one call at a time, at each level
 * that implements them, for tests/test_vector_ops.py (through
 * xlashape/_vec_check.pyx), as NumPy's _simd module exposes its universal
 * intrinsics: the levels are "portable4" and "portable8"
 * (kernels_vec_portable.h with 4 and 8 lanes, the references, on any CPU)
 * and, with GCC or clang, "avx2" and "avx512" on x86 and "neon" on
 * aarch64. Each level is a file
 * of its own (vec_check_<level>.c, the same vec_check_impl.h over its
 * header); vec_check.c holds the table of levels.
 *
 * The portable levels also carry the untiled loops of kernels_impl.h
 * compiled over their operations (xs_vcheck_kernel), so that the vector
 * loops run, and are tested, on any CPU.
 */
#ifndef XLASHAPE_VEC_CHECK_H
#define XLASHAPE_VEC_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "base/plan.h"

/* The operations, by the contract's names; each entry's comment in
 * vec_check_impl.h says what it reads and writes. */
#define XS_VCHECK_OPS(X)                                                               \
    X(xs_vd_set) X(xs_vi_set) X(xs_vok_all) X(xs_vok_bad) X(xs_vok_and) X(xs_vok_below) \
    X(xs_vok_below_i) X(xs_vload_i64) X(xs_vload_i32) X(xs_vload_ioffsets_i64)          \
    X(xs_vload_ioffsets_i32) X(xs_vload_offsets_i64) X(xs_vload_offsets_i32) X(xs_vand)  \
    X(xs_vshr) X(xs_vshl) X(xs_vdigit) X(xs_vmul) X(xs_vadd) X(xs_vfloor_fma)            \
    X(xs_vfnmadd) X(xs_vi_to_vd) X(xs_vd_to_vi) X(xs_vstore) X(xs_vstore_lanes)          \
    X(xs_vstore_nt) X(xs_vjoin) X(xs_vstore_rows) X(xs_vstore_rows32) X(xs_vravel_check) \
    X(xs_vravel_rowsum) X(xs_vravel_sum) X(xs_vravel_column) X(xs_vravel_rows4_u32)      \
    X(xs_vstream) X(xs_vtranspose) X(xs_vinterleave) X(xs_vinterleave_joined)          \
    X(xs_vdeinterleave) X(xs_vdeinterleave_lines) X(xs_vstore_line_nt)                  \
    X(xs_vstore_lines_nt) X(xs_vstore_line_joined_nt) X(xs_vstore_line_blend_nt)

#define XS_VCHECK_ENUM(name) XS_VCHECK_##name,
enum xs_vcheck_op { XS_VCHECK_OPS(XS_VCHECK_ENUM) XS_VCHECK_NOPS };
#undef XS_VCHECK_ENUM

/* The results of xs_vcheck_run that are not an operation's own. */
#define XS_VCHECK_ABSENT (-1000)  /* the level lacks the operation (an optional one) */
#define XS_VCHECK_OUTSIDE (-1001) /* an argument outside what the level takes (a rank) or
                                     what the buffers hold */

/* ``in`` holds at least XS_VCHECK_IN items, ``param`` XS_VCHECK_PARAMS;
 * ``out`` is aligned to 64 bytes and holds XS_VCHECK_OUT bytes. */
#define XS_VCHECK_IN 1024
#define XS_VCHECK_PARAMS 32
#define XS_VCHECK_OUT 4096

/* What a level is: its lanes (XS_VL), bytes (XS_VBYTES), the ranks of
 * XS_VROWS and of XS_VRAVEL (bit R), and which optional operations it
 * has (bit 0: XS_VRAVEL_COLUMN, bit 1: XS_VSTORE_ROWS32). */
typedef struct {
    int lanes, bytes, rows_ranks, ravel_ranks, optional;
} xs_vcheck_info;

/* The untiled kernels of kernels_impl.h, as dispatch.c's table holds
 * them (an index array as ``const void *``). */
typedef uint64_t (*xs_vcheck_ravel_rows_fn)(const xs_plan *, const void *, int64_t *, ptrdiff_t,
                                            ptrdiff_t, int);
typedef uint64_t (*xs_vcheck_ravel_cols_fn)(const xs_plan *, const char *const *, int64_t *,
                                            ptrdiff_t, ptrdiff_t, int);
typedef uint64_t (*xs_vcheck_ravel_cols32_fn)(const xs_plan *, const char *const *, uint32_t *,
                                              ptrdiff_t, ptrdiff_t, int, int);
typedef uint64_t (*xs_vcheck_unravel_rows_fn)(const xs_plan *, const void *, int64_t *,
                                              ptrdiff_t, ptrdiff_t, ptrdiff_t, ptrdiff_t, int);
typedef ptrdiff_t (*xs_vcheck_unravel32_fn)(const xs_plan *, const void *, uint32_t *, ptrdiff_t,
                                            ptrdiff_t, ptrdiff_t, int, uint64_t *);

/* The kernels of one portable level (index 0: int32, 1: int64); NULL at
 * the others, and unravel32 where the level has no
 * XS_VSTORE_ROWS32. */
typedef struct {
    xs_vcheck_ravel_rows_fn ravel_rows[2];
    xs_vcheck_ravel_cols_fn ravel_cols[2];
    xs_vcheck_ravel_cols32_fn ravel_cols32[2];
    xs_vcheck_unravel_rows_fn unravel_rows[2];
    xs_vcheck_unravel32_fn unravel32[2];
} xs_vcheck_kernels;

/* One level: its name, whether this CPU runs it, what it is, one
 * operation on given arguments (vec_check_impl.h says which), and its
 * kernels (index 0: int32, 1: int64). run returns the operation's int
 * result (0 where it has none), XS_VCHECK_ABSENT or XS_VCHECK_OUTSIDE;
 * ``*ok`` is the xs_vok argument and result, a bit per lane (bit l set:
 * lane l good), and ``*flag`` a flag argument and result. */
typedef struct {
    const char *name;
    int (*supported)(void);
    xs_vcheck_info info;
    int64_t (*run)(int op, const uint64_t *in, const uint64_t *param, char *out, unsigned *ok,
                   uint64_t *flag);
    xs_vcheck_kernels kernels;
} xs_vcheck_level;

int xs_vcheck_nlevels(void);
const xs_vcheck_level *xs_vcheck_level_at(int k);
const char *xs_vcheck_op_name(int op);

#define XS_VCHECK_LEVEL_DECLARE(level) extern const xs_vcheck_level xs_vcheck_##level;
XS_VCHECK_LEVEL_DECLARE(portable4)
XS_VCHECK_LEVEL_DECLARE(portable8)
XS_VCHECK_LEVEL_DECLARE(avx2)
XS_VCHECK_LEVEL_DECLARE(avx512)
XS_VCHECK_LEVEL_DECLARE(neon)
#undef XS_VCHECK_LEVEL_DECLARE

#endif
