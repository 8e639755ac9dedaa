/* The compiled form of a layout, and the one row step of each direction.
 *
 * xs_plan holds what every kernel reads: by dimension number, each
 * dimension's size and stride; by position in minor_to_major (most minor
 * first), the dimension there, its size, its padded width as a
 * Granlund-Montgomery divisor, and 1/width as a double.
 *
 * xs_ravel_row and xs_unravel_value are the per-row arithmetic of the two
 * directions. The batch kernels (kernels_impl.h), the rescan that finds
 * the first bad row, and the single-index calls of IndexUtil (_plan.pyx)
 * all use them, so each check is written once.
 */
#ifndef XLASHAPE_PLAN_H
#define XLASHAPE_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* The ranks compiled with the rank a constant (1 up to XS_MAX_UNROLLED, in
 * order): the one list the kernels' switches over ranks, the tiled block
 * kernels (each rank's, and their tables by rank), the unrolling of loops
 * over dimensions and the stack arrays of the glue follow. Larger ranks
 * run the general loops. XS_RANKS_WITH(X, a) passes each entry's macro
 * one more argument (X(R, a)), for tables that name a kernel per rank. */
#define XS_RANKS_WITH(X, a) X(1, a) X(2, a) X(3, a) X(4, a) X(5, a) X(6, a) X(7, a) X(8, a)
#define XS_RANK_ONLY(R, X) X(R)
#define XS_RANKS(X) XS_RANKS_WITH(XS_RANK_ONLY, X)
#define XS_RANK_COUNT(R) +1
#define XS_MAX_UNROLLED (0 XS_RANKS(XS_RANK_COUNT))

enum xs_mode { XS_RAISE = 0, XS_WRAP = 1, XS_CLIP = 2 };

/* The index dtypes a kernel reads in place: the one registry of them.
 * XS_DTYPE_<CODE>(X) is the entry of one dtype, with its fields:
 *   CODE     the code's suffix (XS_I8 ...);
 *   tn       a short name, for kernel names;
 *   T        the C type;
 *   unravel  1: offsets of the type have unravel kernels of their own
 *            (kernels_impl.h); 0: they take the general kernel
 *            (kernels_generic.c);
 *   vloads   1: a vector level that lists the dtype reads it in its
 *            vector loops (ravel of rows and of columns, and, with
 *            ``unravel``, unravel), from the loads of its
 *            vec/kernels_vec_<level>.h: xs_vload_<tn>, and with
 *            ``unravel`` xs_vload_offsets_<tn> and xs_vload_ioffsets_<tn>,
 *            each announced by a macro (XS_VLOAD_<tn>, XS_VLOAD_OFFSETS_<tn>)
 *            that kernels/kernels_dtype.h checks, naming a missing load;
 *            0: the vector levels read it one row at a time, as the
 *            baseline does (so a level may list it with no load).
 * XS_DTYPES is the list of all of them: the code enum, the item sizes, the
 * loads of plan.h, the baseline's kernels and the Cython glue's dtype
 * codes (xs_dtype_code) follow it. A level names its share of the
 * entries (XS_LEVEL_DTYPES, levels/kernels_<level>.c). */
#define XS_DTYPE_I8(X) X(I8, i8, int8_t, 0, 0)
#define XS_DTYPE_I16(X) X(I16, i16, int16_t, 0, 0)
#define XS_DTYPE_I32(X) X(I32, i32, int32_t, 1, 1)
#define XS_DTYPE_I64(X) X(I64, i64, int64_t, 1, 1)
#define XS_DTYPE_U8(X) X(U8, u8, uint8_t, 0, 0)
#define XS_DTYPE_U16(X) X(U16, u16, uint16_t, 0, 0)
#define XS_DTYPE_U32(X) X(U32, u32, uint32_t, 1, 0)
#define XS_DTYPE_U64(X) X(U64, u64, uint64_t, 1, 0)
#define XS_DTYPES(X)                                                                    \
    XS_DTYPE_I8(X) XS_DTYPE_I16(X) XS_DTYPE_I32(X) XS_DTYPE_I64(X) XS_DTYPE_U8(X)      \
    XS_DTYPE_U16(X) XS_DTYPE_U32(X) XS_DTYPE_U64(X)
/* The fields of an entry, for base/each.h's XS_EACH_ENTRY. */
#define XS_DTYPE_T(CODE, tn, T, unravel, vloads) T
#define XS_DTYPE_TN(CODE, tn, T, unravel, vloads) tn
#define XS_DTYPE_UNRAVEL(CODE, tn, T, unravel, vloads) unravel
#define XS_DTYPE_VLOADS(CODE, tn, T, unravel, vloads) vloads

#define XS_DTYPE_ENUM(CODE, tn, T, unravel, vloads) XS_##CODE,
enum xs_dtype { XS_DTYPES(XS_DTYPE_ENUM) XS_NDTYPES };
#undef XS_DTYPE_ENUM

typedef struct {
    uint64_t divisor;     /* the padded width */
    uint64_t multiplier;  /* ceil(2**(63 + shift) / divisor) */
    int shift;            /* ceil(log2(divisor)) */
} xs_divisor;

typedef struct {
    int rank;
    int padded;                          /* some width exceeds its size */
    int pow2;                            /* every width is a power of two */
    uint64_t size;                       /* elements, padding included */
    /* by dimension number (arrays of ``rank`` entries, owned by LayoutPlan) */
    uint64_t *extent;
    uint64_t *stride;                    /* modulo 2**64 */
    /* by position in minor_to_major, most minor first */
    int *order;                          /* the dimension number there */
    int *position;                       /* inverse: the position of each dimension */
    uint64_t *order_extent;
    xs_divisor *divisor;
    double *reciprocal;                  /* 1.0 / width, rounded */
} xs_plan;

#if defined(__SIZEOF_INT128__)
static inline uint64_t xs_mulhi(uint64_t a, uint64_t b) {
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
#elif defined(_MSC_VER) && defined(_M_X64)
#include <intrin.h>
static inline uint64_t xs_mulhi(uint64_t a, uint64_t b) { return __umulh(a, b); }
#else
static inline uint64_t xs_mulhi(uint64_t a, uint64_t b) {
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32;
    uint64_t b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo;
    uint64_t lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
}
#endif

/* The count of trailing zero bits of x != 0 (MSVC has no GNU builtins). */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline int xs_ctz64(uint64_t x) {
    unsigned long k;
    _BitScanForward64(&k, x);
    return (int)k;
}
#else
static inline int xs_ctz64(uint64_t x) { return __builtin_ctzll(x); }
#endif

/* n // d->divisor for 0 <= n < 2**63 (Granlund and Montgomery, PLDI 1994,
 * theorem 4.2 with N = 63): one 64x64->128-bit multiply and a shift. */
static inline uint64_t xs_divide(uint64_t n, const xs_divisor *d) {
    return xs_mulhi(n << 1, d->multiplier) >> d->shift;
}

/* The item of xs_dtype ``dtype`` at ``p`` as uint64: a negative index of a
 * signed type becomes a huge value, as in every check of the kernels. */
static inline uint64_t xs_load_index(const char *p, int dtype) {
#define XS_LOAD_CASE(CODE, tn, T, unravel, vloads) \
    case XS_##CODE: return (uint64_t)*(const T *)p;
    switch (dtype) { XS_DTYPES(XS_LOAD_CASE) }
#undef XS_LOAD_CASE
    return 0;
}

static inline int xs_dtype_signed(int dtype) {
#define XS_SIGNED_CASE(CODE, tn, T, unravel, vloads) case XS_##CODE: return (T)-1 < 0;
    switch (dtype) { XS_DTYPES(XS_SIGNED_CASE) }
#undef XS_SIGNED_CASE
    return 0;
}

static inline int xs_dtype_size(int dtype) {
#define XS_SIZE_CASE(CODE, tn, T, unravel, vloads) case XS_##CODE: return (int)sizeof(T);
    switch (dtype) { XS_DTYPES(XS_SIZE_CASE) }
#undef XS_SIZE_CASE
    return 0;
}

/* The code of the integer dtype of ``size`` bytes and that signedness, or
 * -1 where the list has none. */
static inline int xs_dtype_code(int size, int is_signed) {
    for (int d = 0; d < XS_NDTYPES; d++)
        if (xs_dtype_size(d) == size && xs_dtype_signed(d) == !!is_signed) return d;
    return -1;
}

/* The index in [0, extent) that ``mode`` (XS_WRAP or XS_CLIP) makes of
 * ``v``, read as xs_load_index reads a ``dtype`` item; extent >= 1. Exact
 * for every value: a negative wraps from the end (-1 is extent - 1) and a
 * uint64 above the int64 maximum is taken as the unsigned value it is. */
static inline uint64_t xs_resolve_index(uint64_t v, int dtype, uint64_t extent, int mode) {
    if (v < extent) return v;
    int negative = xs_dtype_signed(dtype) && (int64_t)v < 0;
    if (mode == XS_CLIP) return negative ? 0 : extent - 1;
    if (!negative) return v % extent;
    uint64_t r = (0 - v) % extent;  /* |v| mod extent */
    return r ? extent - r : 0;
}

/* The ravel row step: the offset of one multi-index, given as uint64
 * values (a negative index arrives as a huge value), modulo 2**64.
 * ``*bad`` gains a nonzero bit when some value is out of range; a row that
 * wraps is always such a row. */
static inline uint64_t xs_ravel_row(const uint64_t *value, const uint64_t *extent,
                                    const uint64_t *stride, int rank, uint64_t *bad) {
    uint64_t acc = 0, flag = 0;
    for (int j = 0; j < rank; j++) {
        flag |= value[j] >= extent[j];
        acc += value[j] * stride[j];
    }
    *bad |= flag;
    return acc;
}

/* The unravel row step: the multi-index of offset ``n``, exactly, by the
 * 128-bit divisors; dimension d's index goes to *(int64_t *)(out + d * step)
 * (``step`` in bytes). Returns
 * nonzero when ``n`` is outside the buffer or lands on padding (the
 * position written is then meaningless). ``n`` arrives as uint64, so a
 * negative offset is a huge value. */
static inline uint64_t xs_unravel_value(const xs_plan *p, uint64_t n, char *out,
                                        ptrdiff_t step) {
    uint64_t bad = n >= p->size;
    n &= ~((uint64_t)1 << 63);  /* keep the divisor's domain; flagged anyway */
    for (int k = 0; k < p->rank; k++) {
        uint64_t q = xs_divide(n, &p->divisor[k]);
        uint64_t r = n - q * p->divisor[k].divisor;
        bad |= r >= p->order_extent[k];
        *(int64_t *)(out + p->order[k] * step) = (int64_t)r;
        n = q;
    }
    return bad;
}

#endif
