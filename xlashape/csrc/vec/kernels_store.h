/* The store stream: how every vector loop writes a contiguous result, one
 * whole vector after another, whatever the result's alignment.
 *
 * Three ways to store (enum xs_store, which dispatch.c picks per call from
 * the bytes the call moves):
 * - XS_STORE_PLAIN: unaligned vector stores. For results that stay in
 *   cache, where a store that straddles two lines costs less than the
 *   permute that would avoid it.
 * - XS_STORE_ALIGNED: aligned slots. A result that starts ``lag`` 32-bit
 *   lanes past a vector-aligned address (an np.empty array lies 16 bytes
 *   past a 64-byte boundary) would make every vector store, or every other
 *   one, straddle two cache lines. Instead a slot takes the last ``lag``
 *   lanes of the previous vector and the first lanes of this one, moved
 *   up by ``lag`` (xs_vjoin: one two-vector permute at AVX-512, a permute
 *   and a blend at AVX2). The first slot, before the result, is
 *   written under a mask (lanes from ``lag`` up), as is the last, past it
 *   (lanes below ``lag``): no byte outside the result is touched, so two
 *   threads may write neighbouring ranges.
 * - XS_STORE_STREAM: aligned slots written by non-temporal stores, which
 *   skip reading each line before writing it, for results too large to
 *   stay in cache. The driver fences them once a chunk is done
 *   (dispatch.c, fenced_chunk), not each stream: a kernel run by blocks
 *   (under 'clip' and 'wrap') ends a stream per block.
 *
 * Included by kernels_vec_<level>.h after the level's operations:
 * XS_VBYTES (a vector's bytes), xs_vlanes (a set of 32-bit lanes),
 * xs_vlanes_below, xs_vlanes_not, xs_vkeep and xs_vjoin (the join of two
 * vectors across a slot), xs_vstore_lanes (masked store), xs_vstore_nt
 * (non-temporal), and xs_vstore (unaligned) where XS_VSTORE_SLOT is
 * defined. */
#ifndef XLASHAPE_KERNELS_STORE_H
#define XLASHAPE_KERNELS_STORE_H

#include <stdint.h>
#include <string.h>

#define XS_VLANES (XS_VBYTES / 4)

typedef struct {
    char *slot;        /* where the next vector goes (aligned when lag > 0) */
    xs_vi carry;       /* the last vector, as xs_vkeep keeps it: its last lag lanes are still to write */
    xs_vi turn;        /* lane j of a slot is lane j - lag + XS_VLANES of (carry, vector) */
    xs_vlanes low;     /* the lanes below lag */
    int lag;           /* 32-bit lanes from the slot to the result's start; 0: none to turn by */
    int stream;        /* non-temporal stores */
    int plain;         /* lag 0 and not streamed: each vector stored plainly where it falls */
    int started;       /* a vector has been put */
} xs_vstream;

static XS_ALWAYS_INLINE void xs_vstream_begin(xs_vstream *s, void *out, int store) {
    const uintptr_t at = (uintptr_t)out;
    s->slot = (char *)out;
    s->carry = s->turn = xs_vi_set(0);
    s->low = xs_vlanes_below(0);
    s->lag = 0;
    s->stream = 0;
    s->plain = 1;
    s->started = 0;
    if (store == XS_STORE_PLAIN || at % 4 != 0) return;  /* (no lane boundary to turn by) */
    s->lag = (int)(at % XS_VBYTES) / 4;
    s->slot -= 4 * s->lag;
    s->stream = store == XS_STORE_STREAM;
    s->plain = s->lag == 0 && !s->stream;
    int32_t turn[XS_VLANES];
    for (int j = 0; j < XS_VLANES; j++) turn[j] = j - s->lag + XS_VLANES;
    memcpy(&s->turn, turn, sizeof s->turn);
    s->low = xs_vlanes_below(s->lag);
}

/* One vector at the slot: non-temporal (the slot is aligned then), or
 * an unaligned store: a memcpy, or the level's xs_vstore where it
 * defines XS_VSTORE_SLOT. */
static XS_ALWAYS_INLINE void xs_vstream_slot(const xs_vstream *s, xs_vi v) {
    if (s->stream)
        xs_vstore_nt(s->slot, v);
    else
#ifdef XS_VSTORE_SLOT
        xs_vstore((int64_t *)(void *)s->slot, v);
#else
        memcpy(s->slot, &v, sizeof v);
#endif
}

/* The next XS_VBYTES of the result. */
static XS_ALWAYS_INLINE void xs_vstream_put(xs_vstream *s, xs_vi v) {
    if (s->lag == 0) {
        xs_vstream_slot(s, v);
    } else {
        const xs_vi joined = xs_vjoin(s->carry, v, s->turn, s->low);
        if (s->started)
            xs_vstream_slot(s, joined);
        else  /* the head: the slot's lanes before the result are not ours */
            xs_vstore_lanes(s->slot, xs_vlanes_not(s->low), joined);
        s->carry = xs_vkeep(v, s->turn);
        s->started = 1;
    }
    s->slot += XS_VBYTES;
}

/* Put ``count`` vectors read from ``items`` (a block on the stack that a
 * loop without vectors of its own filled). */
static XS_ALWAYS_INLINE void xs_vstream_put_block(xs_vstream *s, const void *items,
                                                  ptrdiff_t count) {
    for (ptrdiff_t k = 0; k < count; k++) {
        xs_vi v;
        memcpy(&v, (const char *)items + k * XS_VBYTES, sizeof v);
        xs_vstream_put(s, v);
    }
}

/* How the rows that xs_vstore_rows or xs_vstore_rows32 put on a stream
 * begun at ``out`` are stored, for a call that asks ``store``: plainly
 * (by the loops compiled for plain stores) where aligned slots would
 * change nothing, ``out`` being on a vector boundary, and where they
 * would turn the rows at a level that turns them at a loss (kernels_vec.h,
 * XS_VTURN_ROWS); otherwise as asked. */
static XS_ALWAYS_INLINE int xs_vstream_rows_mode(const void *out, int store) {
    const int turned = (uintptr_t)out % XS_VBYTES != 0;
    if (turned && !XS_VTURN_ROWS) return XS_STORE_PLAIN;
    return store == XS_STORE_ALIGNED && !turned ? XS_STORE_PLAIN : store;
}

/* Write what is still held (the tail's lanes below lag). Call before
 * anything else writes past the stream's last vector, and before the
 * kernel returns. */
static XS_ALWAYS_INLINE void xs_vstream_end(xs_vstream *s) {
    if (s->lag > 0 && s->started)
        xs_vstore_lanes(s->slot, s->low, xs_vjoin(s->carry, s->carry, s->turn, s->low));
    s->started = 0;
}

#endif
