/* What the two x86 levels share of kernels_vec.h's relayout operations:
 * the interleaves of 2 or 4 rows on 16-byte vectors and their inverses on
 * 32-byte ones (16-byte for what is left), the streamed interleave into a
 * result off a 16-byte boundary, the store of a whole 64-byte line by
 * non-temporal stores, and the fence after them. Included by
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

/* kernels_vec.h, by 16-byte non-temporal stores on 16-byte boundaries but
 * for the run's first 16 - d bytes where not joined. The run's 16-byte
 * pieces between its first and last boundaries are interleaves of its
 * rows turned so that each piece starts where a boundary falls (the row
 * it falls in first, each row before it one element on), read by
 * unaligned loads; the piece across its first boundary and those of its
 * last 16 * rows bytes, which would read past the rows so, are joined
 * from the plain interleave's vectors. */
static inline int64_t xs_vinterleave_joined(const char *src, int64_t ssi, char *dst, int64_t nj,
                                            const int rows, const int size, char *carry,
                                            const int joined) {
    const int64_t step = 16 / size, steps = nj / step;
    if (steps == 0) return 0;
    const int d = (int)((uintptr_t)dst & 15), e = (16 - d) / size;
    const __m128i ma = XS_X86_LOAD(xs_x86_join_masks + 16 - d);
    const __m128i mb = XS_X86_LOAD(xs_x86_join_masks + 32 - d);
    const char *p[4];
    __m128i v[4];
    xs_x86_rows_at(src, ssi, 0, rows, size, p);
    xs_x86_interleave16(p, rows, size, v);
    if (joined) {
        _mm_stream_si128((__m128i *)(dst - d), xs_x86_join(XS_X86_LOAD(carry), v[0], ma, mb));
    } else {
        _Alignas(16) char head[16];
        _mm_store_si128((__m128i *)head, v[0]);
        memcpy(dst, head, (size_t)(16 - d));
    }
    char *a = dst + 16 - d;
    for (int q = 0; q < rows; q++) {  /* turned: each step from element e of the run on */
        const int row = (e + q) % rows;
        p[q] = src + row * ssi + ((e + q) / rows) * size;
    }
    for (int64_t t = 1; t < steps; t++, a += 16 * rows) {
        xs_x86_interleave16(p, rows, size, v);
        for (int q = 0; q < rows; q++) {
            _mm_stream_si128((__m128i *)(a + 16 * q), v[q]);
            p[q] += 16;
        }
    }
    xs_x86_rows_at(src, ssi, (steps - 1) * step, rows, size, p);
    xs_x86_interleave16(p, rows, size, v);
    for (int q = 0; q + 1 < rows; q++)
        _mm_stream_si128((__m128i *)(a + 16 * q), xs_x86_join(v[q], v[q + 1], ma, mb));
    _mm_storeu_si128((__m128i *)carry, v[rows - 1]);
    return steps * step;
}

/* xs_x86_split on 32-byte vectors: the even and the odd units of a then b,
 * in order (the in-lane packs put each lane's 8 bytes in turn). */
static inline void xs_x86_split32(__m256i a, __m256i b, const int unit, __m256i *even,
                                  __m256i *odd) {
    __m256i e, o;
    if (unit == 1) {
        e = _mm256_packs_epi16(_mm256_srai_epi16(_mm256_slli_epi16(a, 8), 8),
                               _mm256_srai_epi16(_mm256_slli_epi16(b, 8), 8));
        o = _mm256_packs_epi16(_mm256_srai_epi16(a, 8), _mm256_srai_epi16(b, 8));
    } else if (unit == 2) {
        e = _mm256_packs_epi32(_mm256_srai_epi32(_mm256_slli_epi32(a, 16), 16),
                               _mm256_srai_epi32(_mm256_slli_epi32(b, 16), 16));
        o = _mm256_packs_epi32(_mm256_srai_epi32(a, 16), _mm256_srai_epi32(b, 16));
    } else {
        __m256 fa = _mm256_castsi256_ps(a), fb = _mm256_castsi256_ps(b);
        e = _mm256_castps_si256(_mm256_shuffle_ps(fa, fb, _MM_SHUFFLE(2, 0, 2, 0)));
        o = _mm256_castps_si256(_mm256_shuffle_ps(fa, fb, _MM_SHUFFLE(3, 1, 3, 1)));
    }
    *even = _mm256_permute4x64_epi64(e, _MM_SHUFFLE(3, 1, 2, 0));
    *odd = _mm256_permute4x64_epi64(o, _MM_SHUFFLE(3, 1, 2, 0));
}

static inline void xs_x86_store32(char *dst, __m256i v, const int stream) {
    if (stream) _mm256_stream_si256((__m256i *)dst, v);
    else _mm256_storeu_si256((__m256i *)dst, v);
}

#define XS_X86_LOAD32(p) _mm256_loadu_si256((const __m256i *)(p))

/* One step of xs_vdeinterleave: W bytes of each result row (vector type
 * VEC, its load, split and store), split from W * rows bytes at s. */
#define XS_X86_DEINTERLEAVE_STEP(VEC, LOAD, SPLIT, STORE, W)                   \
    do {                                                                      \
        VEC e, o;                                                             \
        if (rows == 2) {                                                      \
            SPLIT(LOAD(s), LOAD(s + W), size, &e, &o);                        \
            STORE(d, e, stream);                                              \
            STORE(d + dsj, o, stream);                                        \
        } else {                                                              \
            VEC ea, oa, eb, ob;                                               \
            SPLIT(LOAD(s), LOAD(s + W), 2 * size, &ea, &oa);                  \
            SPLIT(LOAD(s + 2 * W), LOAD(s + 3 * W), 2 * size, &eb, &ob);      \
            SPLIT(ea, eb, size, &e, &o);                                      \
            STORE(d, e, stream);                                              \
            STORE(d + dsj, o, stream);                                        \
            SPLIT(oa, ob, size, &e, &o);                                      \
            STORE(d + 2 * dsj, e, stream);                                    \
            STORE(d + 3 * dsj, o, stream);                                    \
        }                                                                     \
    } while (0)

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
            const char *s = src + i * rows * size;
            char *d = dst + i * size;
            XS_X86_DEINTERLEAVE_STEP(__m256i, XS_X86_LOAD32, xs_x86_split32, xs_x86_store32, 32);
        }
    for (; i + step <= ni; i += step) {
        const char *s = src + i * rows * size;
        char *d = dst + i * size;
        XS_X86_DEINTERLEAVE_STEP(__m128i, XS_X86_LOAD, xs_x86_split, xs_x86_store16, 16);
    }
    return i;
}

#undef XS_X86_DEINTERLEAVE_STEP
#undef XS_X86_LOAD32
#undef XS_X86_LOAD

/* Two 32-byte non-temporal stores. */
static inline void xs_vstore_line_nt(void *dst, const void *src) {
    __m256i a = _mm256_loadu_si256((const __m256i *)src);
    __m256i b = _mm256_loadu_si256((const __m256i *)((const char *)src + 32));
    _mm256_stream_si256((__m256i *)dst, a);
    _mm256_stream_si256((__m256i *)((char *)dst + 32), b);
}

static inline void xs_vfence(void) { _mm_sfence(); }

#endif
