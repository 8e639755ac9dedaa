/* The relayout kernels of one CPU level, as static inline functions over a
 * compile-time element size. Included once by each level's file, after its
 * target pragma and, at a vector level, its vector header
 * (vec/kernels_vec_<level>.h), whose operations (vec/kernels_vec.h: the
 * transposes, interleaves, line stores and fence) it calls; at the
 * baseline, with none, every move is plain C. Its entry,
 * xs_relayout_range, goes into that level's struct of kernels.h.
 *
 * Transposes move square micro-blocks, whose side the level sets
 * (XS_VTRANSPOSE_SIDE): 8x8 of 4- and 2-byte elements and 4x4 of 8-byte
 * ones at AVX2; 32x32 of 2-byte, 16x16 of 4-byte and 8x8 of 8-byte ones at
 * AVX-512, whose rows are whole cache lines; 8x8 element by element at the
 * baseline.
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
 * inverse.
 * - Streamed, an interleave's non-temporal 16-byte stores need 16-byte
 *   boundaries. They leave the lines at the run's two ends in part for
 *   the runs before and after it, which the driver's order puts next to
 *   it (driver/relayout_run.c), so that each line is still completed at
 *   once. Off a boundary (an out= 2, 4 or 8 bytes past one), the run's
 *   pieces between boundaries are interleaved from its rows read so as to
 *   start there, and the piece across two runs is joined from both
 *   (xs_vinterleave_joined; xs_lines keeps what goes on).
 *   Ordinary stores had taken 1.4-1.55x the aligned time (bf16 (2,1) and
 *   s8 (4,1) tiles, to_linear, 64 MB, one thread, avx2 and avx512 on an
 *   AMD EPYC Zen 4); joined, 1.0-1.11x. Staging the run in L1 to go out
 *   in whole lines, every byte stored twice, took 1.2-1.8x; joining every
 *   piece from two vectors (two shuffles and an or each), 1.07-1.17x.
 * - Its inverse's result rows go on in moves far apart in the source's
 *   order, so it streams only into rows that start on a line. At 16 bytes
 *   past one, non-temporal stores took 1.6-2.6x the aligned time (bf16
 *   (2,1) and s8 (4,1) tiles, from_linear, avx2 and avx512 kernels on an
 *   AMD EPYC Zen 4), ordinary ones 1.6x (bf16) and 1.05-1.1x (s8); with
 *   the source prefetched (xs_ahead), 1.35-1.55x for bf16, and 1.0-1.25x
 *   for s8 against its staged aligned time (xs_deinterleave4_lines).
 *   Tried and not kept (bf16 (2,1) from_linear, 64 MB, avx512 kernels on
 *   the same Zen 4): each row's whole lines non-temporal and the two part
 *   lines by plain stores, 7.3-8.2 ms against 6.8-8.0 all plain (s8 1.6x
 *   slower, its 128-byte rows staged a line at a time); the destination's
 *   order, each tile prefetched whole, 7.3-7.6 ms at +16 against 6.5-6.8
 *   in the source's order, and 6.9 aligned against 4.6-5.0; every line
 *   written whole by non-temporal stores, each row's part lines held in
 *   16 slots until the row goes on (a prototype, 16-byte offsets only),
 *   6.6-6.9 ms at +16, +32 and +48 against 7.1-7.2 plain: still 1.3x the
 *   aligned time, so not kept. */
#include <string.h>

#include "relayout/relayout.h"

#define XS_T_BLOCK 128
#define XS_T_STRIP 32

/* What a streamed move leaves for the next one to complete: a 64-byte
 * result line begun by a run (see xs_lines_put), whose bytes up to
 * ``next`` ``held`` holds (line NULL: none); and the last 16 bytes of an
 * interleave into a result not 16-byte aligned (xs_vinterleave_joined),
 * of which the last (joint % 16) go at ``joint`` (NULL: none). */
typedef struct {
    _Alignas(64) char held[64];
    char *line;
    char *next;
    char carry[16];
    char *joint;
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

#ifdef XS_VTRANSPOSE_SIDE  /* a vector level (the baseline streams nothing) */
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
        xs_vstore_line_nt(w->line, w->held);
        w->line = NULL;
    }
    xs_lines_flush(w);
    int64_t head = (int64_t)((64 - ((uintptr_t)dst & 63)) & 63);
    if (head > n) head = n;
    memcpy(dst, src, (size_t)head);
    dst += head, src += head, n -= head;
    for (; n >= 64; n -= 64, dst += 64, src += 64) xs_vstore_line_nt(dst, src);
    if (n > 0) {  /* the start of a line: held for the run that goes on from it */
        memcpy(w->held, src, (size_t)n);
        w->line = dst, w->next = dst + n;
    }
}

static inline void xs_joint_flush(xs_lines *w) {
    if (w->joint) {
        const size_t d = (uintptr_t)w->joint & 15;
        memcpy(w->joint - d, w->carry + 16 - d, d);
    }
    w->joint = NULL;
}

/* A streamed inverse interleave of 4 rows into rows that start on lines:
 * staged in L1, XS_DSTAGE bytes of each row at a time, so that each row's
 * lines go out whole, one after another, where the interleave's own
 * non-temporal stores write 16 bytes of 4 lines in turn. Those took
 * 1.2-2.1x as long for s8[8192,8192]{1,0:T(8,128)(4,1)} from_linear (AMD
 * EPYC Zen 4, avx2 and avx512 kernels, one thread); 2 rows gained nothing
 * so (bf16 (2,1) tiles lost up to 11%). Returns the elements done (whole
 * lines of each row); the caller does the rest. */
#define XS_DSTAGE 512

static inline int64_t xs_deinterleave4_lines(const char *src, char *dst, int64_t dsj, int64_t ni,
                                             const int size) {
    _Alignas(64) char stage[4][XS_DSTAGE];
    const int64_t per = XS_DSTAGE / size, line = 64 / size;
    int64_t i = 0;
    while (ni - i >= line) {
        const int64_t n = ni - i < per ? (ni - i) / line * line : per;
        xs_vdeinterleave(src + i * 4 * size, stage[0], XS_DSTAGE, n, 4, size, 0);
        for (int r = 0; r < 4; r++)
            for (int64_t b = 0; b < n * size; b += 64)
                xs_vstore_line_nt(dst + r * dsj + i * size + b, stage[r] + b);
        i += n;
    }
    return i;
}
#endif

/* The micro-block of ``size``-byte elements: its side (0: none); streamed
 * moves write whole result lines at the vector levels. */
static inline int xs_micro(const int size, const int stream) {
#ifdef XS_VTRANSPOSE_SIDE
    return XS_VTRANSPOSE_SIDE(size, stream);
#else
    (void)stream;
    return size >= 2 ? 8 : 0;
#endif
}

static inline void xs_micro_block(const char *src, int64_t ssi, char *dst, int64_t dsj,
                                  const int size, const int stream) {
#ifdef XS_VTRANSPOSE_SIDE
    xs_vtranspose(src, ssi, dst, dsj, size, stream);
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
                                int64_t dsj, const int size, int stream, xs_lines *w) {
    (void)w;
#ifdef XS_VTRANSPOSE_SIDE
    if (xs_row_groups(ni, dsj, size)) {
        int64_t j;
        if (stream && ((uintptr_t)dst & 15) && (uintptr_t)dst % size == 0 && nj % (16 / size) == 0) {
            const int joined = w->joint == dst;
            if (!joined) xs_joint_flush(w);
            if (ni == 2) xs_vinterleave_joined(src, ssi, dst, nj, 2, size, w->carry, joined);
            else xs_vinterleave_joined(src, ssi, dst, nj, 4, size, w->carry, joined);
            w->joint = dst + nj * ni * size;
            return;
        }
        xs_joint_flush(w);
        if (stream && ((uintptr_t)dst & 15) == 0)
            j = ni == 2 ? xs_vinterleave(src, ssi, dst, nj, 2, size, 1)
                        : xs_vinterleave(src, ssi, dst, nj, 4, size, 1);
        else
            j = ni == 2 ? xs_vinterleave(src, ssi, dst, nj, 2, size, 0)
                        : xs_vinterleave(src, ssi, dst, nj, 4, size, 0);
        xs_transpose_scalar(src + j * size, dst + j * dsj, nj - j, ni, ssi, dsj, size);
        return;
    }
    if (xs_row_groups(nj, ssi, size)) {
        int64_t i;
        if (stream && (((uintptr_t)dst | (uintptr_t)dsj) & 63) == 0) {
            i = nj == 4 ? xs_deinterleave4_lines(src, dst, dsj, ni, size) : 0;
            i += nj == 2 ? xs_vdeinterleave(src + i * ssi, dst + i * size, dsj, ni - i, 2, size, 1)
                         : xs_vdeinterleave(src + i * ssi, dst + i * size, dsj, ni - i, 4, size, 1);
        } else
            i = nj == 2 ? xs_vdeinterleave(src, dst, dsj, ni, 2, size, 0)
                        : xs_vdeinterleave(src, dst, dsj, ni, 4, size, 0);
        xs_transpose_scalar(src + i * ssi, dst + i * size, nj, ni - i, ssi, dsj, size);
        return;
    }
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

#ifdef XS_VTRANSPOSE_SIDE  /* the baseline streams nothing */
/* A streamed inverse interleave of 1- or 2-byte elements prefetches the
 * source of the move 16 moves on along the innermost outer axis (which
 * the driver leaves in the source's order); returns how many bytes on (0:
 * none), and how many bytes of it (*bytes). The hardware's prefetcher
 * alone left from_linear of bf16 (2,1) and s8 (4,1) tiles 1.1-1.5x
 * slower, aligned or not (AMD EPYC Zen 4, avx2 and avx512 kernels, one
 * thread); f32 (2,1) tiles lost 3-9% by it, aligned, so 4-byte elements
 * do not prefetch. Nor do runs: from_linear of f32 T(8,128) tiles (runs
 * whose sources are 4 KiB apart) gained 1.2x, but to_linear's runs lost
 * 1-14%. */
static inline int64_t xs_ahead(const xs_move *m, const int size, int64_t *bytes) {
    const int k = m->outer;
    *bytes = 0;
    if (!m->stream || k == 0 || m->kind != XS_MOVE_TRANSPOSE || size > 2 ||
        !xs_row_groups(m->count[k], m->src_step[k + 1], size))
        return 0;
    *bytes = m->count[k + 1] * m->src_step[k + 1];
    return 16 * m->src_step[k - 1];
}
#endif

static inline void xs_inner(const xs_move *m, const char *src, char *dst, const int64_t *count,
                            const int size, xs_lines *w) {
    (void)w;
    int k = m->outer;
    switch (m->kind) {
    case XS_MOVE_RUN:
#ifdef XS_VTRANSPOSE_SIDE
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
                     m->stream, w);
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
    w.joint = NULL;
#ifdef XS_VTRANSPOSE_SIDE
    int64_t ahead_bytes;
    const int64_t ahead = xs_ahead(m, size, &ahead_bytes);
#endif
    for (;;) {
#ifdef XS_VTRANSPOSE_SIDE
        for (int64_t b = 0; b < ahead_bytes; b += 64)  /* past the source's end: dropped */
            __builtin_prefetch((const void *)((uintptr_t)src + (uintptr_t)(ahead + b)));
#endif
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
#ifdef XS_VTRANSPOSE_SIDE
    if (m->stream) {
        xs_lines_flush(&w);
        xs_joint_flush(&w);
        xs_vfence();  /* streamed stores reach memory before the caller reads it */
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
