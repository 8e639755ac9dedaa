/* A bounded cache of large result buffers, behind a NumPy memory handler.
 *
 * A result of at least XS_CACHE_MIN_BYTES that xlashape allocates (a call
 * without out=) takes its memory from this allocator. Each buffer is an
 * anonymous mapping of whole 2 MiB blocks (huge-page sized), with one
 * header page in front of the data. When NumPy frees such an array, its
 * buffer is kept here, already faulted in, instead of being unmapped, as
 * long as the cache stays within its bounds (bytes and count); the least
 * recently kept buffers are unmapped first. A later result that the
 * buffer fits with at most 1/8 of the result's size plus 2 MiB to spare
 * reuses it, skipping the page faults that zero fresh memory. Memory is
 * never shared: a buffer is handed out only after its last owner freed it.
 *
 * Thread-safe (one mutex) and fork-safe: a forked child starts with an
 * empty cache. Without mmap (Windows), buffers come from malloc and the
 * cache keeps none. The functions have NumPy's PyDataMemAllocator
 * signatures; ctx is unused.
 */
#ifndef XLASHAPE_RESULT_CACHE_H
#define XLASHAPE_RESULT_CACHE_H

#include <stddef.h>

#define XS_CACHE_MIN_BYTES ((size_t)4 << 20)
#define XS_CACHE_MAX_BUFFERS 64

void *xs_cache_malloc(void *ctx, size_t size);
void *xs_cache_calloc(void *ctx, size_t nelem, size_t elsize);
void *xs_cache_realloc(void *ctx, void *ptr, size_t new_size);
void xs_cache_free(void *ctx, void *ptr, size_t size);

/* Set the bounds (max_buffers is capped at XS_CACHE_MAX_BUFFERS); buffers
 * over the new bounds are unmapped at once. 0 bytes or 0 buffers: keep
 * none. */
void xs_cache_configure(size_t max_bytes, int max_buffers);

typedef struct {
    size_t max_bytes;
    int max_buffers;
    size_t held_bytes;   /* mapped bytes kept, headers included */
    int held_buffers;
    unsigned long long hits, misses;
} xs_cache_stats;

void xs_cache_get_stats(xs_cache_stats *stats);

#endif
