/* What the two x86 levels share of kernels_vec.h's relayout operations:
 * the interleaves of 2 or 4 rows on 16-byte vectors and their inverses on
 * 32-byte ones (16-byte for what is left), the streamed interleave into a
 * result off a 16-byte boundary and the streamed inverse into rows off a
 * line, the store of a whole 64-byte line by non-temporal stores (or of
 * one blended from two), and the fence after them. Included by
 * kernels_vec_avx2.h and kernels_vec_avx512.h only (after <immintrin.h>,
 * inside their level's target pragma, which has AVX2); not a level of its
 * own.
 *
 * AVX-512 keeps the interleaves, their inverses and the two 32-byte
 * stores a line of AVX2: they are what the relayout kernels ran at both
 * levels when they were measured (relayout/relayout_impl.h). */
#ifndef XLASHAPE_KERNELS_VEC_X86_H
#define XLASHAPE_KERNELS_VEC_X86_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/* Interleave and its inverse, on 16-byte vectors, by units of ``unit`` bytes. */
static inline __m128i xs_x86_unpack_lo(__m128i a, __m128i b, const int unit) {
    return unit == 1 ? _mm_unpacklo_epi8(a, b)
         : unit == 2 ? _mm_unpacklo_epi16(a, b)
         : unit == 4 ? _mm_unpacklo_epi32(a, b)
                     : _mm_unpacklo_epi64(a, b);
}

static inline __m128i xs_x86_unpack_hi(__m128i a, __m128i b, const int unit) {
    return unit == 1 ? _mm_unpackhi_epi8(a, b)
         : unit == 2 ? _mm_unpackhi_epi16(a, b)
         : unit == 4 ? _mm_unpackhi_epi32(a, b)
                     : _mm_unpackhi_epi64(a, b);
}

/* The even and the odd units of a then b (unit 1, 2 or 4 bytes). A unit is
 * sign-extended into its pair and packed back with signed saturation,
 * which keeps it exact. */
static inline void xs_x86_split(__m128i a, __m128i b, const int unit, __m128i *even,
                                __m128i *odd) {
    if (unit == 1) {
        *even = _mm_packs_epi16(_mm_srai_epi16(_mm_slli_epi16(a, 8), 8),
                                _mm_srai_epi16(_mm_slli_epi16(b, 8), 8));
        *odd = _mm_packs_epi16(_mm_srai_epi16(a, 8), _mm_srai_epi16(b, 8));
    } else if (unit == 2) {
        *even = _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(a, 16), 16),
                                _mm_srai_epi32(_mm_slli_epi32(b, 16), 16));
        *odd = _mm_packs_epi32(_mm_srai_epi32(a, 16), _mm_srai_epi32(b, 16));
    } else {
        __m128 fa = _mm_castsi128_ps(a), fb = _mm_castsi128_ps(b);
        *even = _mm_castps_si128(_mm_shuffle_ps(fa, fb, _MM_SHUFFLE(2, 0, 2, 0)));
        *odd = _mm_castps_si128(_mm_shuffle_ps(fa, fb, _MM_SHUFFLE(3, 1, 3, 1)));
    }
}

#define XS_X86_LOAD(p) _mm_loadu_si128((const __m128i *)(p))

/* One 16-byte store, non-temporal where ``stream`` (dst then 16-aligned). */
static inline void xs_x86_store16(char *dst, __m128i v, const int stream) {
    if (stream) _mm_stream_si128((__m128i *)dst, v);
    else _mm_storeu_si128((__m128i *)dst, v);
}

/* 16 bytes of each of ``rows`` rows (p[0] to p[rows - 1]) interleaved:
 * the rows * 16 bytes of v[0] to v[rows - 1]. */
static inline void xs_x86_interleave16(const char *const *p, const int rows, const int size,
                                       __m128i *v) {
    __m128i r0 = XS_X86_LOAD(p[0]), r1 = XS_X86_LOAD(p[1]);
    if (rows == 2) {
        v[0] = xs_x86_unpack_lo(r0, r1, size);
        v[1] = xs_x86_unpack_hi(r0, r1, size);
        return;
    }
    __m128i r2 = XS_X86_LOAD(p[2]), r3 = XS_X86_LOAD(p[3]);
    __m128i a0 = xs_x86_unpack_lo(r0, r1, size), a1 = xs_x86_unpack_hi(r0, r1, size);
    __m128i c0 = xs_x86_unpack_lo(r2, r3, size), c1 = xs_x86_unpack_hi(r2, r3, size);
    v[0] = xs_x86_unpack_lo(a0, c0, 2 * size);
    v[1] = xs_x86_unpack_hi(a0, c0, 2 * size);
    v[2] = xs_x86_unpack_lo(a1, c1, 2 * size);
    v[3] = xs_x86_unpack_hi(a1, c1, 2 * size);
}

/* The rows ssi apart from s, 16 bytes of each on from element j. */
static inline void xs_x86_rows_at(const char *s, int64_t ssi, int64_t j, const int rows,
                                  const int size, const char **p) {
    for (int q = 0; q < rows; q++) p[q] = s + q * ssi + j * size;
}

/* 16 bytes of each row a step (kernels_vec.h). */
static inline int64_t xs_vinterleave(const char *src, int64_t ssi, char *dst, int64_t nj,
                                     const int rows, const int size, const int stream) {
    const int64_t step = 16 / size;
    int64_t j = 0;
    for (; j + step <= nj; j += step) {
        const char *p[4];
        __m128i v[4];
        xs_x86_rows_at(src, ssi, j, rows, size, p);
        xs_x86_interleave16(p, rows, size, v);
        for (int k = 0; k < rows; k++) xs_x86_store16(dst + j * rows * size + 16 * k, v[k], stream);
    }
    return j;
}

/* The last d bytes of a then the first 16 - d of b, by the masks at
 * xs_x86_join_masks + 16 - d and + 32 - d. */
static const unsigned char xs_x86_join_masks[48] = {
    0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12,  13,  14,  15,
    128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
    0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12,  13,  14,  15};

static inline __m128i xs_x86_join(__m128i a, __m128i b, __m128i ma, __m128i mb) {
    return _mm_or_si128(_mm_shuffle_epi8(a, ma), _mm_shuffle_epi8(b, mb));
}

/* The line that a streamed interleave (xs_vinterleave_joined) is writing,
 * at ``line``: its 16-byte pieces before piece ``k`` in ``carry``, at their
 * places, good from byte ``from`` on (0 but in a first line that no run
 * before it began). */
typedef struct {
    char *line;
    char *carry;
    int k;
    int from;
} xs_x86_line;

/* The next piece of l's line; a line so completed goes out, by
 * non-temporal stores where all of it is good, else its good bytes by
 * ordinary ones. */
static inline void xs_x86_line_put(xs_x86_line *l, __m128i v) {
    _mm_store_si128((__m128i *)(l->carry + 16 * l->k), v);
    if (++l->k < 4) return;
    if (l->from == 0) {
        for (int q = 0; q < 4; q++)
            _mm_stream_si128((__m128i *)(l->line + 16 * q), XS_X86_LOAD(l->carry + 16 * q));
    } else {
        memcpy(l->line + l->from, l->carry + l->from, (size_t)(64 - l->from));
    }
    l->line += 64, l->k = 0, l->from = 0;
}

/* 16 bytes of each of the rows at p[0] to p[rows - 1], ``at`` bytes on,
 * interleaved (xs_x86_interleave16). */
static inline void xs_x86_interleave16_at(const char *const *p, int64_t at, const int rows,
                                          const int size, __m128i *v) {
    const char *s[4];
    for (int q = 0; q < rows; q++) s[q] = p[q] + at;
    xs_x86_interleave16(s, rows, size, v);
}

/* Those, each piece put on l's line. */
static XS_ALWAYS_INLINE void xs_x86_line_step(xs_x86_line *l, const char *const *p, int64_t at,
                                              const int rows, const int size) {
    __m128i v[4];
    xs_x86_interleave16_at(p, at, rows, size, v);
    for (int q = 0; q < rows; q++) xs_x86_line_put(l, v[q]);
}

/* ``lines`` whole lines from the rows at p, ``at`` bytes on (4 / rows
 * steps a line), the first c pieces of each the last c of the line before
 * (of the first, those in l's carry, all good), each line's four 16-byte
 * non-temporal stores in turn: a line left in part while the next rows
 * are read and interleaved took 1.15-1.8x the time (s8 (4,1) and bf16
 * (2,1) tiles, to_linear, 64 MB, one thread, Intel Xeon model 106, avx2
 * and avx512: relayout_impl.h). */
static XS_ALWAYS_INLINE void xs_x86_whole_lines(xs_x86_line *l, const char *const *p, int64_t at,
                                                int64_t lines, const int rows, const int size,
                                                const int c) {
    __m128i r[3];
    for (int z = 0; z < c; z++) r[z] = XS_X86_LOAD(l->carry + 16 * z);
    char *line = l->line;
    for (int64_t t = 0; t < lines; t++, line += 64) {
        __m128i v[4];
        for (int h = 0; h < 4; h += rows, at += 16)
            xs_x86_interleave16_at(p, at, rows, size, v + h);
        for (int z = 0; z < c; z++) _mm_stream_si128((__m128i *)(line + 16 * z), r[z]);
        for (int q = 0; q < 4 - c; q++) _mm_stream_si128((__m128i *)(line + 16 * (c + q)), v[q]);
        for (int z = 0; z < c; z++) r[z] = v[4 - c + z];
    }
    for (int z = 0; z < c; z++) _mm_store_si128((__m128i *)(l->carry + 16 * z), r[z]);
    l->line = line;
}

/* kernels_vec.h. A run not on a 16-byte boundary (d = dst % 16 bytes
 * past one) is put on its lines in 16-byte pieces on boundaries: the
 * piece across its first boundary joined from the carry's d bytes and
 * the plain interleave's first vector, the pieces up to its last
 * 16 * rows bytes interleaves of its rows turned so that each piece
 * starts where a boundary falls (the row it falls in first, each row
 * before it one element on), read by unaligned loads, and those after,
 * which would read past the rows so, joined from the plain interleave's
 * last vectors, whose last d bytes stay in the carry. */
static XS_ALWAYS_INLINE int64_t xs_vinterleave_joined(const char *src, int64_t ssi, char *dst,
                                                      int64_t nj, const int rows, const int size,
                                                      char *carry, int *from, const int joined) {
    const int64_t step = 16 / size, steps = nj / step;
    const int o = (int)((uintptr_t)dst & 63), d = o & 15, e = (16 - d) / size;
    if (!joined) *from = o;
    if (steps == 0) return 0;
    xs_x86_line l = {dst - o, carry, (o - d) / 16, *from};
    const char *p[4];
    __m128i v[4];
    int64_t turned = steps, at = 0;
    xs_x86_rows_at(src, ssi, 0, rows, size, p);
    if (d) {
        const __m128i mb = XS_X86_LOAD(xs_x86_join_masks + 32 - d);
        xs_x86_interleave16(p, rows, size, v);
        xs_x86_line_put(&l, _mm_blendv_epi8(_mm_shuffle_epi8(v[0], mb),
                                            XS_X86_LOAD(carry + 16 * l.k), mb));
        for (int q = 0; q < rows; q++) {  /* turned: each step from element e of the run on */
            const int row = (e + q) % rows;
            p[q] = src + row * ssi + ((e + q) / rows) * size;
        }
        turned = steps - 1;
    }
    const int per = 4 / rows;  /* steps a line */
    for (; turned > 0 && l.from; turned--, at += 16) xs_x86_line_step(&l, p, at, rows, size);
    const int64_t lines = turned / per;
    switch (l.k) {
    case 0: xs_x86_whole_lines(&l, p, at, lines, rows, size, 0); break;
    case 1: xs_x86_whole_lines(&l, p, at, lines, rows, size, 1); break;
    case 2: xs_x86_whole_lines(&l, p, at, lines, rows, size, 2); break;
    default: xs_x86_whole_lines(&l, p, at, lines, rows, size, 3);
    }
    at += 16 * lines * per;
    for (turned -= lines * per; turned > 0; turned--, at += 16)
        xs_x86_line_step(&l, p, at, rows, size);
    if (d) {
        const __m128i ma = XS_X86_LOAD(xs_x86_join_masks + 16 - d);
        const __m128i mb = XS_X86_LOAD(xs_x86_join_masks + 32 - d);
        xs_x86_rows_at(src, ssi, (steps - 1) * step, rows, size, p);
        xs_x86_interleave16(p, rows, size, v);
        for (int q = 0; q + 1 < rows; q++) xs_x86_line_put(&l, xs_x86_join(v[q], v[q + 1], ma, mb));
        _mm_store_si128((__m128i *)(carry + 16 * l.k), _mm_shuffle_epi8(v[rows - 1], ma));
    }
    *from = l.from;
    return steps * step;
}

/* The bytes of each 16-byte lane grouped by row: for (rows, size) = (2,
 * 1), (2, 2), (4, 1) and (4, 2), each row's bytes of the lane in turn (8
 * of each of 2 rows, 4 of each of 4). */
static const unsigned char xs_x86_by_row[4][16] = {
    {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15},
    {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15},
    {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15},
    {0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15}};

#define XS_X86_LOAD32(p) _mm256_loadu_si256((const __m256i *)(p))

/* The 16 bytes at lo, then the 16 at hi. */
static inline __m256i xs_x86_load_lanes(const char *lo, const char *hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(XS_X86_LOAD(lo)), XS_X86_LOAD(hi), 1);
}

/* 32 bytes of each of the rows (v[0] to v[rows - 1]) split from 32 *
 * rows bytes read a 16-byte piece to a lane so that each row's bytes come
 * out in order (lane[k]: pieces k and k + rows): each lane's bytes grouped
 * by row, then the groups of the rows' vectors gathered (4 rows: a
 * transpose of dwords); 4-byte elements by shuffles of pairs. */
static XS_ALWAYS_INLINE void xs_x86_deinterleave_lanes(const __m256i *lane, const int rows,
                                                       const int size, __m256i *v) {
    if (rows == 2 && size == 4) {
        const __m256 a = _mm256_castsi256_ps(lane[0]), b = _mm256_castsi256_ps(lane[1]);
        v[0] = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        v[1] = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
        return;
    }
    const __m256i m = _mm256_broadcastsi128_si256(
        XS_X86_LOAD(xs_x86_by_row[2 * (rows == 4) + (size == 2)]));
    __m256i g[4];
    for (int k = 0; k < rows; k++) g[k] = _mm256_shuffle_epi8(lane[k], m);
    if (rows == 2) {
        v[0] = _mm256_unpacklo_epi64(g[0], g[1]);
        v[1] = _mm256_unpackhi_epi64(g[0], g[1]);
        return;
    }
    const __m256i t0 = _mm256_unpacklo_epi32(g[0], g[1]), t1 = _mm256_unpackhi_epi32(g[0], g[1]),
                  t2 = _mm256_unpacklo_epi32(g[2], g[3]), t3 = _mm256_unpackhi_epi32(g[2], g[3]);
    v[0] = _mm256_unpacklo_epi64(t0, t2);
    v[1] = _mm256_unpackhi_epi64(t0, t2);
    v[2] = _mm256_unpacklo_epi64(t1, t3);
    v[3] = _mm256_unpackhi_epi64(t1, t3);
}

/* The same from the 32 * rows bytes at s. */
static XS_ALWAYS_INLINE void xs_x86_deinterleave32(const char *s, const int rows, const int size,
                                                   __m256i *v) {
    __m256i lane[4];
    for (int k = 0; k < rows; k++) lane[k] = xs_x86_load_lanes(s + 16 * k, s + 16 * (k + rows));
    xs_x86_deinterleave_lanes(lane, rows, size, v);
}

static inline void xs_x86_store32(char *dst, __m256i v, const int stream) {
    if (stream) _mm256_stream_si256((__m256i *)dst, v);
    else _mm256_storeu_si256((__m256i *)dst, v);
}

/* 16 bytes of each of the rows (v[0] to v[rows - 1]) split from the
 * 16 * rows bytes at s, by halves (4 rows: pairs of rows first). */
static XS_ALWAYS_INLINE void xs_x86_deinterleave16(const char *s, const int rows, const int size,
                                                   __m128i *v) {
    if (rows == 2) {
        xs_x86_split(XS_X86_LOAD(s), XS_X86_LOAD(s + 16), size, &v[0], &v[1]);
        return;
    }
    __m128i ea, oa, eb, ob;
    xs_x86_split(XS_X86_LOAD(s), XS_X86_LOAD(s + 16), 2 * size, &ea, &oa);
    xs_x86_split(XS_X86_LOAD(s + 32), XS_X86_LOAD(s + 48), 2 * size, &eb, &ob);
    xs_x86_split(ea, eb, size, &v[0], &v[1]);
    xs_x86_split(oa, ob, size, &v[2], &v[3]);
}

/* 32 bytes of each result row a step while 32 remain, then 16, split from
 * 32 * rows (16 * rows) bytes of the run; streamed into rows 16 bytes past
 * a 32-byte boundary, 16 bytes a step throughout. */
static XS_ALWAYS_INLINE int64_t xs_vdeinterleave(const char *src, char *dst, int64_t dsj,
                                                 int64_t ni, const int rows, const int size,
                                                 const int stream) {
    const int64_t step = 16 / size;
    int64_t i = 0;
    if (!stream || (((uintptr_t)dst | (uintptr_t)dsj) & 31) == 0)
        for (; i + 2 * step <= ni; i += 2 * step) {
            __m256i v[4];
            xs_x86_deinterleave32(src + i * rows * size, rows, size, v);
            for (int r = 0; r < rows; r++) xs_x86_store32(dst + r * dsj + i * size, v[r], stream);
        }
    for (; i + step <= ni; i += step) {
        __m128i v[4];
        xs_x86_deinterleave16(src + i * rows * size, rows, size, v);
        for (int r = 0; r < rows; r++) xs_x86_store16(dst + r * dsj + i * size, v[r], stream);
    }
    return i;
}

/* Piece m (16 bytes at 16 * m) of the rows' source read s bytes early:
 * the run whose groups end at ``before`` for its first s bytes, then this
 * one's at src. Piece ms = s / 16, which holds the joint, is joined from
 * the last 16 bytes of the one and the first 16 of the other, so that no
 * byte outside the runs is read. */
static XS_ALWAYS_INLINE __m128i xs_x86_joint_piece(const char *src, const char *before,
                                                   const int s, const int m, const int ms) {
    if (m < ms) return XS_X86_LOAD(before - s + 16 * m);
    if (m > ms) return XS_X86_LOAD(src - s + 16 * m);
    const int d = s % 16;
    return xs_x86_join(XS_X86_LOAD(before - 16), XS_X86_LOAD(src),
                       XS_X86_LOAD(xs_x86_join_masks + 16 - d), XS_X86_LOAD(xs_x86_join_masks + 32 - d));
}

/* The halves of the line across the rows' start (h[0], h[1]) from the
 * source read s = o * rows bytes early, its piece ms across the joint (a
 * constant, so that each piece's run is known). */
static XS_ALWAYS_INLINE void xs_x86_joint_halves(const char *src, const char *before,
                                                 const int s, const int rows, const int size,
                                                 const int ms, __m256i (*h)[4]) {
    for (int q = 0; q < 2; q++) {
        __m256i lane[4];
        for (int k = 0; k < rows; k++) {
            const int m = 2 * rows * q + k;
            lane[k] = _mm256_inserti128_si256(
                _mm256_castsi128_si256(xs_x86_joint_piece(src, before, s, m, ms)),
                xs_x86_joint_piece(src, before, s, m + rows, ms), 1);
        }
        xs_x86_deinterleave_lanes(lane, rows, size, h[q]);
    }
}

/* The first ``halves`` halves h of each row's lines, row by row, at d. */
static XS_ALWAYS_INLINE void xs_x86_halves_out(char *d, int64_t dsj, const int rows,
                                               const int halves, __m256i (*h)[4]) {
    for (int r = 0; r < rows; r++)
        for (int q = 0; q < halves; q++) _mm256_stream_si256((__m256i *)(d + r * dsj + 32 * q), h[q][r]);
}

/* The lines across the rows' start at line, from the run whose groups
 * end at ``before`` and this one's at src, o bytes past the line, and
 * where ``next``, the lines after them. */
static XS_ALWAYS_INLINE void xs_x86_joint_out(const char *src, const char *before, char *line,
                                              int64_t dsj, const int o, const int rows,
                                              const int size, const int next, const int ms) {
    __m256i h[4][4];
    xs_x86_joint_halves(src, before, o * rows, rows, size, ms, h);
    if (next) {
        xs_x86_deinterleave32(src + (64 - o) * rows, rows, size, h[2]);
        xs_x86_deinterleave32(src + (96 - o) * rows, rows, size, h[3]);
    }
    xs_x86_halves_out(line, dsj, rows, 2 + 2 * next, h);
}

/* xs_x86_joint_out in a case of its own for each piece that can hold the
 * joint, so that every other piece is one load from a run known when
 * compiled. With each piece's run chosen as the code runs, and the halves
 * held across the choice, s8 (4,1) tiles took 4.1-4.5 ms against 3.7-4.0
 * (medians, from_linear, 64 MB, one thread, AMD EPYC Zen 4, both levels, 4 to 34
 * bytes past a line, before the line across each row's start was left in
 * head). */
static XS_ALWAYS_INLINE void xs_x86_joint(const char *src, const char *before, char *line,
                                          int64_t dsj, const int o, const int rows,
                                          const int size, const int next) {
    switch (o * rows / 16) {
#define XS_X86_JOINT_AT(ms)                                                              \
    case ms:                                                                             \
        if (ms < 4 * rows) xs_x86_joint_out(src, before, line, dsj, o, rows, size, next, ms); \
        break;
    XS_X86_JOINT_AT(0) XS_X86_JOINT_AT(1) XS_X86_JOINT_AT(2) XS_X86_JOINT_AT(3)
    XS_X86_JOINT_AT(4) XS_X86_JOINT_AT(5) XS_X86_JOINT_AT(6) XS_X86_JOINT_AT(7)
    XS_X86_JOINT_AT(8) XS_X86_JOINT_AT(9) XS_X86_JOINT_AT(10) XS_X86_JOINT_AT(11)
    XS_X86_JOINT_AT(12) XS_X86_JOINT_AT(13) XS_X86_JOINT_AT(14) XS_X86_JOINT_AT(15)
#undef XS_X86_JOINT_AT
    default: __builtin_unreachable();
    }
}

/* kernels_vec.h: each line of the rows split from the run where it lies
 * (the source read o bytes of a row, o * rows of the run, before the
 * line's), so that its two halves come out whole; the line across each
 * row's start from the run before as well (xs_x86_joint), or left in head.
 * Lines go two at a time, each row's two stored one after the other: in
 * an earlier form of this split (the joint's half staged), one at a time,
 * the rows' lines in turn, they took 1.1-1.2x as long (s8 (4,1) tiles,
 * from_linear, 64 MB, one thread, AMD EPYC Zen 4); this form was not
 * timed so. Against
 * each row's lines put together from its pieces split from the run and
 * those of the run before (kept in a carry), each half shifted across its
 * lanes (a lane permute, two byte shuffles and an or a store), s8 (4,1)
 * tiles took 3.56-3.70 ms against 3.65-3.87 so at avx2 and 3.59-3.72
 * against 3.65-3.77 at avx512 (4 to 34 bytes past a line, the best of 21
 * rounds in each of two runs). */
static XS_ALWAYS_INLINE void xs_x86_lines(const char *src, const char *before, char *dst,
                                          int64_t dsj, int64_t ni, const int rows,
                                          const int size, char *head) {
    const int o = (int)((uintptr_t)dst & 63);
    const int64_t end = ni * size; /* of the rows' last whole line, from line */
    char *line = dst - o;
    __m256i h[4][4]; /* the halves of two lines */
    int64_t at = 0;  /* of the next line */
    if (o && !before) {
        xs_x86_deinterleave32(src, rows, size, h[0]);
        xs_x86_deinterleave32(src + 32 * rows, rows, size, h[1]);
        for (int r = 0; r < rows; r++) {
            _mm256_storeu_si256((__m256i *)(head + 64 * r), h[0][r]);
            _mm256_storeu_si256((__m256i *)(head + 64 * r + 32), h[1][r]);
        }
        at = 64;
    } else if (o && end >= 128) {
        xs_x86_joint(src, before, line, dsj, o, rows, size, 1);
        at = 128;
    } else if (o) {
        xs_x86_joint(src, before, line, dsj, o, rows, size, 0);
        at = 64;
    }
    for (; at + 128 <= end; at += 128) {
        for (int q = 0; q < 4; q++)
            xs_x86_deinterleave32(src + (at + 32 * q - o) * rows, rows, size, h[q]);
        xs_x86_halves_out(line + at, dsj, rows, 4, h);
    }
    if (at < end) {
        for (int q = 0; q < 2; q++)
            xs_x86_deinterleave32(src + (at + 32 * q - o) * rows, rows, size, h[q]);
        xs_x86_halves_out(line + at, dsj, rows, 2, h);
    }
}

/* Two 32-byte non-temporal stores. */
static inline void xs_vstore_line_nt(void *dst, const void *src) {
    __m256i a = _mm256_loadu_si256((const __m256i *)src);
    __m256i b = _mm256_loadu_si256((const __m256i *)((const char *)src + 32));
    _mm256_stream_si256((__m256i *)dst, a);
    _mm256_stream_si256((__m256i *)((char *)dst + 32), b);
}

/* kernels_vec.h: 256 bytes a step, each step's loads made before the step
 * before it is stored, then 128, then a line. One line's loads after the
 * last line's non-temporal stores waited for them: from_linear of
 * T(8,128) tiles into an aligned out=, 64 MB, one thread, AMD EPYC Zen 4,
 * line by line (avx512 and avx2 alike), took s8[8192,8192] 15.8-16.6 ms
 * and bf16[4096,8192] 11.6-12.2, against 9.4-10.0 for both at avx512
 * into an out= off a line, where a staged line went between them; read
 * ahead, 8.3-8.8 and 9.6-10.9 aligned. 64-byte stores at avx512 gained
 * nothing over these. */
static inline void xs_vstore_lines_nt(void *dst, const void *src, int64_t n) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    if (n >= 4) {
        __m256i v[8];
        for (int q = 0; q < 8; q++) v[q] = XS_X86_LOAD32(s + 32 * q);
        for (; n >= 8; n -= 4, d += 256, s += 256) {
            __m256i u[8];
            for (int q = 0; q < 8; q++) u[q] = XS_X86_LOAD32(s + 256 + 32 * q);
            for (int q = 0; q < 8; q++) _mm256_stream_si256((__m256i *)(d + 32 * q), v[q]);
            for (int q = 0; q < 8; q++) v[q] = u[q];
        }
        for (int q = 0; q < 8; q++) _mm256_stream_si256((__m256i *)(d + 32 * q), v[q]);
        n -= 4, d += 256, s += 256;
    }
    if (n >= 2) {
        __m256i v[4];
        for (int q = 0; q < 4; q++) v[q] = XS_X86_LOAD32(s + 32 * q);
        for (int q = 0; q < 4; q++) _mm256_stream_si256((__m256i *)(d + 32 * q), v[q]);
        n -= 2, d += 128, s += 128;
    }
    if (n) xs_vstore_line_nt(d, s);
}

#include "vec/kernels_vec_staged_lines.h"

/* Each (rows, size) in a frame of its own: 2 rows staged where the level
 * has XS_VSTAGE_PAIRS (kernels_vec.h), else split into registers and
 * stored from there (xs_x86_lines). */
#define XS_X86_LINES(rows, size)                                                             \
    static XS_NOINLINE void xs_x86_lines_##rows##_##size(const char *src, const char *before, \
                                                          char *dst, int64_t dsj, int64_t ni,  \
                                                          char *head) {                        \
        if ((rows) == 2 && XS_VSTAGE_PAIRS)                                                   \
            xs_staged_lines(src, before, dst, dsj, ni, rows, size, head);                    \
        else xs_x86_lines(src, before, dst, dsj, ni, rows, size, head);                      \
    }
XS_X86_LINES(2, 1)
XS_X86_LINES(2, 2)
XS_X86_LINES(2, 4)
XS_X86_LINES(4, 1)
XS_X86_LINES(4, 2)
#undef XS_X86_LINES

static XS_ALWAYS_INLINE void xs_vdeinterleave_lines(const char *src, const char *before,
                                                    char *dst, int64_t dsj, int64_t ni,
                                                    const int rows, const int size, char *head) {
    if (rows == 2 && size == 1) xs_x86_lines_2_1(src, before, dst, dsj, ni, head);
    else if (rows == 2 && size == 2) xs_x86_lines_2_2(src, before, dst, dsj, ni, head);
    else if (rows == 2) xs_x86_lines_2_4(src, before, dst, dsj, ni, head);
    else if (size == 1) xs_x86_lines_4_1(src, before, dst, dsj, ni, head);
    else xs_x86_lines_4_2(src, before, dst, dsj, ni, head);
}

/* 64 bytes of 0xff then 64 of 0: from 64 - n on, the mask of a line's
 * first n bytes. */
static const unsigned char xs_x86_first_bytes[128] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};

static inline void xs_vstore_line_blend_nt(void *dst, const void *a, const void *b, int n) {
    const char *pa = (const char *)a, *pb = (const char *)b;
    const unsigned char *m = xs_x86_first_bytes + 64 - n;
    for (int q = 0; q < 64; q += 32)
        _mm256_stream_si256((__m256i *)((char *)dst + q),
                            _mm256_blendv_epi8(XS_X86_LOAD32(pb + q), XS_X86_LOAD32(pa + q),
                                               XS_X86_LOAD32(m + q)));
}

#undef XS_X86_LOAD32
#undef XS_X86_LOAD

static inline void xs_vfence(void) { _mm_sfence(); }

#endif
