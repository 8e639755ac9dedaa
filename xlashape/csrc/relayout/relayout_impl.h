/* The relayout kernels of one CPU level, as static inline functions over a
 * compile-time element size. Included once by each level's file, after its
 * target pragma, with XS_RELAYOUT_VEC set to 0 (plain C, any CPU), 1
 * (x86 with AVX2: in-register transposes and interleaves) or 2 (AVX-512:
 * the transposes a whole 64-byte line a row); its entry,
 * xs_relayout_range, goes into that level's struct of kernels.h.
 *
 * Transposes move micro-blocks: 8x8 of 4- and 2-byte elements and 4x4 of
 * 8-byte ones at AVX2; 32x32 of 2-byte, 16x16 of 4-byte and 8x8 of 8-byte
 * ones at AVX-512, whose rows are whole cache lines.
 * - In cache, the micro-blocks go in XS_T_BLOCK x XS_T_BLOCK blocks (at
 *   most 128 KiB a side, so both sides stay in L2), in strips whose source
 *   lines stay in L1 from one strip to the next.
 * - Streamed (at a vector level, the result's rows 64-byte aligned once a
 *   few elements of each are peeled off): whole-line micro-blocks (staged
 *   through an L1 tile at AVX2) written by non-temporal stores, in strips
 *   of XS_T_STRIP source rows each swept whole along the source's rows,
 *   which are then read in order. On an Intel Xeon, one thread, 64 MB:
 *   f32[4096,4096]{0,1} to_linear went from 0.39 of a copy to 1.03-1.08
 *   at avx2 and from 0.50-0.71 to 1.19-1.22 at avx512.
 * A transpose where one side has 2 or 4 elements of at most 8 bytes
 * together (the (2,1) and (4,1) tiles) is an interleave of rows, or its
 * inverse. */
#include <string.h>

#include "relayout/relayout.h"

#if XS_RELAYOUT_VEC
#include <immintrin.h>
#endif

#define XS_T_BLOCK 128
#define XS_T_STRIP 32

/* A 64-byte result line begun by a streamed run and not yet written (see
 * xs_lines_put): ``held`` holds its bytes up to ``next``; line NULL: none. */
typedef struct {
    _Alignas(64) char held[64];
    char *line;
    char *next;
} xs_lines;

/* -- runs, fills, gathers ----------------------------------------------- */

static inline void xs_fill(char *dst, const char *value, int64_t n, const int size) {
    if (size == 1) {
        memset(dst, (unsigned char)value[0], (size_t)n);
        return;
    }
    for (int64_t k = 0; k < n; k++) memcpy(dst + k * size, value, (size_t)size);
}

static inline void xs_gather(char *dst, const char *src, int64_t n, int64_t ss, int64_t ds,
                             const int size) {
    for (int64_t k = 0; k < n; k++) memcpy(dst + k * ds, src + k * ss, (size_t)size);
}

/* dst[j * dsj + i] = src[i * ssi + j] for i < ni, j < nj (element units
 * along the contiguous sides, bytes for the steps), element by element. */
static inline void xs_transpose_scalar(const char *src, char *dst, int64_t nj, int64_t ni,
                                       int64_t ssi, int64_t dsj, const int size) {
    for (int64_t j = 0; j < nj; j++)
        for (int64_t i = 0; i < ni; i++)
            memcpy(dst + j * dsj + i * size, src + i * ssi + j * size, (size_t)size);
}

/* -- in-register blocks ----------------------------------------------------- */

#if XS_RELAYOUT_VEC
/* 8x8 of 4-byte elements: rows i of the source to rows j of the result
 * (unpack pairs of rows, shuffle pairs of pairs, then swap 128-bit halves). */
static inline void xs_t8x8_4(const char *src, int64_t ssi, char *dst, int64_t dsj) {
    __m256 r[8], t[8], u[8];
    for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_ps((const float *)(src + k * ssi));
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    for (int h = 0; h < 2; h++) {  /* rows 0-3, then 4-7 */
        for (int k = 0; k < 2; k++) {
            u[4 * h + 2 * k] = _mm256_shuffle_ps(t[4 * h + k], t[4 * h + k + 2], _MM_SHUFFLE(1, 0, 1, 0));
            u[4 * h + 2 * k + 1] = _mm256_shuffle_ps(t[4 * h + k], t[4 * h + k + 2], _MM_SHUFFLE(3, 2, 3, 2));
        }
    }
    for (int k = 0; k < 4; k++) {
        _mm256_storeu_ps((float *)(dst + k * dsj), _mm256_permute2f128_ps(u[k], u[k + 4], 0x20));
        _mm256_storeu_ps((float *)(dst + (k + 4) * dsj), _mm256_permute2f128_ps(u[k], u[k + 4], 0x31));
    }
}

/* 4x4 of 8-byte elements. */
static inline void xs_t4x4_8(const char *src, int64_t ssi, char *dst, int64_t dsj) {
    __m256d r[4], t[4];
    for (int k = 0; k < 4; k++) r[k] = _mm256_loadu_pd((const double *)(src + k * ssi));
    for (int k = 0; k < 2; k++) {
        t[2 * k] = _mm256_unpacklo_pd(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_pd(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 2; k++) {
        _mm256_storeu_pd((double *)(dst + k * dsj), _mm256_permute2f128_pd(t[k], t[k + 2], 0x20));
        _mm256_storeu_pd((double *)(dst + (k + 2) * dsj), _mm256_permute2f128_pd(t[k], t[k + 2], 0x31));
    }
}

/* 8x8 of 2-byte elements. */
static inline void xs_t8x8_2(const char *src, int64_t ssi, char *dst, int64_t dsj) {
    __m128i r[8], a[8], b[8];
    for (int k = 0; k < 8; k++) r[k] = _mm_loadu_si128((const __m128i *)(src + k * ssi));
    for (int k = 0; k < 4; k++) {
        a[2 * k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    for (int h = 0; h < 2; h++) {  /* rows 0-3, then 4-7 */
        b[4 * h + 0] = _mm_unpacklo_epi32(a[4 * h + 0], a[4 * h + 2]);
        b[4 * h + 1] = _mm_unpackhi_epi32(a[4 * h + 0], a[4 * h + 2]);
        b[4 * h + 2] = _mm_unpacklo_epi32(a[4 * h + 1], a[4 * h + 3]);
        b[4 * h + 3] = _mm_unpackhi_epi32(a[4 * h + 1], a[4 * h + 3]);
    }
    for (int k = 0; k < 4; k++) {
        _mm_storeu_si128((__m128i *)(dst + (2 * k) * dsj), _mm_unpacklo_epi64(b[k], b[k + 4]));
        _mm_storeu_si128((__m128i *)(dst + (2 * k + 1) * dsj), _mm_unpackhi_epi64(b[k], b[k + 4]));
    }
}

/* The whole-line micro-block of 2-byte elements (32x32) asks for its rows'
 * source lines two micro-blocks along, which the hardware prefetcher,
 * following 32 rows at once, does not fetch in time. On an Intel Xeon
 * (avx512), bf16[4096,8192]{0,1} to_linear: 0.31 of the copy without, 0.40
 * one line ahead, 0.45 two lines, 0.44 four. The 16x16 and 8x8 blocks lost
 * with it (f32 0.66 -> 0.45, f64 0.80 -> 0.47-0.59), so only this one
 * prefetches. (Measured before streamed transposes ran in strips.) */
#define XS_T_PREFETCH 128

#if XS_RELAYOUT_VEC >= 2

/* One 64-byte row of a micro-block: non-temporal where ``stream`` (dst then
 * 64-byte aligned). */
static inline void xs_store64(char *dst, __m512i v, const int stream) {
    if (stream)
        _mm512_stream_si512((void *)dst, v);
    else
        _mm512_storeu_si512((void *)dst, v);
}

/* The last rounds of every whole-line transpose below: a, b, c and d hold
 * the four quarters (by source row, in order) of four output rows, those
 * of row L in their 128-bit lane L; four pairs of lane shuffles gather
 * each row, stored at dst + L * step. */
static inline void xs_lanes_out(__m512i a, __m512i b, __m512i c, __m512i d, char *dst,
                                int64_t step, const int stream) {
    __m512i x0 = _mm512_shuffle_i32x4(a, b, 0x44), x1 = _mm512_shuffle_i32x4(a, b, 0xEE);
    __m512i y0 = _mm512_shuffle_i32x4(c, d, 0x44), y1 = _mm512_shuffle_i32x4(c, d, 0xEE);
    xs_store64(dst, _mm512_shuffle_i32x4(x0, y0, 0x88), stream);
    xs_store64(dst + step, _mm512_shuffle_i32x4(x0, y0, 0xDD), stream);
    xs_store64(dst + 2 * step, _mm512_shuffle_i32x4(x1, y1, 0x88), stream);
    xs_store64(dst + 3 * step, _mm512_shuffle_i32x4(x1, y1, 0xDD), stream);
}

/* 16x16 of 4-byte elements: pairs of rows unpacked by 4 and by 8 bytes,
 * which leaves column 4L + c of rows 4k..4k+3 in 128-bit lane L of u[4k +
 * c]; then xs_lanes_out gathers each column's four lanes. 64 shuffles
 * for 16 rows. */
static inline void xs_t16x16_4(const char *src, int64_t ssi, char *dst, int64_t dsj,
                               const int stream) {
    __m512i r[16], t[16], u[16];
    for (int k = 0; k < 16; k++) r[k] = _mm512_loadu_si512((const void *)(src + k * ssi));
    for (int k = 0; k < 8; k++) {
        t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 4; k++) {
        u[4 * k] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
        u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
        u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
        u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
    }
    for (int c = 0; c < 4; c++)
        xs_lanes_out(u[c], u[4 + c], u[8 + c], u[12 + c], dst + c * dsj, 4 * dsj, stream);
}

/* 32x32 of 2-byte elements: rows unpacked by 2, 4 and 8 bytes, which
 * leaves column 8L + c of rows 8m..8m+7 in 128-bit lane L of w[8m + c];
 * then xs_lanes_out. 160 shuffles for 32 rows. */
static inline void xs_t32x32_2(const char *src, int64_t ssi, char *dst, int64_t dsj,
                               const int stream) {
    __m512i r[32], t[32], v[32], w[32];
    for (int k = 0; k < 32; k++) r[k] = _mm512_loadu_si512((const void *)(src + k * ssi));
    for (int k = 0; k < 32; k++) _mm_prefetch(src + k * ssi + XS_T_PREFETCH, _MM_HINT_T0);
    for (int k = 0; k < 16; k++) {
        t[2 * k] = _mm512_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    for (int k = 0; k < 8; k++)
        for (int a = 0; a < 2; a++) {
            v[4 * k + 2 * a] = _mm512_unpacklo_epi32(t[4 * k + a], t[4 * k + 2 + a]);
            v[4 * k + 2 * a + 1] = _mm512_unpackhi_epi32(t[4 * k + a], t[4 * k + 2 + a]);
        }
    for (int m = 0; m < 4; m++)
        for (int b = 0; b < 4; b++) {
            w[8 * m + 2 * b] = _mm512_unpacklo_epi64(v[8 * m + b], v[8 * m + 4 + b]);
            w[8 * m + 2 * b + 1] = _mm512_unpackhi_epi64(v[8 * m + b], v[8 * m + 4 + b]);
        }
    for (int c = 0; c < 8; c++)
        xs_lanes_out(w[c], w[8 + c], w[16 + c], w[24 + c], dst + c * dsj, 8 * dsj, stream);
}

/* 8x8 of 8-byte elements: pairs of rows unpacked, then xs_lanes_out. 24
 * shuffles for 8 rows. */
static inline void xs_t8x8_8(const char *src, int64_t ssi, char *dst, int64_t dsj,
                             const int stream) {
    __m512i r[8], t[8];
    for (int k = 0; k < 8; k++) r[k] = _mm512_loadu_si512((const void *)(src + k * ssi));
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
    }
    for (int c = 0; c < 2; c++)
        xs_lanes_out(t[c], t[2 + c], t[4 + c], t[6 + c], dst + c * dsj, 2 * dsj, stream);
}
#endif

/* Interleave and its inverse, on 16-byte vectors, by units of ``unit`` bytes. */
static inline __m128i xs_unpack_lo(__m128i a, __m128i b, const int unit) {
    return unit == 1 ? _mm_unpacklo_epi8(a, b)
         : unit == 2 ? _mm_unpacklo_epi16(a, b)
         : unit == 4 ? _mm_unpacklo_epi32(a, b)
                     : _mm_unpacklo_epi64(a, b);
}

static inline __m128i xs_unpack_hi(__m128i a, __m128i b, const int unit) {
    return unit == 1 ? _mm_unpackhi_epi8(a, b)
         : unit == 2 ? _mm_unpackhi_epi16(a, b)
         : unit == 4 ? _mm_unpackhi_epi32(a, b)
                     : _mm_unpackhi_epi64(a, b);
}

/* The even and the odd units of a then b (unit 1, 2 or 4 bytes). A unit is
 * sign-extended into its pair and packed back with signed saturation,
 * which keeps it exact. */
static inline void xs_split(__m128i a, __m128i b, const int unit, __m128i *even, __m128i *odd) {
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

/* Streamed runs, written a whole 64-byte line at a time by non-temporal
 * stores. A line is never written both ways, and never in part by them: a
 * non-temporal store to a line an ordinary store has just brought into the
 * cache, or one that leaves part of a line for later, costs a round trip
 * to memory (f32[4096,4096]{1,0:T(8,128)} to_linear into an out= at 4 or
 * 16 mod 64 took 48-56 ms against 6 aligned on an AMD EPYC Zen 4, when the
 * runs began at the first 32-byte boundary and ended by memcpy). Nor by
 * ordinary stores, where it can be helped: those read each line first
 * (1.3-1.4x the aligned time with the runs' ends by memcpy). So the end of
 * a run that stops inside a line is held, and completed by the next run
 * where that one goes on from it (the next row of a tile, in the result's
 * order that runs have); a line not completed so, and the start of a run
 * inside a line, are written by memcpy. */
static inline void xs_lines_flush(xs_lines *w) {
    if (w->line) memcpy(w->line, w->held, (size_t)(w->next - w->line));
    w->line = NULL;
}

static inline void xs_lines_put(xs_lines *w, char *dst, const char *src, int64_t n) {
    if (w->line && dst == w->next) {  /* goes on from the held end */
        int64_t m = w->line + 64 - dst;
        if (m > n) m = n;
        memcpy(w->held + (dst - w->line), src, (size_t)m);
        dst += m, src += m, n -= m;
        w->next = dst;
        if (dst < w->line + 64) return;
        __m256i a = _mm256_load_si256((const __m256i *)w->held);
        __m256i b = _mm256_load_si256((const __m256i *)(w->held + 32));
        _mm256_stream_si256((__m256i *)w->line, a);
        _mm256_stream_si256((__m256i *)(w->line + 32), b);
        w->line = NULL;
    }
    xs_lines_flush(w);
    int64_t head = (int64_t)((64 - ((uintptr_t)dst & 63)) & 63);
    if (head > n) head = n;
    memcpy(dst, src, (size_t)head);
    dst += head, src += head, n -= head;
    for (; n >= 64; n -= 64, dst += 64, src += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)src);
        __m256i b = _mm256_loadu_si256((const __m256i *)(src + 32));
        _mm256_stream_si256((__m256i *)dst, a);
        _mm256_stream_si256((__m256i *)(dst + 32), b);
    }
    if (n > 0) {  /* the start of a line: held for the run that goes on from it */
        memcpy(w->held, src, (size_t)n);
        w->line = dst, w->next = dst + n;
    }
}

#define XS_LOAD(p) _mm_loadu_si128((const __m128i *)(p))

/* One 16-byte store, non-temporal where ``stream`` (dst then 16-aligned). */
static inline void xs_store16(char *dst, __m128i v, const int stream) {
    if (stream) _mm_stream_si128((__m128i *)dst, v);
    else _mm_storeu_si128((__m128i *)dst, v);
}

/* ``rows`` (2 or 4) source rows, ssi apart, interleaved into one
 * contiguous run: dst[j * rows + i] = row_i[j], 16 bytes of each row a step. */
static inline int64_t xs_interleave(const char *src, int64_t ssi, char *dst, int64_t nj,
                                    const int rows, const int size, const int stream) {
    const int64_t step = 16 / size;
    int64_t j = 0;
    for (; j + step <= nj; j += step) {
        const char *s = src + j * size;
        char *d = dst + j * rows * size;
        __m128i r0 = XS_LOAD(s), r1 = XS_LOAD(s + ssi);
        if (rows == 2) {
            xs_store16(d, xs_unpack_lo(r0, r1, size), stream);
            xs_store16(d + 16, xs_unpack_hi(r0, r1, size), stream);
        } else {
            __m128i r2 = XS_LOAD(s + 2 * ssi), r3 = XS_LOAD(s + 3 * ssi);
            __m128i a0 = xs_unpack_lo(r0, r1, size), a1 = xs_unpack_hi(r0, r1, size);
            __m128i c0 = xs_unpack_lo(r2, r3, size), c1 = xs_unpack_hi(r2, r3, size);
            xs_store16(d, xs_unpack_lo(a0, c0, 2 * size), stream);
            xs_store16(d + 16, xs_unpack_hi(a0, c0, 2 * size), stream);
            xs_store16(d + 32, xs_unpack_lo(a1, c1, 2 * size), stream);
            xs_store16(d + 48, xs_unpack_hi(a1, c1, 2 * size), stream);
        }
    }
    return j;
}

/* The inverse: a contiguous run of groups of ``rows`` elements split into
 * ``rows`` result rows, dsj apart: row_j[i] = src[i * rows + j]. */
static inline int64_t xs_deinterleave(const char *src, char *dst, int64_t dsj, int64_t ni,
                                      const int rows, const int size, const int stream) {
    const int64_t step = 16 / size;
    int64_t i = 0;
    for (; i + step <= ni; i += step) {
        const char *s = src + i * rows * size;
        char *d = dst + i * size;
        __m128i e, o;
        if (rows == 2) {
            xs_split(XS_LOAD(s), XS_LOAD(s + 16), size, &e, &o);
            xs_store16(d, e, stream);
            xs_store16(d + dsj, o, stream);
        } else {
            __m128i ea, oa, eb, ob, r0, r1;
            xs_split(XS_LOAD(s), XS_LOAD(s + 16), 2 * size, &ea, &oa);
            xs_split(XS_LOAD(s + 32), XS_LOAD(s + 48), 2 * size, &eb, &ob);
            xs_split(ea, eb, size, &r0, &r1);
            xs_store16(d, r0, stream);
            xs_store16(d + dsj, r1, stream);
            xs_split(oa, ob, size, &r0, &r1);
            xs_store16(d + 2 * dsj, r0, stream);
            xs_store16(d + 3 * dsj, r1, stream);
        }
    }
    return i;
}

#undef XS_LOAD
#endif

#if XS_RELAYOUT_VEC == 1
/* The AVX2 micro-blocks: 8x8 of 4- and 2-byte elements, 4x4 of 8-byte ones. */
static inline void xs_small_block(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                  const int size) {
    if (size == 4) xs_t8x8_4(src, ssi, dst, dsj);
    else if (size == 8) xs_t4x4_8(src, ssi, dst, dsj);
    else xs_t8x8_2(src, ssi, dst, dsj);
}

/* The whole-line micro-block at AVX2, for streamed moves (64 / size
 * elements a side): its small blocks transposed into a tile on the stack,
 * whose 64-byte rows then go out as two non-temporal stores each (dst
 * 64-byte aligned), so each result line is written whole at once. In
 * cache, the small blocks alone are faster (bf16[1024,1024]{0,1} on an
 * Intel Xeon: 0.47 of a copy against 0.33 staged). */
static inline void xs_lines_staged(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                   const int size) {
    const int m = 64 / size, s = size == 8 ? 4 : 8;
    _Alignas(64) char tile[32 * 64];
    if (size == 2)
        for (int k = 0; k < m; k++) _mm_prefetch(src + k * ssi + XS_T_PREFETCH, _MM_HINT_T0);
    for (int j = 0; j < m; j += s)
        for (int i = 0; i < m; i += s)
            xs_small_block(src + i * ssi + j * size, ssi, tile + j * 64 + i * size, 64, size);
    for (int r = 0; r < m; r++) {
        _mm256_stream_si256((__m256i *)(dst + r * dsj), _mm256_load_si256((const __m256i *)(tile + r * 64)));
        _mm256_stream_si256((__m256i *)(dst + r * dsj + 32),
                            _mm256_load_si256((const __m256i *)(tile + r * 64 + 32)));
    }
}
#endif

/* The micro-block of ``size``-byte elements: its side (0: none); streamed
 * moves write whole result lines at the vector levels. */
static inline int xs_micro(const int size, const int stream) {
#if XS_RELAYOUT_VEC >= 2
    (void)stream;
    return size == 4 ? 16 : size == 8 ? 8 : size == 2 ? 32 : 0;
#elif XS_RELAYOUT_VEC
    return size == 1 ? 0 : stream ? 64 / size : size == 8 ? 4 : 8;
#else
    (void)stream;
    return size >= 2 ? 8 : 0;
#endif
}

static inline void xs_micro_block(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                  const int size, const int stream) {
#if XS_RELAYOUT_VEC >= 2
    if (size == 4) xs_t16x16_4(src, ssi, dst, dsj, stream);
    else if (size == 8) xs_t8x8_8(src, ssi, dst, dsj, stream);
    else xs_t32x32_2(src, ssi, dst, dsj, stream);
#elif XS_RELAYOUT_VEC
    if (stream) xs_lines_staged(src, ssi, dst, dsj, size);
    else xs_small_block(src, ssi, dst, dsj, size);
#else
    (void)stream;
    xs_transpose_scalar(src, dst, 8, 8, ssi, dsj, size);
#endif
}

/* One L2 block: strips of micro-blocks along i, a strip per micro-row of j;
 * ``stream``: the micro-blocks' whole-line rows may be non-temporal (the
 * level checks their alignment). */
static inline void xs_transpose_block(const char *src, char *dst, int64_t nj, int64_t ni,
                                      int64_t ssi, int64_t dsj, const int size,
                                      const int stream) {
    const int m = xs_micro(size, stream);
    if (m == 0) {
        xs_transpose_scalar(src, dst, nj, ni, ssi, dsj, size);
        return;
    }
    int64_t j = 0;
    for (; j + m <= nj; j += m) {
        int64_t i = 0;
        for (; i + m <= ni; i += m)
            xs_micro_block(src + i * ssi + j * size, ssi, dst + j * dsj + i * size, dsj, size,
                           stream);
        xs_transpose_scalar(src + i * ssi + j * size, dst + j * dsj + i * size, m, ni - i, ssi,
                            dsj, size);
    }
    xs_transpose_scalar(src + j * size, dst + j * dsj, nj - j, ni, ssi, dsj, size);
}

static inline void xs_transpose(const char *src, char *dst, int64_t nj, int64_t ni, int64_t ssi,
                                int64_t dsj, const int size, int stream) {
#if XS_RELAYOUT_VEC
    if (size <= 4 && (ni == 2 || ni == 4) && ni * size <= 8 && dsj == ni * size) {
        int64_t j;
        if (stream && ((uintptr_t)dst & 15) == 0)
            j = ni == 2 ? xs_interleave(src, ssi, dst, nj, 2, size, 1)
                        : xs_interleave(src, ssi, dst, nj, 4, size, 1);
        else
            j = ni == 2 ? xs_interleave(src, ssi, dst, nj, 2, size, 0)
                        : xs_interleave(src, ssi, dst, nj, 4, size, 0);
        xs_transpose_scalar(src + j * size, dst + j * dsj, nj - j, ni, ssi, dsj, size);
        return;
    }
    if (size <= 4 && (nj == 2 || nj == 4) && nj * size <= 8 && ssi == nj * size) {
        int64_t i;
        if (stream && (((uintptr_t)dst | (uintptr_t)dsj) & 15) == 0)
            i = nj == 2 ? xs_deinterleave(src, dst, dsj, ni, 2, size, 1)
                        : xs_deinterleave(src, dst, dsj, ni, 4, size, 1);
        else
            i = nj == 2 ? xs_deinterleave(src, dst, dsj, ni, 2, size, 0)
                        : xs_deinterleave(src, dst, dsj, ni, 4, size, 0);
        xs_transpose_scalar(src + i * ssi, dst + i * size, nj, ni - i, ssi, dsj, size);
        return;
    }
#endif
#if XS_RELAYOUT_VEC
    /* Streamed, where the result's rows are 64-byte aligned once the first
     * few elements of each are peeled off: strips of XS_T_STRIP source rows,
     * each swept along j, so that every source row is read in order, while
     * the micro-blocks write whole result lines, non-temporal. */
    const int64_t peel = (int64_t)((64 - ((uintptr_t)dst & 63)) & 63) / size;
    if (stream && size >= 2 && dsj % 64 == 0 && ((uintptr_t)dst + peel * size) % 64 == 0 &&
        ni >= peel) {
        xs_transpose_scalar(src, dst, nj, peel, ssi, dsj, size);
        for (int64_t i = peel; i < ni; i += XS_T_STRIP) {
            int64_t bi = ni - i < XS_T_STRIP ? ni - i : XS_T_STRIP;
            xs_transpose_block(src + i * ssi, dst + i * size, nj, bi, ssi, dsj, size, 1);
        }
        return;
    }
#endif
    for (int64_t j = 0; j < nj; j += XS_T_BLOCK) {
        int64_t bj = nj - j < XS_T_BLOCK ? nj - j : XS_T_BLOCK;
        for (int64_t i = 0; i < ni; i += XS_T_BLOCK) {
            int64_t bi = ni - i < XS_T_BLOCK ? ni - i : XS_T_BLOCK;
            xs_transpose_block(src + i * ssi + j * size, dst + j * dsj + i * size, bj, bi, ssi,
                               dsj, size, 0);
        }
    }
}

/* -- a move ------------------------------------------------------------------ */

static inline void xs_inner(const xs_move *m, const char *src, char *dst, const int64_t *count,
                            const int size, xs_lines *w) {
    (void)w;
    int k = m->outer;
    switch (m->kind) {
    case XS_MOVE_RUN:
#if XS_RELAYOUT_VEC
        if (m->stream) {
            xs_lines_put(w, dst, src, count[k] * size);
            break;
        }
#endif
        memcpy(dst, src, (size_t)(count[k] * size));
        break;
    case XS_MOVE_FILL:
        xs_fill(dst, src, count[k], size);
        break;
    case XS_MOVE_TRANSPOSE:
        xs_transpose(src, dst, count[k], count[k + 1], m->src_step[k + 1], m->dst_step[k], size,
                     m->stream);
        break;
    default:
        xs_gather(dst, src, count[k], m->src_step[k], m->dst_step[k], size);
    }
}

static inline void xs_range_sized(const xs_move *m, ptrdiff_t start, ptrdiff_t stop,
                                  const int size) {
    int64_t count[XS_MOVE_MAX_AXES], index[XS_MOVE_MAX_AXES];
    memcpy(count, m->count, sizeof count);
    memset(index, 0, sizeof index);
    count[m->split] = stop - start;
    const char *src = m->src + start * m->src_step[m->split];
    char *dst = m->dst + start * m->dst_step[m->split];
    xs_lines w;
    w.line = NULL;
    for (;;) {
        xs_inner(m, src, dst, count, size, &w);
        int k = m->outer - 1;
        for (; k >= 0; k--) {
            src += m->src_step[k];
            dst += m->dst_step[k];
            if (++index[k] < count[k]) break;
            src -= m->src_step[k] * count[k];
            dst -= m->dst_step[k] * count[k];
            index[k] = 0;
        }
        if (k < 0) break;
    }
#if XS_RELAYOUT_VEC
    if (m->stream) {
        xs_lines_flush(&w);
        _mm_sfence();  /* streamed stores reach memory before the caller reads it */
    }
#endif
}

static void xs_relayout_range(const xs_move *m, ptrdiff_t start, ptrdiff_t stop) {
    switch (m->size) {
    case 1: xs_range_sized(m, start, stop, 1); break;
    case 2: xs_range_sized(m, start, stop, 2); break;
    case 4: xs_range_sized(m, start, stop, 4); break;
    default: xs_range_sized(m, start, stop, 8);
    }
}
