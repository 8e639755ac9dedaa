/* The vector operations of kernels_vec.h in plain C, for any CPU: each
 * vector a struct of XS_VL lanes, each operation a loop over them (which
 * a compiler may vectorise, though nothing asks it to). The reference
 * implementation: tests/test_vector_ops.py holds each level's operations
 * to these (through tests/vec_check/vec_check*.c), and the loops of kernels_impl.h
 * compiled over this header run their vector paths on any CPU.
 *
 * XS_PORTABLE_VL, defined before the include, sets the lanes: 4 (the
 * default) mirrors AVX2, with its rank sets, XS_VTURN_ROWS, its
 * transposes' blocks (XS_VTRANSPOSE_SIDE) and the optional operations
 * (XS_VRAVEL_COLUMN, XS_VSTORE_ROWS32); 8 mirrors AVX-512, with its rank
 * sets, XS_VTURN_ROWS, XS_VTRANSPOSE_SIDE and XS_VSTORE_ROWS32.
 * So the loops compiled over the two take every vector path that one
 * level or the other takes.
 *
 * Included after kernels_common.h, as a level header is; includes
 * kernels_store.h after the store operations, as the level headers do.
 */
#ifndef XLASHAPE_KERNELS_VEC_H
#define XLASHAPE_KERNELS_VEC_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef XS_PORTABLE_VL
#define XS_PORTABLE_VL 4
#endif

#define XS_VL XS_PORTABLE_VL
#define XS_VBYTES (8 * XS_VL)
#define XS_PORTABLE_LANES32 (2 * XS_VL)  /* XS_VLANES, before kernels_store.h defines it */

#if XS_PORTABLE_VL == 4
#define XS_VROWS(R) ((R) == 1 || (R) == 2 || (R) == 4)
#define XS_VRAVEL(R) ((R) == 2 || (R) == 4)
#define XS_VTURN_ROWS 0
#define XS_VSTAGE_PAIRS 1
#define XS_VINVERSE_AHEAD 1
#define XS_VTRANSPOSE_SIDE(size, stream) \
    ((size) == 1 ? 0 : (stream) ? 64 / (size) : (size) == 8 ? 4 : 8)
#define XS_VRAVEL_COLUMN 1
#define XS_VSTORE_ROWS32 1
#elif XS_PORTABLE_VL == 8
#define XS_VROWS(R) ((R) >= 1 && (R) <= 6)
#define XS_VRAVEL(R) ((R) == 2 || (R) == 3 || (R) == 4 || (R) == 8)
#define XS_VTURN_ROWS 1
#define XS_VSTAGE_PAIRS 0
#define XS_VINVERSE_AHEAD 0
#define XS_VSTORE_ROWS32 1
#define XS_VTRANSPOSE_SIDE(size, stream) \
    ((size) == 4 ? 16 : (size) == 8 ? 8 : (size) == 2 ? 32 : 0)
#else
#error "XS_PORTABLE_VL: 4 (as AVX2) or 8 (as AVX-512)"
#endif

typedef struct {
    uint64_t lane[XS_VL];  /* int64 values as their bits: arithmetic modulo 2**64 */
} xs_vi;
typedef struct {
    double lane[XS_VL];
} xs_vd;
typedef struct {
    unsigned char good[XS_VL];  /* 1: good, 0: not */
} xs_vok;
typedef struct {
    unsigned char on[XS_PORTABLE_LANES32];  /* 1: the 32-bit lane is in the set */
} xs_vlanes;

/* -- filling, and the lanes' flags */
static inline xs_vd xs_vd_set(double x) {
    xs_vd r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = x;
    return r;
}
static inline xs_vi xs_vi_set(uint64_t x) {
    xs_vi r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = x;
    return r;
}
static inline xs_vok xs_vok_all(void) {
    xs_vok r;
    for (int l = 0; l < XS_VL; l++) r.good[l] = 1;
    return r;
}
static inline int xs_vok_bad(xs_vok ok) {
    int bad = 0;
    for (int l = 0; l < XS_VL; l++) bad |= !ok.good[l];
    return bad;
}
static inline xs_vok xs_vok_and(xs_vok a, xs_vok b) {
    for (int l = 0; l < XS_VL; l++) a.good[l] &= b.good[l];
    return a;
}
static inline xs_vok xs_vok_below(xs_vok ok, xs_vd x, xs_vd limit) {
    for (int l = 0; l < XS_VL; l++) ok.good[l] &= x.lane[l] < limit.lane[l];
    return ok;
}
static inline xs_vok xs_vok_below_i(xs_vok ok, xs_vi x, xs_vi limit) {
    for (int l = 0; l < XS_VL; l++) ok.good[l] &= x.lane[l] < limit.lane[l];
    return ok;
}

/* -- loads */
/* The loads announced, for kernels/kernels_dtype.h (plan.h's registry). */
#define XS_VLOAD_i64 1
#define XS_VLOAD_i32 1
/* The offsets' loads announced, for kernels/kernels_dtype.h (plan.h's registry). */
#define XS_VLOAD_OFFSETS_i64 1
#define XS_VLOAD_OFFSETS_i32 1
static inline xs_vi xs_vload_i64(const int64_t *p) {
    xs_vi r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = (uint64_t)p[l];
    return r;
}
static inline xs_vi xs_vload_i32(const int32_t *p) {
    xs_vi r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = (uint64_t)(int64_t)p[l];
    return r;
}
/* The offsets v in [0, size) of v (a negative is huge, so outside). */
static inline xs_vi xs_portable_keep_offsets(xs_vi v, uint64_t size, xs_vok *ok) {
    for (int l = 0; l < XS_VL; l++) {
        const int in = v.lane[l] < size;
        ok->good[l] &= (unsigned char)in;
        if (!in) v.lane[l] = 0;
    }
    return v;
}
static inline xs_vi xs_vload_ioffsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_portable_keep_offsets(xs_vload_i64(p), size, ok);
}
static inline xs_vi xs_vload_ioffsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_portable_keep_offsets(xs_vload_i32(p), size, ok);
}

/* -- double lanes, and conversions */
static inline xs_vd xs_vi_to_vd(xs_vi x) {
    xs_vd r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = (double)(int64_t)x.lane[l];
    return r;
}
static inline xs_vi xs_vd_to_vi(xs_vd x) {
    xs_vi r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = (uint64_t)(int64_t)x.lane[l];
    return r;
}
static inline xs_vd xs_vload_offsets_i64(const int64_t *p, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vload_ioffsets_i64(p, size, ok));
}
static inline xs_vd xs_vload_offsets_i32(const int32_t *p, uint64_t size, xs_vok *ok) {
    return xs_vi_to_vd(xs_vload_ioffsets_i32(p, size, ok));
}
/* fma rounds once, as the levels' instructions do (C99; a library call
 * where the CPU has no fused multiply-add). */
static inline xs_vd xs_vfloor_fma(xs_vd n, xs_vd rw, xs_vd hrw) {
    xs_vd r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = floor(fma(n.lane[l], rw.lane[l], hrw.lane[l]));
    return r;
}
static inline xs_vd xs_vfnmadd(xs_vd q, xs_vd w, xs_vd n) {
    xs_vd r;
    for (int l = 0; l < XS_VL; l++) r.lane[l] = fma(-q.lane[l], w.lane[l], n.lane[l]);
    return r;
}

/* -- integer lanes */
static inline xs_vi xs_vand(xs_vi a, xs_vi b) {
    for (int l = 0; l < XS_VL; l++) a.lane[l] &= b.lane[l];
    return a;
}
static inline xs_vi xs_vshr(xs_vi n, xs_vi shift) {
    for (int l = 0; l < XS_VL; l++) n.lane[l] = shift.lane[l] < 64 ? n.lane[l] >> shift.lane[l] : 0;
    return n;
}
static inline xs_vi xs_vshl(xs_vi n, xs_vi shift) {
    for (int l = 0; l < XS_VL; l++) n.lane[l] = shift.lane[l] < 64 ? n.lane[l] << shift.lane[l] : 0;
    return n;
}
static inline xs_vi xs_vdigit(xs_vi acc, xs_vi n, xs_vi shift, xs_vi mask, xs_vi weight) {
    xs_vi digit = xs_vshl(xs_vand(xs_vshr(n, shift), mask), weight);
    for (int l = 0; l < XS_VL; l++) acc.lane[l] |= digit.lane[l];
    return acc;
}
static inline xs_vi xs_vmul(xs_vi a, xs_vi b, const int narrow) {
    for (int l = 0; l < XS_VL; l++)
        a.lane[l] = narrow ? (uint64_t)(uint32_t)a.lane[l] * (uint32_t)b.lane[l]
                           : a.lane[l] * b.lane[l];
    return a;
}
static inline xs_vi xs_vadd(xs_vi a, xs_vi b) {
    for (int l = 0; l < XS_VL; l++) a.lane[l] += b.lane[l];
    return a;
}

/* -- stores */
static inline void xs_vstore(int64_t *p, xs_vi v) {
    for (int l = 0; l < XS_VL; l++) p[l] = (int64_t)v.lane[l];
}

/* The store stream's operations, on the 32-bit lanes of the vectors'
 * memory images (so whatever the byte order). */
static inline xs_vlanes xs_vlanes_below(int n) {
    xs_vlanes m;
    for (int j = 0; j < XS_PORTABLE_LANES32; j++) m.on[j] = j < n;
    return m;
}
static inline xs_vlanes xs_vlanes_not(xs_vlanes m) {
    for (int j = 0; j < XS_PORTABLE_LANES32; j++) m.on[j] = !m.on[j];
    return m;
}
/* The carry as AVX-512 keeps it: the vector itself. */
static inline xs_vi xs_vkeep(xs_vi v, xs_vi turn) {
    (void)turn;
    return v;
}
/* Lane j: lane turn[j] of the 2 * XS_VLANES lanes of (carry, v), the
 * lane number taken modulo their count (a two-vector permute). */
static inline xs_vi xs_vjoin(xs_vi carry, xs_vi v, xs_vi turn, xs_vlanes low) {
    uint32_t both[2 * XS_PORTABLE_LANES32], by[XS_PORTABLE_LANES32], joined[XS_PORTABLE_LANES32];
    xs_vi r;
    (void)low;
    memcpy(both, &carry, sizeof carry);
    memcpy(both + XS_PORTABLE_LANES32, &v, sizeof v);
    memcpy(by, &turn, sizeof turn);
    for (int j = 0; j < XS_PORTABLE_LANES32; j++) joined[j] = both[by[j] % (2 * XS_PORTABLE_LANES32)];
    memcpy(&r, joined, sizeof r);
    return r;
}
static inline void xs_vstore_lanes(void *p, xs_vlanes m, xs_vi v) {
    const char *from = (const char *)&v;
    for (int j = 0; j < XS_PORTABLE_LANES32; j++)
        if (m.on[j]) memcpy((char *)p + 4 * j, from + 4 * j, 4);
}
/* No non-temporal store in plain C: a plain one. */
static inline void xs_vstore_nt(void *p, xs_vi v) { memcpy(p, &v, sizeof v); }
#include "vec/kernels_store.h"

/* -- (N, rank) rows in registers */
typedef struct {
    int rank;
    int position[XS_MAX_UNROLLED];
} xs_vrows;

static inline void xs_vrows_init(xs_vrows *t, int rank, const int *position) {
    t->rank = rank;
    for (int d = 0; d < rank; d++) t->position[d] = position[d];
}

/* Element e of the rows (row e / rank, dimension e % rank) is lane e %
 * XS_VL of output vector e / XS_VL. */
static XS_ALWAYS_INLINE void xs_vstore_rows(xs_vstream *out, const xs_vi *col, const int rank,
                                            const xs_vrows *t) {
    for (int j = 0; j < rank; j++) {
        xs_vi v;
        for (int l = 0; l < XS_VL; l++) {
            const int e = XS_VL * j + l;
            v.lane[l] = col[t->position[e % rank]].lane[e / rank];
        }
        xs_vstream_put(out, v);
    }
}

#ifdef XS_VSTORE_ROWS32
static XS_ALWAYS_INLINE void xs_vstore_rows32(xs_vstream *s, uint32_t *out, const xs_vi *col,
                                              const int rank, const int *position) {
    if (rank == 1) {  /* half a vector: stored at out, past the stream */
        for (int l = 0; l < XS_VL; l++) out[l] = (uint32_t)col[position[0]].lane[l];
        return;
    }
    for (int j = 0; j < rank / 2; j++) {
        uint32_t item[XS_PORTABLE_LANES32];
        xs_vi v;
        for (int m = 0; m < XS_PORTABLE_LANES32; m++) {
            const int e = XS_PORTABLE_LANES32 * j + m;
            item[m] = (uint32_t)col[position[e % rank]].lane[e / rank];
        }
        memcpy(&v, item, sizeof v);
        xs_vstream_put(s, v);
    }
}
#endif

/* -- ravel: (N, rank) rows in registers */
typedef struct {
    int rank;
    uint64_t extent[XS_MAX_UNROLLED], stride[XS_MAX_UNROLLED];
} xs_vravel;

static inline void xs_vravel_init(xs_vravel *t, int rank, const uint64_t *extent,
                                  const uint64_t *stride) {
    t->rank = rank;
    for (int d = 0; d < rank; d++) {
        t->extent[d] = extent[d];
        t->stride[d] = stride[d];
    }
}

/* Element e = XS_VL * j + l (lane l of v[j]) is dimension e % rank. */
static inline void xs_vravel_check(const xs_vi *v, const int rank, const xs_vravel *t,
                                   xs_vok *ok) {
    for (int j = 0; j < rank; j++)
        for (int l = 0; l < XS_VL; l++)
            ok->good[l] &= v[j].lane[l] < t->extent[(XS_VL * j + l) % rank];
}

static inline xs_vi xs_vravel_rowsum(xs_vi *v, const int rank, const xs_vravel *t) {
    xs_vi sum = xs_vi_set(0);
    (void)t;
    for (int r = 0; r < XS_VL; r++)
        for (int d = 0; d < rank; d++) {
            const int e = rank * r + d;
            sum.lane[r] += v[e / XS_VL].lane[e % XS_VL];
        }
    return sum;
}

static inline xs_vi xs_vravel_sum(xs_vi *v, const int rank, const xs_vravel *t,
                                  const int narrow, xs_vok *ok) {
    xs_vravel_check(v, rank, t, ok);
    for (int j = 0; j < rank; j++) {
        xs_vi stride;
        for (int l = 0; l < XS_VL; l++) stride.lane[l] = t->stride[(XS_VL * j + l) % rank];
        v[j] = xs_vmul(v[j], stride, narrow);
    }
    return xs_vravel_rowsum(v, rank, t);
}

#ifdef XS_VRAVEL_COLUMN
/* v in [0, extm1], both read signed, as AVX2 checks it. */
static inline xs_vi xs_vravel_column(xs_vi acc, xs_vi v, xs_vi extm1, xs_vi stride,
                                     const int narrow, xs_vok *ok) {
    for (int l = 0; l < XS_VL; l++)
        ok->good[l] &= (int64_t)v.lane[l] >= 0 && (int64_t)v.lane[l] <= (int64_t)extm1.lane[l];
    return xs_vadd(acc, xs_vmul(v, stride, narrow));
}
#endif

static XS_ALWAYS_INLINE ptrdiff_t xs_vravel_rows4_u32(const uint32_t *rows,
                                                     const uint64_t *extent,
                                                     const uint64_t *stride, uint32_t *out,
                                                     ptrdiff_t i, ptrdiff_t stop, int store,
                                                     int prefetch, uint64_t *bad) {
    (void)prefetch;  /* kernels_vec.h: this level reads without */
    uint32_t over = 0;
    xs_vstream s;
    xs_vstream_begin(&s, out + i, store);
    for (; i + XS_PORTABLE_LANES32 <= stop; i += XS_PORTABLE_LANES32) {
        uint32_t sum[XS_PORTABLE_LANES32];
        xs_vi v;
        for (int r = 0; r < XS_PORTABLE_LANES32; r++) {
            const uint32_t *row = rows + 4 * (i + r);
            uint32_t acc = 0;
            for (int d = 0; d < 4; d++) {
                over |= row[d] >= (uint32_t)extent[d];
                acc += row[d] * (uint32_t)stride[d];
            }
            sum[r] = acc;
        }
        memcpy(&v, sum, sizeof v);
        xs_vstream_put(&s, v);
    }
    xs_vstream_end(&s);
    *bad |= over;
    return i;
}

/* -- relayout: element by element, as bytes */
static inline void xs_vtranspose(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                 const int size, const int stream) {
    const int side = XS_VTRANSPOSE_SIDE(size, stream);
    for (int j = 0; j < side; j++)
        for (int i = 0; i < side; i++)
            memcpy(dst + j * dsj + i * size, src + i * ssi + j * size, (size_t)size);
}

static inline int64_t xs_vinterleave(const char *src, int64_t ssi, char *dst, int64_t nj,
                                     const int rows, const int size, const int stream) {
    const int64_t n = nj - nj % (16 / size);
    (void)stream;
    for (int64_t j = 0; j < n; j++)
        for (int i = 0; i < rows; i++)
            memcpy(dst + (j * rows + i) * size, src + i * ssi + j * size, (size_t)size);
    return n;
}

static inline int64_t xs_vdeinterleave(const char *src, char *dst, int64_t dsj, int64_t ni,
                                       const int rows, const int size, const int stream) {
    const int64_t n = ni - ni % (16 / size);
    (void)stream;
    for (int64_t i = 0; i < n; i++)
        for (int j = 0; j < rows; j++)
            memcpy(dst + j * dsj + i * size, src + (i * rows + j) * size, (size_t)size);
    return n;
}

/* No non-temporal store in plain C, and so nothing to fence. */
static inline void xs_vstore_line_nt(void *dst, const void *src) { memcpy(dst, src, 64); }
static inline void xs_vstore_lines_nt(void *dst, const void *src, int64_t n) {
    memcpy(dst, src, (size_t)(64 * n));
}
static inline int xs_vstore_line_joined_nt(void *dst, const void *a, int na, const void *b) {
    memcpy(dst, a, (size_t)na);
    memcpy((char *)dst + na, b, (size_t)(64 - na));
    return 1;
}
static inline void xs_vfence(void) {}

#include "vec/kernels_vec_joined.h"

#endif
