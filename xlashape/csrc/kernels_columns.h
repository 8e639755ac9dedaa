/* Ravel of separate columns (NumPy's multi_index form), one column at a
 * time: add one column's share of rows [start, stop) into out, for each
 * index type, and say whether some index was out of range. Included by
 * each level's kernel file (kernels_baseline.c, and kernels_avx2.c and
 * kernels_avx512.c after their target pragmas) with XS_LEVEL defined, so
 * that the compiler vectorises the same loop for each level (AVX-512's
 * 64-bit multiply and unsigned compares make it about 3x the baseline
 * loop); xs_ravel_columns (kernels_generic.c) takes the running level's
 * table, xs_add_column_<level>. */
#include "kernels_generic.h"

#define XS_COLUMN_CAT_(a, b, c) a##_##b##_##c
#define XS_COLUMN_CAT(a, b, c) XS_COLUMN_CAT_(a, b, c)
#define XS_COLUMN_FN(TN) XS_COLUMN_CAT(add_column, TN, XS_LEVEL)

#define XS_COLUMN(T, TN)                                                                \
    static uint64_t XS_COLUMN_FN(TN)(const char *column, ptrdiff_t step,               \
                                     int64_t *restrict out, ptrdiff_t start,           \
                                     ptrdiff_t stop, uint64_t extent, uint64_t stride, \
                                     int first) {                                      \
        uint64_t bad = 0;                                                               \
        if (step == (ptrdiff_t)sizeof(T)) {                                             \
            const T *restrict c = (const T *)column;                                   \
            for (ptrdiff_t i = start; i < stop; i++) {                                  \
                uint64_t v = (uint64_t)c[i];                                            \
                bad |= v >= extent;                                                     \
                out[i] = (int64_t)((first ? 0 : (uint64_t)out[i]) + v * stride);        \
            }                                                                           \
        } else {                                                                        \
            for (ptrdiff_t i = start; i < stop; i++) {                                  \
                uint64_t v = (uint64_t)*(const T *)(column + i * step);                 \
                bad |= v >= extent;                                                     \
                out[i] = (int64_t)((first ? 0 : (uint64_t)out[i]) + v * stride);        \
            }                                                                           \
        }                                                                               \
        return bad;                                                                     \
    }
XS_COLUMN(int8_t, i8)
XS_COLUMN(int16_t, i16)
XS_COLUMN(int32_t, i32)
XS_COLUMN(int64_t, i64)
XS_COLUMN(uint8_t, u8)
XS_COLUMN(uint16_t, u16)
XS_COLUMN(uint32_t, u32)
XS_COLUMN(uint64_t, u64)

const xs_add_column_fn XS_COLUMN_CAT(xs_add_column, XS_LEVEL, table)[XS_NDTYPES] = {
    XS_COLUMN_FN(i8), XS_COLUMN_FN(i16), XS_COLUMN_FN(i32), XS_COLUMN_FN(i64),
    XS_COLUMN_FN(u8), XS_COLUMN_FN(u16), XS_COLUMN_FN(u32), XS_COLUMN_FN(u64),
};

#undef XS_COLUMN
#undef XS_COLUMN_FN
#undef XS_COLUMN_CAT
#undef XS_COLUMN_CAT_
