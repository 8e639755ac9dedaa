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
 *   of a micro-block's source rows each swept whole along the source's
 *   rows, which are then read in order. On an Intel Xeon, one thread, 64
 *   MB: f32[4096,4096]{0,1} to_linear went from 0.39 of a copy to
 *   1.03-1.08 at avx2 and from 0.50-0.71 to 1.19-1.22 at avx512, in
 *   strips of 32 rows. Strips of one micro-block (16 rows of 4 bytes, 8 of
 *   8 bytes) keep fewer source lines in flight, which a power-of-two row
 *   step puts in few cache sets: on an AMD EPYC Zen 3 (avx2, 512 KiB 8-way
 *   L2), f32[4096,4096]{0,1} went from 0.53-0.59 of a copy to 0.73-0.94
 *   and f64[2048,4096]{0,1} from 0.49-0.83 to 0.82-0.99 (both ways).
 *   Where the source rows go on along the outer axes, the strips sweep
 *   those too (xs_sweep).
 * A transpose where one side has 2 or 4 elements of at most 8 bytes
 * together (the (2,1) and (4,1) tiles) is an interleave of rows, or its
 * inverse.
 * - Streamed, an interleave goes out a whole line at a time, each line's
 *   four 16-byte non-temporal stores in turn, the line a run ends in kept
 *   for the run after it, which the driver's order puts next to it
 *   (driver/relayout_run.c; xs_vinterleave_joined, xs_lines keeps what
 *   goes on). Off a 16-byte boundary (an out= 2, 4 or 8 bytes past one),
 *   the run's pieces between boundaries are interleaved from its rows read
 *   so as to start there, and the piece across two runs is joined from
 *   both. Ordinary stores had taken 1.4-1.55x the aligned time (bf16 (2,1)
 *   and s8 (4,1) tiles, to_linear, 64 MB, one thread, avx2 and avx512 on
 *   an AMD EPYC Zen 4); 16-byte pieces stored as each step made them,
 *   1.0-1.11x there, but on an Intel Xeon (model 106, avx512, four
 *   processes of each form taking turns) s8 tiles took 1.4-1.5x the
 *   aligned time 2 bytes past a line and 1.65-1.76x 16 bytes past (each
 *   run's last line left in part till the next run), and bf16 tiles
 *   7.7-9.7 ms aligned and 10.3-14.1 16 bytes past; by whole lines, s8
 *   6.2-9.1 ms aligned, 1.06-1.28x that 2 bytes past and 0.97-1.04x 16
 *   bytes past, bf16 6.7-7.4 ms aligned, 0.95-1.11x off a line. Staging
 *   the run in L1 to go out in whole lines, every byte stored twice, took
 *   1.2-1.8x on the Zen 4; joining every piece from two vectors (two
 *   shuffles and an or each), 1.07-1.17x.
 * - Its inverse (xs_deinterleave) keeps the source's order, in which a
 *   tile's rows go on a tile's moves later. Into rows that start on
 *   lines it streams them directly, 32 bytes of each row a step (4 rows,
 *   and 2 at a level with XS_VSTAGE_PAIRS, staged a line at a time,
 *   xs_deinterleave_rows_lines). Into rows that do not, where each row of
 *   a move is whole lines long and the rows are whole lines apart (the
 *   tilings of the bench), each row's lines are split straight from the
 *   move's bytes (2 rows at a level with XS_VSTAGE_PAIRS staged first,
 *   kernels_vec_staged_lines.h), read as far early as the rows
 *   are past their lines, the line across a row's start from the bytes
 *   of the row's move before as well (xs_vdeinterleave_lines), whose end
 *   a slot of xs_held keeps for the move that goes on with them; where
 *   none goes before, the slot keeps the row's first 64 bytes, and the
 *   line that one row ends in and the next begins in goes out whole once
 *   both are known (xs_held_lines_out). from_linear, 64 MB, one thread,
 *   AMD EPYC Zen 4, 2 to 48 bytes past a line, against the rows staged,
 *   lines put together from pieces of the move and the move before:
 *   bf16 (2,1) tiles 4.4-4.5 -> 3.2-3.8 ms at avx512 (4.6-4.8 -> 3.2-3.4
 *   at avx2), 1.06-1.24x the aligned time; s8 (4,1) tiles 5.9-6.0
 *   (6.4-6.7) -> 3.8-4.1, 1.2-1.3x an aligned time that fell too (3.9-4.3
 *   -> 3.1-3.2 ms) with x86's byte-shuffle split (xs_x86_deinterleave32);
 *   split straight, and the shared lines whole, s8 (4,1) tiles 3.56-3.70
 *   ms at avx2 and 3.59-3.72 at avx512 (4 to 34 bytes past a line, the
 *   best of 21 rounds). Other rows
 *   are staged (xs_deinterleave_held) and their lines go out whole when
 *   the move that goes on with them comes, which completes the lines they
 *   share. from_linear, 64 MB, one thread, AMD
 *   EPYC Zen 4, avx512 (avx2) kernels, against 16-byte steps, the source
 *   prefetched 16 moves on and ordinary stores into rows off lines: bf16
 *   (2,1) tiles 4.6 (5.1) -> 3.0 (2.9) ms aligned and 6.5-6.8 (6.3-6.6) ->
 *   4.6-4.7 (4.8-4.9) at 2, 16 and 32 bytes past a line; s8 (4,1) tiles
 *   6.1 (6.2) -> 4.2 (4.4) and 6.2-7.3 (6.9-8.3) -> 5.7-5.8 (6.4-7.8).
 *   Both fell, the aligned time more: off a line is still 1.4-1.7x it.
 *   The prefetch, which 16-byte steps had needed (1.1-1.5x), cost 32-byte
 *   ones 14-26% aligned and 3-11% off a line there; an Intel Xeon with 2
 *   MiB of L2 needs it still (xs_inverse_ahead). Staged rows need their
 *   vector stores never across a line (in a C probe, 2 bytes past one they
 *   took 1.5-1.8x the time of 16 bytes past), no staged row across a page
 *   (1.3x, where the stack put one so) and their lines out a move after
 *   their stores, not just after (1.1-1.3x: the loads wait on the
 *   stores). Tried and not kept: those lines put out one a step while the
 *   next part is staged into a second stage (1.25x); before staging,
 *   non-temporal stores into rows off lines (1.6-2.6x the aligned time),
 *   the destination's order (1.5x aligned), and each row's part lines held
 *   while its whole ones went out from the vectors (1.3x). */
#include <string.h>

#include "relayout/relayout.h"

#define XS_T_BLOCK 128

/* Where an inverse interleave stages its rows (xs_deinterleave_held), or,
 * ``lined``, keeps where the source of each move's rows ends (``from``)
 * and, while the line across their start is still to go out (bit r of
 * ``heads``), row r's first 64 bytes (xs_vdeinterleave_lines's head,
 * xs_held_head): up to XS_HELD slots,
 * one a move's ``rows`` (2 or 4) rows, ``step`` bytes apart in the result
 * (the same for every move of a box), taken in turn.
 * A slot stages its rows' bytes from ``start`` to ``ends`` (of row 0; at
 * most XS_HELD_ROW), row r from xs_held_row(h, k, r) on, which starts a
 * line, so that the vector stores that stage them never cross one. Where
 * bit r of ``whole`` is set, row r's bytes before start in its line are
 * just before that (a row whose first part ends inside the line it starts
 * in, written by memcpy, holds none). Staged rows are XS_HELD_GAP bytes
 * apart in a stage aligned so (8 to a page), so that none crosses a page.
 * Staged bytes go out when the slot's rows go on, or the slot is taken or
 * flushed, not before. */
#define XS_HELD 8
#define XS_HELD_ROW 256
#define XS_HELD_GAP 512

typedef struct {
    char (*stage)[4 * XS_HELD_GAP]; /* XS_HELD of them, XS_HELD_GAP-aligned */
    int64_t step;
    int rows;
    char *start[XS_HELD];
    char *ends[XS_HELD];            /* where the slot's row 0 goes on (NULL: free) */
    unsigned whole[XS_HELD];
    unsigned heads[XS_HELD];        /* lined: the rows whose first 64 bytes are held */
    const char *from[XS_HELD];      /* lined: where the groups of the slot's move end */
    unsigned char after[XS_HELD];   /* the slot used after each, the time before */
    int last;                       /* the slot last used */
    int turn;                       /* the slot taken next */
    int lined;                      /* slots hold carries, not staged rows */
} xs_held;

/* A 64-byte result line begun by a run (see xs_lines_put), from ``line``
 * up to ``next`` (line NULL: none), its bytes at ``from`` in the run's
 * source (NULL: staged elsewhere). */
typedef struct {
    char *line;
    char *next;
    const char *from;
} xs_line_end;

/* What streamed moves leave for later ones to complete: the line end held
 * (``end``, its bytes in ``held`` where not in the source); up to XS_ENDS
 * more set aside, their bytes still in their runs' source (``aside``, line
 * NULL: a free slot); the line that a streamed interleave ended in
 * (xs_vinterleave_joined), its bytes still to go out in ``carry`` from
 * ``carried`` on, up to where the run ended, at ``joint`` (NULL: none);
 * and the rows of inverse interleaves staged (NULL: none, at the baseline
 * always). */
typedef struct {
    _Alignas(64) char held[64];
    xs_line_end end;
    xs_line_end aside[XS_ENDS];
    int ends;          /* ends may be set aside (the move's runs in the source's order) */
    int asides;        /* the slots of aside in use */
    int turn;          /* the slot of aside taken next where none is free */
    int found;         /* the slot after the one last taken back */
    _Alignas(64) char carry[64];
    int carried;       /* the first byte of carry still to go out */
    char *joint;
    xs_held *rows;
} xs_lines;

static inline void xs_lines_init(xs_lines *w, const xs_move *m) {
    w->ends = m->ends;
    w->end.line = NULL;
    memset(w->aside, 0, sizeof w->aside);
    w->asides = w->turn = w->found = 0;
    memset(w->carry, 0, sizeof w->carry);  /* read, but not kept, before a run fills it */
    w->carried = 0;
    w->joint = NULL;
    w->rows = NULL;
}

/* -- runs, fills, gathers ----------------------------------------------- */

/* The bytes from p to the next 64-byte line (0 on one). */
static inline int64_t xs_to_line(const void *p) {
    return (int64_t)((64 - ((uintptr_t)p & 63)) & 63);
}

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
 * a run that stops inside a line is held, and completed by the run that
 * goes on from it where that one comes while it is held: the next run in
 * the result's order or, where the driver puts the runs in the source's
 * order, the same row of the next tile, a tile's rows on, the ends between
 * set aside (up to XS_ENDS of them); a line not completed so, and the
 * start of a run inside a line, are written by memcpy. The held end stays
 * where it is in the source until the run that goes on from it completes
 * its line, which is then joined from the two runs' sources
 * (xs_vstore_line_joined_nt, or where the level declines
 * xs_lines_blended) or else staged in ``held`` and loaded back.
 * from_linear, 64 MB, one thread, AMD EPYC Zen 4, against the held end
 * staged as its run ended: f32[4096,4096]{1,0:T(8,128)} 24 to 60 bytes
 * past a line took 10.0-11.1 ms so (8.2-8.9 aligned), joined 0.86-0.99x
 * the aligned time (avx512) and staged when completed 8.6-9.5 ms (avx2);
 * s8 T(8,128) tiles 1 and 16 bytes past a line 8.8-15.3 -> 9.1-9.4 ms
 * at avx2. bf16 T(8,128) tiles at avx2 read 17.2-19.3 -> 16.0-16.6 ms at 2 and 16 bytes
 * past a line but 10.7-12.0 -> 16.3-16.6 at 34 and 48 (at avx512, joined,
 * 8.6-17.8 -> 8.9-9.4 at 2 to 50), against 10-12 aligned. A run's whole
 * lines go by xs_vstore_lines_nt, which reads ahead of its stores. */

/* Line end e's bytes out by memcpy (``held``: where they are staged),
 * and e freed. */
static inline void xs_line_end_out(xs_line_end *e, const char *held) {
    if (e->line) memcpy(e->line, e->from ? e->from : held, (size_t)(e->next - e->line));
    e->line = NULL;
}

static inline void xs_lines_flush(xs_lines *w) { xs_line_end_out(&w->end, w->held); }

/* The held end set aside, where the move's runs go in the source's order
 * and its bytes are in its run's source (else out, by memcpy: in the
 * result's order no run after this one goes on from it), in a free slot or
 * else slot ``turn``, whose end goes out first. */
static inline void xs_lines_set_aside(xs_lines *w) {
    if (!w->end.line || !w->end.from || !w->ends) {
        xs_lines_flush(w);
        return;
    }
    int k = 0;
    while (k < XS_ENDS && w->aside[k].line) k++;
    if (k == XS_ENDS) {
        xs_line_end_out(&w->aside[k = w->turn], NULL);
        w->turn = k + 1 == XS_ENDS ? 0 : k + 1;
    } else {
        w->asides++;
    }
    w->aside[k] = w->end;
    w->end.line = NULL;
}

/* Where a run at dst goes on from an end set aside, that end held in the
 * held end's place, which takes its slot. In the source's order the runs
 * of a tile's rows take back the ends of the tile before in turn, each
 * from the slot after the last one's, which is tried first. */
static inline void xs_lines_take_aside(xs_lines *w, const char *dst) {
    for (int j = 0, k = w->found; j < XS_ENDS; j++, k = k + 1 == XS_ENDS ? 0 : k + 1) {
        xs_line_end *e = &w->aside[k];
        if (e->next != dst || !e->line) continue;
        w->found = k + 1 == XS_ENDS ? 0 : k + 1;
        const xs_line_end taken = *e;
        if (w->end.line && w->end.from) {
            *e = w->end;
        } else {
            xs_lines_flush(w);
            e->line = NULL;
            w->asides--;
        }
        w->end = taken;
        return;
    }
}

/* All held ends out. */
static inline void xs_lines_flush_all(xs_lines *w) {
    xs_lines_flush(w);
    for (int k = 0; k < XS_ENDS; k++) xs_line_end_out(&w->aside[k], NULL);
    w->asides = 0;
}

/* The line joined from the held end (begun bytes at from) and the first
 * 64 - begun bytes at src (of a run of n bytes) by
 * xs_vstore_line_blend_nt, where begun is below 32 or the run at least
 * 512 bytes, and its reads, from the held end on to src's first 64 -
 * begun bytes, stay between the two (the held end before src): 1; else 0,
 * with nothing written. For the levels whose xs_vstore_line_joined_nt
 * declines (avx2): staged instead, f32[4096,4096]{1,0:T(8,128)}
 * from_linear 4 and 16 bytes past a line took 8.3-8.9 ms against 7.2-7.5
 * so (64 MB, one thread, AMD EPYC Zen 4), and on an AMD EPYC Zen 3 32
 * and 48 bytes past a line 1.07-1.60x the aligned time against 1.03-1.17
 * so, plain and padded (f64 tiles, 1 KiB runs, alike either way). Shorter
 * runs with begun from 32 lose by it: s8[8192,8192]{1,0:T(8,128)}
 * (128-byte runs) 34 and 48 bytes past took 9.7-10.1 ms against 8.0-8.3
 * staged on the Zen 4 (and 14.7-22.6 against 13.1-13.5 on the Zen 3, in
 * a noisy hour), and bf16[4096,8192]{1,0:T(8,128)} (256-byte runs) read
 * alike on the Zen 3. At avx512, which joins by
 * masked loads, the blend read alike 4 and 16 bytes past a line and
 * 0.3-0.9 ms slower 32 and 48 (f32, Zen 4). */
static inline int xs_lines_blended(char *line, const char *from, int begun, const char *src,
                                   int64_t n) {
    if ((begun >= 32 && n < 512) || (uintptr_t)(from + begun) > (uintptr_t)src) return 0;
    xs_vstore_line_blend_nt(line, from, src - begun, begun);
    return 1;
}

static inline void xs_lines_put(xs_lines *w, char *dst, const char *src, int64_t n) {
    xs_line_end *e = &w->end;
    if (!(e->line && dst == e->next) && w->asides) xs_lines_take_aside(w, dst);
    if (e->line && dst == e->next) {  /* goes on from the held end */
        const int begun = (int)(dst - e->line);  /* the line's bytes held */
        int64_t m = 64 - begun;
        if (m > n) m = n;
        if (m < 64 - begun || !e->from ||
            (!xs_vstore_line_joined_nt(e->line, e->from, begun, src) &&
             !xs_lines_blended(e->line, e->from, begun, src, n))) {
            if (e->from) memcpy(w->held, e->from, (size_t)begun);
            e->from = NULL;
            memcpy(w->held + begun, src, (size_t)m);
            if (begun + m < 64) {
                e->next = dst + m;
                return;
            }
            xs_vstore_line_nt(e->line, w->held);
        }
        dst += m, src += m, n -= m;
        e->line = NULL;
    }
    xs_lines_set_aside(w);
    int64_t head = xs_to_line(dst);
    if (head > n) head = n;
    memcpy(dst, src, (size_t)head);
    dst += head, src += head, n -= head;
    xs_vstore_lines_nt(dst, src, n / 64);
    dst += n - n % 64, src += n - n % 64, n %= 64;
    if (n > 0) {  /* the start of a line: held for the run that goes on from it */
        *e = (xs_line_end){dst, dst + n, src};
    }
}

/* -- an inverse interleave's rows held (xs_deinterleave_held) -- */

static inline char *xs_line_of(const char *p) { return (char *)((uintptr_t)p & ~(uintptr_t)63); }

static inline char *xs_held_row(xs_held *h, int k, int r) {
    return h->stage[k] + 64 + r * XS_HELD_GAP;
}

/* Where lined slot k holds row r's first 64 bytes (a line's room before
 * them, which xs_vstore_line_blend_nt may read). */
static inline char *xs_held_head(xs_held *h, int k, int r) {
    return h->stage[k] + 64 + 64 * r;
}

/* The held first 64 bytes of a row that starts at ``at``, taken from
 * their slot (NULL: none): row r + 1 of slot k, or row 0 of another. */
static inline const char *xs_held_head_at(xs_held *h, int k, int r, const char *at) {
    if ((h->heads[k] >> (r + 1) & 1) && h->start[k] + (r + 1) * h->step == at) {
        h->heads[k] &= ~(1u << (r + 1));
        return xs_held_head(h, k, r + 1);
    }
    for (int j = 0; j < XS_HELD; j++)
        if ((h->heads[j] & 1) && h->start[j] == at) {
            h->heads[j] &= ~1u;
            return xs_held_head(h, j, 0);
        }
    return NULL;
}

/* Lined slot k out and freed: each row's bytes in the line it ends inside
 * (split again from the source), put together with the held first bytes
 * of the row that begins there where they are held (a tile's next row, or
 * the next move's first) and stored whole past the caches, else by
 * memcpy; then the held first bytes of its rows still held, by memcpy.
 * Both parts of each such line by memcpy (the next row's part as the row
 * began, into a line not in cache) took 3.93-4.05 ms against 3.63-3.84
 * so at avx2, 3.76-3.87 against 3.62-3.79 at avx512 (s8 (4,1) tiles,
 * from_linear, 64 MB, one thread, AMD EPYC Zen 4, 4 to 34 bytes past a
 * line, the best of 21 rounds in each of two runs, each line then put
 * together from carried pieces). */
static inline void xs_held_lines_out(xs_held *h, int k, const int rows, const int size) {
    _Alignas(64) char last[5][64]; /* the rows' last 64 bytes, and room for the blend's reads */
    if (rows == 2) xs_vdeinterleave(h->from[k] - 128, last[0], 64, 64 / size, 2, size, 0);
    else xs_vdeinterleave(h->from[k] - 256, last[0], 64, 64 / size, 4, size, 0);
    for (int r = 0; r < rows; r++) {
        char *end = h->ends[k] + r * h->step, *line = xs_line_of(end);
        const int n = (int)(end - line);
        const char *head = xs_held_head_at(h, k, r, end);
        if (head) xs_vstore_line_blend_nt(line, last[r] + 64 - n, head - n, n);
        else memcpy(line, last[r] + 64 - n, (size_t)n);
    }
    for (int r = 0; r < rows; r++)
        if (h->heads[k] >> r & 1) {
            char *start = h->start[k] + r * h->step;
            memcpy(start, xs_held_head(h, k, r), (size_t)(64 - (start - xs_line_of(start))));
        }
    h->heads[k] = 0;
    h->ends[k] = NULL;
}

/* Slot k's staged rows out (``rows``: h->rows, a constant where the
 * caller knows it): whole lines non-temporal, a row's start inside a line
 * where not whole by memcpy; the line it ends inside held for what goes on
 * from its end where ``goes_on``, else by memcpy, and the slot freed. */
static XS_ALWAYS_INLINE void xs_held_out(xs_held *h, int k, const int rows, const int size,
                                         const int goes_on) {
    if (!h->ends[k]) return;
    if (h->lined) {
        xs_held_lines_out(h, k, rows, size);
        return;
    }
    unsigned whole = 0; /* the rows whose line at ends is held after */
    for (int r = 0; r < rows; r++) {
        char *d = h->start[k] + r * h->step, *end = h->ends[k] + r * h->step;
        char *line = xs_line_of(d), *row = xs_held_row(h, k, r);
        const char *p = row - (d - line); /* where line is staged */
        if (line != d && !(h->whole[k] >> r & 1)) {
            const int64_t head = line + 64 - d < end - d ? line + 64 - d : end - d;
            memcpy(d, row, (size_t)head);
            line += 64, p += 64;
        }
        for (; line + 64 <= end; line += 64, p += 64) xs_vstore_line_nt(line, p);
        if (line >= end) {  /* past end: all of it in the line it began inside */
            whole |= (unsigned)(line == end) << r;
            continue;
        }
        if (goes_on) {  /* the line's bytes to just before row, by an aligned store */
            char last[64];
            memcpy(last, p + (end - line) - 64, 64);
            memcpy(row - 64, last, 64);
            whole |= 1u << r;
        } else {
            memcpy(line, p, (size_t)(end - line));
        }
    }
    h->start[k] = h->ends[k];
    h->whole[k] = whole;
    if (!goes_on) h->ends[k] = NULL;
}

static inline void xs_held_init(xs_held *h, char (*stage)[4 * XS_HELD_GAP], int64_t step,
                                int rows, int lined) {
    h->stage = stage;
    h->lined = lined;
    h->step = step;
    h->rows = rows;
    memset(h->ends, 0, sizeof h->ends);
    memset(h->heads, 0, sizeof h->heads);
    memset(h->after, 0, sizeof h->after);
    h->last = h->turn = 0;
}

/* All slots out, the one taken longest ago first (so that a move's rows
 * find the held lines of the moves that go on from them). */
static inline void xs_held_flush(xs_held *h, const int size) {
    for (int j = 0; j < XS_HELD; j++) xs_held_out(h, (h->turn + j) % XS_HELD, h->rows, size, 0);
}

/* The slot of the rows that go on at dst (-1: none). Moves go on in a
 * pattern that repeats (a tile's rows in turn), so the slot that followed
 * the last one used the time before is tried first. */
static inline int xs_held_at(xs_held *h, const char *dst) {
    int k = h->after[h->last];
    if (h->ends[k] != dst) {
        for (k = 0; k < XS_HELD && h->ends[k] != dst; k++) {
        }
        if (k == XS_HELD) return -1;
        h->after[h->last] = (unsigned char)k;
    }
    h->last = k;
    return k;
}

/* A slot for a move's rows that go on from none: the next in turn, whose
 * staged rows go out first. */
static inline int xs_held_take(xs_held *h, const int size) {
    const int k = h->turn;
    h->turn = k + 1 == XS_HELD ? 0 : k + 1;
    xs_held_out(h, k, h->rows, size, 0);
    h->after[h->last] = (unsigned char)k;
    h->last = k;
    h->whole[k] = 0;
    return k;
}

static inline void xs_joint_flush(xs_lines *w) {
    const int end = (int)((uintptr_t)w->joint & 63);
    if (w->joint && end > w->carried)
        memcpy(xs_line_of(w->joint) + w->carried, w->carry + w->carried,
               (size_t)(end - w->carried));
    w->joint = NULL;
}

/* A streamed inverse interleave of ``rows`` rows into rows that start on
 * lines: staged in L1, XS_DSTAGE bytes of each row at a time, so that each
 * row's lines go out whole, one after another, where the interleave's own
 * non-temporal stores write 16 bytes of ``rows`` lines in turn. Those took
 * 1.2-2.1x as long for s8[8192,8192]{1,0:T(8,128)(4,1)} from_linear (AMD
 * EPYC Zen 4, avx2 and avx512 kernels, one thread); 2 rows gained nothing
 * so there (bf16 (2,1) tiles lost up to 11%), and are staged only at a
 * level with XS_VSTAGE_PAIRS: on an AMD EPYC Zen 3 (avx2), bf16[4096,8192]
 * {1,0:T(8,128)(2,1)} took 6.8-7.5 ms so against 9.9-10.3 (a C probe of
 * the library's moves, 64 MB, one thread, four runs taking turns).
 * Returns the elements done (whole lines of each row); the caller does
 * the rest. */
#define XS_DSTAGE 512

static XS_ALWAYS_INLINE int64_t xs_deinterleave_rows_lines(const char *src, char *dst,
                                                           int64_t dsj, int64_t ni,
                                                           const int rows, const int size) {
    _Alignas(64) char stage[4][XS_DSTAGE];
    const int64_t per = XS_DSTAGE / size, line = 64 / size;
    int64_t i = 0;
    while (ni - i >= line) {
        const int64_t n = ni - i < per ? (ni - i) / line * line : per;
        xs_vdeinterleave(src + i * rows * size, stage[0], XS_DSTAGE, n, rows, size, 0);
        for (int r = 0; r < rows; r++)
            for (int64_t b = 0; b < n * size; b += 64)
                xs_vstore_line_nt(dst + r * dsj + i * size + b, stage[r] + b);
        i += n;
    }
    return i;
}

/* A lined move (xs_held's ``lined``) into slot k, the rows going on from
 * the move whose groups end at ``before`` (NULL: from none, the slot
 * taken and its rows' first 64 bytes held). */
static XS_ALWAYS_INLINE void xs_held_lined_move(const char *src, char *dst, int64_t ni,
                                                const int rows, const int size, xs_held *h,
                                                const int k, const char *before) {
    xs_vdeinterleave_lines(src, before, dst, h->step, ni, rows, size, xs_held_head(h, k, 0));
    if (!before) {
        h->start[k] = dst;
        h->heads[k] = (1u << rows) - 1;
    }
    h->ends[k] = dst + ni * size;
    h->from[k] = src + ni * rows * size;
}

/* The same, the slot of the rows that go on at dst looked up. */
static XS_ALWAYS_INLINE void xs_deinterleave_held_lined(const char *src, char *dst, int64_t ni,
                                                        const int rows, const int size,
                                                        xs_held *h) {
    int k = xs_held_at(h, dst);
    const char *before = k >= 0 ? h->from[k] : NULL;
    if (k < 0) k = xs_held_take(h, size);
    xs_held_lined_move(src, dst, ni, rows, size, h, k, before);
}

/* A lined move of nj rows into ``slot``, the move before along the same
 * rows ending its groups at ``before`` (xs_range_moves), or (slot -1)
 * into the slot looked up. */
static XS_ALWAYS_INLINE void xs_lined_move(const char *src, char *dst, int64_t ni, int64_t nj,
                                           const int size, xs_held *h, const int slot,
                                           const char *before) {
    if (slot < 0) {
        if (nj == 2) xs_deinterleave_held_lined(src, dst, ni, 2, size, h);
        else xs_deinterleave_held_lined(src, dst, ni, 4, size, h);
        return;
    }
    if (!before) xs_held_out(h, slot, (int)nj, size, 0);
    if (nj == 2) xs_held_lined_move(src, dst, ni, 2, size, h, slot, before);
    else xs_held_lined_move(src, dst, ni, 4, size, h, slot, before);
}

/* A streamed inverse interleave into rows not all starting on lines:
 * staged in a slot of xs_held, XS_HELD_ROW bytes of each row at a time,
 * so that the rows' lines go out whole, from the stage, once the next
 * part is staged: where the slot's rows go on at dst, the part staged
 * before completes its last lines with this one's (the next tile's, in
 * the source's order). */
static XS_ALWAYS_INLINE void xs_deinterleave_held(const char *src, char *dst, int64_t ni,
                                                  const int rows, const int size, xs_held *h) {
    if (h->lined) {
        xs_deinterleave_held_lined(src, dst, ni, rows, size, h);
        return;
    }
    int k = xs_held_at(h, dst);
    if (k >= 0) xs_held_out(h, k, rows, size, 1);
    else k = xs_held_take(h, size);
    char *p0 = xs_held_row(h, k, 0);
    for (int64_t i = 0; i < ni;) {
        const int64_t n = ni - i < XS_HELD_ROW / size ? ni - i : XS_HELD_ROW / size;
        if (i > 0) xs_held_out(h, k, rows, size, 1);
        const char *s = src + i * rows * size;
        const int64_t done = xs_vdeinterleave(s, p0, XS_HELD_GAP, n, rows, size, 0);
        xs_transpose_scalar(s + done * rows * size, p0 + done * size, rows, n - done, rows * size,
                            XS_HELD_GAP, size);
        h->start[k] = dst + i * size;
        h->ends[k] = dst + (i + n) * size;
        i += n;
    }
}

/* A streamed inverse interleave into rows that start on lines: directly,
 * 4 rows (and 2 at a level with XS_VSTAGE_PAIRS) staged a line at a
 * time. */
static XS_ALWAYS_INLINE void xs_deinterleave_lined(const char *src, char *dst, int64_t nj,
                                                   int64_t ni, int64_t ssi, int64_t dsj,
                                                   const int size) {
    int64_t i = nj == 4   ? xs_deinterleave_rows_lines(src, dst, dsj, ni, 4, size)
                : XS_VSTAGE_PAIRS ? xs_deinterleave_rows_lines(src, dst, dsj, ni, 2, size)
                                 : 0;
    i += nj == 2 ? xs_vdeinterleave(src + i * ssi, dst + i * size, dsj, ni - i, 2, size, 1)
                 : xs_vdeinterleave(src + i * ssi, dst + i * size, dsj, ni - i, 4, size, 1);
    xs_transpose_scalar(src + i * ssi, dst + i * size, nj, ni - i, ssi, dsj, size);
}

/* The inverse of an interleave of nj = 2 or 4 rows (xs_row_groups(nj,
 * ssi, size)): streamed into rows on lines (xs_deinterleave_lined), into
 * other rows staged in h; else in cache. */
static XS_ALWAYS_INLINE void xs_deinterleave(const char *src, char *dst, int64_t nj, int64_t ni,
                                             int64_t ssi, int64_t dsj, const int size,
                                             const int stream, xs_held *h) {
    if (stream && (((uintptr_t)dst | (uintptr_t)dsj) & 63)) {
        if (nj == 2) xs_deinterleave_held(src, dst, ni, 2, size, h);  /* h->step is dsj */
        else xs_deinterleave_held(src, dst, ni, 4, size, h);
        return;
    }
    if (stream) {
        xs_deinterleave_lined(src, dst, nj, ni, ssi, dsj, size);
        return;
    }
    const int64_t i = nj == 2 ? xs_vdeinterleave(src, dst, dsj, ni, 2, size, 0)
                              : xs_vdeinterleave(src, dst, dsj, ni, 4, size, 0);
    xs_transpose_scalar(src + i * ssi, dst + i * size, nj, ni - i, ssi, dsj, size);
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

/* Inlined into each range, whose moves call it once each: the interleave's
 * whole-line frames made it too large for the compiler to inline, and a
 * call a move (a 512-byte run of the bench's interleaves) cost bf16 (2,1)
 * tiles 2 to 8 bytes past a line 1.2x the aligned time, against 1.0-1.1x
 * inlined (Intel Xeon model 106, avx512, two processes each). */
static XS_ALWAYS_INLINE void xs_transpose(const char *src, char *dst, int64_t nj, int64_t ni,
                                          int64_t ssi, int64_t dsj, const int size, int stream,
                                          xs_lines *w) {
    (void)w;
#ifdef XS_VTRANSPOSE_SIDE
    if (xs_row_groups(ni, dsj, size)) {
        int64_t j;
        if (stream && (uintptr_t)dst % size == 0 && nj % (16 / size) == 0) {
            const int joined = w->joint == dst;
            if (!joined) xs_joint_flush(w);
            if (ni == 2)
                xs_vinterleave_joined(src, ssi, dst, nj, 2, size, w->carry, &w->carried, joined);
            else
                xs_vinterleave_joined(src, ssi, dst, nj, 4, size, w->carry, &w->carried, joined);
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
    /* Streamed, where the result's rows are 64-byte aligned once the first
     * few elements of each are peeled off: strips of a micro-block's rows,
     * each swept along j, so that every source row is read in order, while
     * the micro-blocks write whole result lines, non-temporal. */
    const int64_t peel = xs_to_line(dst) / size;
    if (stream && size >= 2 && dsj % 64 == 0 && ((uintptr_t)dst + peel * size) % 64 == 0 &&
        ni >= peel) {
        xs_transpose_scalar(src, dst, nj, peel, ssi, dsj, size);
        const int64_t strip = xs_micro(size, 1);
        for (int64_t i = peel; i < ni; i += strip) {
            int64_t bi = ni - i < strip ? ni - i : strip;
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


/* One move of its kind (m->kind), where xs_range_moves makes it neither an
 * inverse interleave's nor a sweep's. */
static XS_ALWAYS_INLINE void xs_inner(const xs_move *m, const char *src, char *dst,
                                      const int64_t *count, const int size, xs_lines *w) {
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

#ifdef XS_VTRANSPOSE_SIDE
/* How many bytes on (0: none) a streamed inverse interleave of 1- or
 * 2-byte elements asks for the source of the move 16 moves on along the
 * innermost outer axis (which the driver leaves in the source's order),
 * and how many bytes of it (*bytes): in the L2 prefetch mode, which
 * xlashape.cpu picks for cores with 2 MiB of L2 or more, and in the L1
 * mode at a level with XS_VINVERSE_AHEAD (kernels_vec.h: avx2).
 * from_linear, 64 MB, one thread, at 0, 2 and 16 bytes past a line,
 * against none: on an Intel Xeon (model 207, 2 MiB of L2),
 * avx512, s8 (4,1) tiles 12.2 -> 6.6-7.1 ms aligned and 14.0-14.4 ->
 * 7.5-8.0 off a line, bf16 (2,1) 9.4-11.1 -> 8.0-8.3 and 10.8-11.8 ->
 * 7.3-9.5 (avx2: s8 9.6-9.9 -> 7.2-9.4, bf16 9.3-10.6 -> 8.4-9.0);
 * prefetcht1 read alike or lost (s8 at avx512 6.9-9.7 aligned), and
 * 16-byte steps lost or read alike with either (a busy 16-core machine:
 * one run apart, the same code read s8 at avx512 9.8 and 12.2 ms
 * without). On an AMD EPYC Zen 4 (1 MiB of L2, the L1 mode, avx512 and
 * AVX-512 its best level) it cost 14-26% aligned and 3-11% off a line,
 * before each xs_rows had its frame. 4-byte elements lost 3-9% by it
 * there, aligned, and do not prefetch. On an AMD EPYC Zen 3 (AVX2 its
 * best level, 512 KiB of L2, the L1 mode), once each xs_rows had its
 * frame, it gained at every distance from 1 to 16 moves (a C probe of
 * the range, s8 (4,1) tiles, medians of 11 rounds, two runs: 8.9-9.9 ->
 * 7.7-8.9 ms aligned, 11.3-12.9 -> 9.7-10.7 at 16 and 32 bytes past a
 * line; bf16 (2,1) tiles 9.9-10.3 -> 9.0-9.5 and 10.5-11.2 -> 8.6-9.4).
 * In the library there, two runs at 0, 2, 16 and 32 bytes past a line,
 * 16 moves ahead read best: bf16 off a line 0.97-1.01x its aligned time
 * (1 and 2 moves: 0.96-1.24, 0.97-1.09; none 1.16-1.24), s8 1.09-1.15x
 * (1.13-1.26, 1.15-1.32; none 1.16-1.42). With 2 rows staged, bf16 at 0
 * to 48 bytes took 8.2-10.0 ms without it against 6.2-8.3 with it (a C
 * probe of the moves in plain loops, staged as kernels_vec_staged_lines.h
 * was before its last change, three runs). */
static inline int64_t xs_inverse_ahead(const xs_move *m, const int size, int64_t *bytes) {
    const int k = m->outer;
    *bytes = 0;
    const int mode = xs_prefetch_mode();
    if (!m->stream || k == 0 || size > 2) return 0;
    if (mode != XS_PREFETCH_L2 && !(mode == XS_PREFETCH_L1 && XS_VINVERSE_AHEAD)) return 0;
    *bytes = m->count[k + 1] * m->src_step[k + 1];
    return 16 * m->src_step[k - 1];
}
#endif

#ifdef XS_VTRANSPOSE_SIDE
/* The rows of a sweep (0: none): a streamed transpose, not an interleave,
 * whose source rows go on along its innermost outer axis (a source step
 * below the rows') goes over that axis once per strip of a micro-block's
 * rows (xs_sweep), so that each source row is read on in order along it,
 * a few rows at a time. Moved a plane at a time instead, each row of the
 * plane is read a plane's width at a time with all the others between,
 * and rows a power of two apart overflow their cache sets:
 * f32[64,64,64,64]{0,1,2,3} (planes of 64 rows 1 MiB apart, 256 bytes
 * each) took 21.3-23.4 ms so against 13.5-14.5 swept, 0.41-0.49 of a copy
 * against 0.68-0.75 to_linear and 0.51-0.57 against 0.72-0.81 from_linear
 * (AMD EPYC Zen 3, avx2, one thread, 64 MB, three alternations). In a C
 * probe, strips swept over every outer axis read alike. */
static inline int64_t xs_sweep_rows(const xs_move *m, const int size) {
    const int k = m->outer;
    if (m->kind != XS_MOVE_TRANSPOSE || !m->stream || k == 0 || size < 2 ||
        xs_row_groups(m->count[k + 1], m->dst_step[k], size))
        return 0;
    /* every plane's rows and strips on lines alike (else a strip past its
     * plane's peel would fall short of a micro-block) */
    if (m->dst_step[k - 1] % 64 || m->dst_step[k] % 64) return 0;
    const int64_t along = m->src_step[k - 1], rows = m->src_step[k + 1];
    if ((along < 0 ? -along : along) >= (rows < 0 ? -rows : rows)) return 0;
    return xs_micro(size, 1);
}

/* The transposes along the innermost outer axis, a strip of ``strip``
 * rows at a time, the strips' bounds on the result's 64-byte lines (the
 * first takes the rows xs_transpose peels as well). */
static inline void xs_sweep(const xs_move *m, const char *src, char *dst, const int64_t *count,
                            const int size, const int64_t strip, xs_lines *w) {
    const int k = m->outer - 1;
    const int64_t nj = count[k + 1], ni = count[k + 2], ssi = m->src_step[k + 2];
    const int64_t dsj = m->dst_step[k + 1];
    int64_t rows = xs_to_line(dst) / size + strip;
    for (int64_t i = 0; i < ni; i += rows, rows = strip) {
        if (rows > ni - i) rows = ni - i;
        for (int64_t a = 0; a < count[k]; a++)
            xs_transpose(src + a * m->src_step[k] + i * ssi, dst + a * m->dst_step[k] + i * size,
                         nj, rows, ssi, dsj, size, 1, w);
    }
}
#endif

/* Where the rows of every move of a streamed inverse interleave start
 * (xs_rows_of): on 64-byte lines; lined (xs_held's ``lined``) the same
 * bytes past one; or anywhere. */
enum xs_rows { XS_ROWS_ANYWHERE = 0, XS_ROWS_ON_LINES = 1, XS_ROWS_LINED = 2 };

/* Whether an inverse interleave's rows of ni elements (a range's: fewer
 * where split along them) are lined: each a whole number of lines long,
 * and the rows of a move a whole number of lines apart. */
static inline int xs_rows_lined(const xs_move *m, const int64_t ni) {
    return ni > 0 && ni * m->size % 64 == 0 && m->dst_step[m->outer] % 64 == 0 &&
           (uintptr_t)m->dst % m->size == 0;
}

/* The moves from ``start`` to ``stop`` along the split axis, with ``w``;
 * ``inverse`` (a constant): the moves are an inverse interleave
 * (xs_range_inverse), its source prefetched by xs_inverse_ahead, its rows
 * ``width`` elements long where a constant (0: their count), and
 * ``rows`` its xs_rows (a constant). */
static XS_ALWAYS_INLINE void xs_range_moves(const xs_move *m, ptrdiff_t start,
                                            ptrdiff_t stop, const int size, xs_lines *w,
                                            const int inverse, const int64_t width,
                                            const int rows) {
    int64_t count[XS_MOVE_MAX_AXES], index[XS_MOVE_MAX_AXES];
    memcpy(count, m->count, sizeof count);
    memset(index, 0, sizeof index);
    count[m->split] = stop - start;
    const char *src = m->src + start * m->src_step[m->split];
    char *dst = m->dst + start * m->dst_step[m->split];
#ifdef XS_VTRANSPOSE_SIDE
    int64_t ahead_bytes = 0;
    const int64_t ahead = inverse ? xs_inverse_ahead(m, size, &ahead_bytes) : 0;
    const int64_t strip = inverse ? 0 : xs_sweep_rows(m, size);
#else
    const int64_t strip = 0;
#endif
    /* The two innermost axes stepped (kin and kin - 1; a count of 1 where
     * none) in locals, the others by the odometer in memory. */
    const int kin = m->outer - 1 - (strip > 0);
    const int64_t n1 = kin >= 0 ? count[kin] : 1, n2 = kin >= 1 ? count[kin - 1] : 1;
    const int64_t ss1 = kin >= 0 ? m->src_step[kin] : 0, ds1 = kin >= 0 ? m->dst_step[kin] : 0;
    const int64_t ss2 = kin >= 1 ? m->src_step[kin - 1] : 0;
    const int64_t ds2 = kin >= 1 ? m->dst_step[kin - 1] : 0;
#ifdef XS_VTRANSPOSE_SIDE
    const int64_t nj = count[m->outer], ni = width ? width : count[m->outer + 1];
    const int64_t ssi = m->src_step[m->outer + 1], dsj = m->dst_step[m->outer];
    /* Lined rows that go on along kin - 1 (its step in the result their
     * length), at most XS_HELD moves along kin: move a along kin keeps slot
     * a, and its rows go on from the move before along kin - 1, with no
     * slot looked up (xs_held_at); no slot is taken in turn, so the flush
     * at the end goes from slot 0 on. */
    const int by_axis = rows == XS_ROWS_LINED && n1 <= XS_HELD && kin >= 1 && ds2 == ni * size;
#else
    (void)inverse, (void)width, (void)rows;
#endif
    for (;;) {
        const char *sb = src;
        char *db = dst;
        for (int64_t b = 0; b < n2; b++, sb += ss2, db += ds2) {
            const char *s = sb;
            char *d = db;
            for (int64_t a = 0; a < n1; a++, s += ss1, d += ds1) {
#ifdef XS_VTRANSPOSE_SIDE
                for (int64_t c = 0; c < ahead_bytes; c += 64)  /* past the source's end: dropped */
                    __builtin_prefetch((const void *)((uintptr_t)s + (uintptr_t)(ahead + c)));
                if (rows == XS_ROWS_ON_LINES) xs_deinterleave_lined(s, d, nj, ni, ssi, dsj, size);
                else if (rows == XS_ROWS_LINED)
                    xs_lined_move(s, d, ni, nj, size, w->rows, by_axis ? (int)a : -1,
                                  b > 0 ? s - ss2 + ni * nj * size : NULL);
                else if (inverse) xs_deinterleave(s, d, nj, ni, ssi, dsj, size, m->stream, w->rows);
                else if (strip) xs_sweep(m, s, d, count, size, strip, w);
                else
#endif
                    xs_inner(m, s, d, count, size, w);
            }
        }
        int k = kin - 2;
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
        xs_lines_flush_all(w);
        if (inverse && rows != XS_ROWS_ON_LINES) xs_held_flush(w->rows, size);
        xs_joint_flush(w);
        xs_vfence();  /* streamed stores reach memory before the caller reads it */
    }
#endif
}

#ifdef XS_VTRANSPOSE_SIDE
/* The moves of an inverse interleave, with a stage for its rows, in a
 * frame of their own, one a size (XS_RANGE_INVERSE): other moves compiled
 * beside them lost 3-20% (to_linear of bf16 (2,1) and f32 T(8,128) tiles,
 * from_linear of f32 T(8,128) ones, 64 MB, one thread, AMD EPYC Zen 4),
 * and they lost 15-25% without their sizes as constants. The loops are
 * inlined into each frame: outlined, the other moves' interleave into an
 * out= 2 bytes past a line (s8 (4,1) tiles, to_linear) lost about 30%.
 * Rows 128 elements long (the T(8,128) tilings', and T(4,128)'s) go with
 * that width a constant as well, and the aligned moves' staging
 * (xs_deinterleave_rows_lines) inlined: s8[8192,8192]{1,0:T(8,128)(4,1)}
 * from_linear at avx2 went from 41.0 to 21.0 million instructions in its
 * moves into rows on lines (37.4 to 35.2 into rows 2 bytes past a line;
 * callgrind, a C probe of the range); on an AMD EPYC Zen 3, where this
 * is bound by memory, 10.9-12.0 to 10.1-10.7 ms aligned, alike off a line
 * (medians of 11 rounds, three alternations).
 * Each xs_rows in a frame of its own besides (XS_RANGE_INVERSE), whose
 * loops hold only its moves, and with the steps of the two innermost axes
 * in locals (xs_range_moves). In a C probe of the range's moves of
 * bf16[4096,8192]{1,0:T(8,128)(2,1)} from_linear (AMD EPYC Zen 3, avx2,
 * one thread, medians of 11 rounds), the same moves took 11.0-11.5 ms
 * stepped by the odometer (its index in memory) against 8.3-9.3 in nested
 * loops with their steps in registers, for 1% more instructions
 * (callgrind); and the frame shared by every xs_rows kept its moves'
 * pointers and counts in memory. Loads of what the move before stored
 * seem to wait behind its non-temporal stores there. The library, two
 * runs taking turns, 2 to 48 bytes past a line: bf16 (2,1) tiles 12.3-12.9
 * -> 9.6-10.3 ms aligned and 13.2-15.7 -> 10.9-11.5 off a line; s8 (4,1)
 * tiles 12.5-12.6 -> 9.0-9.9 and 14.4-16.5 -> 10.9-13.3. Lined moves
 * that take their slot from their place along the innermost axis
 * (by_axis) took 11.2-11.6 ms against 11.7-12.4 with their slot looked
 * up (bf16 16 bytes past a line, the probe, three runs taking turns). */
static XS_ALWAYS_INLINE void xs_range_inverse(const xs_move *m, ptrdiff_t start,
                                              ptrdiff_t stop, const int size, xs_lines *w,
                                              const int rows) {
    const int64_t ni = m->count[m->outer + 1];
    /* 128 a constant (a split axis counts a chunk's rows) */
    const int width = ni == 128 && m->split != m->outer + 1;
    if (rows == XS_ROWS_ON_LINES) {
        if (width) xs_range_moves(m, start, stop, size, w, 1, 128, rows);
        else xs_range_moves(m, start, stop, size, w, 1, 0, rows);
        return;
    }
    _Alignas(XS_HELD_GAP) char stage[XS_HELD][4 * XS_HELD_GAP];
    xs_held held;
    const int64_t range_ni = m->split == m->outer + 1 ? (int64_t)(stop - start) : ni;
    xs_held_init(&held, stage, m->dst_step[m->outer], (int)m->count[m->outer],
                 xs_rows_lined(m, range_ni));
    w->rows = &held;
    if (width) xs_range_moves(m, start, stop, size, w, 1, 128, rows);
    else xs_range_moves(m, start, stop, size, w, 1, 0, rows);
}

/* The xs_rows of a streamed inverse interleave (XS_ROWS_ANYWHERE where not
 * streamed). Split along its rows (a move with no outer axis), a box's
 * chunks after the first start on lines (relayout_run.c, line_groups), so
 * that its rows are lined only where they start on lines too. */
static inline int xs_rows_of(const xs_move *m) {
    if (!m->stream) return XS_ROWS_ANYWHERE;
    for (int k = 0; k <= m->outer; k++)
        if (m->dst_step[k] % 64) return XS_ROWS_ANYWHERE;
    if ((uintptr_t)m->dst % 64 == 0) return XS_ROWS_ON_LINES;
    return m->split <= m->outer && xs_rows_lined(m, m->count[m->outer + 1]) ? XS_ROWS_LINED
                                                                             : XS_ROWS_ANYWHERE;
}

#define XS_RANGE_INVERSE(n)                                                                \
    static XS_NOINLINE void xs_range_inverse_##n(const xs_move *m, ptrdiff_t start,       \
                                                 ptrdiff_t stop, xs_lines *w) {           \
        xs_range_inverse(m, start, stop, n, w, XS_ROWS_ANYWHERE);                         \
    }                                                                                      \
    static XS_NOINLINE void xs_range_on_lines_##n(const xs_move *m, ptrdiff_t start,      \
                                                  ptrdiff_t stop, xs_lines *w) {          \
        xs_range_inverse(m, start, stop, n, w, XS_ROWS_ON_LINES);                         \
    }                                                                                      \
    static XS_NOINLINE void xs_range_lined_##n(const xs_move *m, ptrdiff_t start,         \
                                               ptrdiff_t stop, xs_lines *w) {             \
        xs_range_inverse(m, start, stop, n, w, XS_ROWS_LINED);                            \
    }
XS_RANGE_INVERSE(1)
XS_RANGE_INVERSE(2)
XS_RANGE_INVERSE(4)
#undef XS_RANGE_INVERSE
#endif

static inline void xs_range_sized(const xs_move *m, ptrdiff_t start, ptrdiff_t stop,
                                  const int size) {
    xs_lines w;
    xs_lines_init(&w, m);
#ifdef XS_VTRANSPOSE_SIDE
    const int k = m->outer;
    if (m->kind == XS_MOVE_TRANSPOSE && xs_row_groups(m->count[k], m->src_step[k + 1], size)) {
        const int rows = xs_rows_of(m);  /* xs_row_groups: size 1, 2 or 4 */
#define XS_RANGE_OF(n)                                                                     \
    (rows == XS_ROWS_ON_LINES ? xs_range_on_lines_##n                                      \
     : rows == XS_ROWS_LINED  ? xs_range_lined_##n                                         \
                              : xs_range_inverse_##n)
        if (size == 1) XS_RANGE_OF(1)(m, start, stop, &w);
        else if (size == 2) XS_RANGE_OF(2)(m, start, stop, &w);
        else XS_RANGE_OF(4)(m, start, stop, &w);
#undef XS_RANGE_OF
        return;
    }
#endif
    xs_range_moves(m, start, stop, size, &w, 0, 0, 0);
}

static void xs_relayout_range(const xs_move *m, ptrdiff_t start, ptrdiff_t stop) {
    switch (m->size) {
    case 1: xs_range_sized(m, start, stop, 1); break;
    case 2: xs_range_sized(m, start, stop, 2); break;
    case 4: xs_range_sized(m, start, stop, 4); break;
    default: xs_range_sized(m, start, stop, 8);
    }
}
