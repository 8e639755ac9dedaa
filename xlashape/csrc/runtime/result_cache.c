/* The result cache of result_cache.h. */
#include "runtime/result_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#define XS_CACHE_MMAP 1
#include <pthread.h>
#include <sys/mman.h>
#else
#define XS_CACHE_MMAP 0
#endif

#if XS_CACHE_MMAP

#define XS_BLOCK ((size_t)2 << 20)   /* mappings are whole huge-page blocks */
#define XS_HEADER ((size_t)4096)     /* one page in front of the data */

typedef struct {
    char *base;       /* the mapping */
    size_t length;    /* its length */
    uint64_t stamp;   /* when it was kept: larger is more recent */
} entry;

static struct {
    pthread_mutex_t lock;
    size_t max_bytes;
    int max_buffers;
    entry kept[XS_CACHE_MAX_BUFFERS + 1];  /* + 1: a free adds one before trim() */
    int count;
    size_t bytes;
    uint64_t clock;
    unsigned long long hits, misses;
} cache = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t length_of(const void *data) { return *(const size_t *)((const char *)data - XS_HEADER); }

static void *map_new(size_t size) {
    if (size > SIZE_MAX - XS_HEADER - XS_BLOCK) return NULL;
    size_t length = (size + XS_HEADER + XS_BLOCK - 1) / XS_BLOCK * XS_BLOCK;
    char *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(base, length, MADV_HUGEPAGE);  /* as NumPy does for large arrays */
#endif
    *(size_t *)base = length;
    return base + XS_HEADER;
}

/* Remove entry k (the lock held); returns it. */
static entry take(int k) {
    entry e = cache.kept[k];
    cache.kept[k] = cache.kept[--cache.count];
    cache.bytes -= e.length;
    return e;
}

/* Take the least recently kept entries out until the cache is within its
 * bounds (the lock held), adding them to drop[ndrop...]; the new ndrop. */
static int trim(entry *drop, int ndrop) {
    while (cache.count > cache.max_buffers || cache.bytes > cache.max_bytes) {
        int oldest = 0;
        for (int k = 1; k < cache.count; k++)
            if (cache.kept[k].stamp < cache.kept[oldest].stamp) oldest = k;
        drop[ndrop++] = take(oldest);
    }
    return ndrop;
}

static void unmap_all(const entry *drop, int ndrop) {
    for (int k = 0; k < ndrop; k++) munmap(drop[k].base, drop[k].length);
}

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void lock_before_fork(void) { pthread_mutex_lock(&cache.lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&cache.lock); }

static void empty_in_child(void) {
    /* The child inherited the locked mutex from lock_before_fork and copies
     * of the kept mappings: it keeps none of them. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    unmap_all(cache.kept, cache.count);
    cache.count = 0;
    cache.bytes = 0;
    cache.lock = fresh;
}

static void install_fork_handlers(void) {
    pthread_atfork(lock_before_fork, unlock_after_fork, empty_in_child);
}

void *xs_cache_malloc(void *ctx, size_t size) {
    (void)ctx;
    if (size == 0) size = 1;
    pthread_once(&fork_handlers_once, install_fork_handlers);
    pthread_mutex_lock(&cache.lock);
    int best = -1;
    for (int k = 0; k < cache.count; k++) {
        size_t capacity = cache.kept[k].length - XS_HEADER;
        if (capacity >= size && capacity - size <= size / 8 + XS_BLOCK &&
            (best < 0 || cache.kept[k].length < cache.kept[best].length))
            best = k;
    }
    if (best >= 0) {
        entry e = take(best);
        cache.hits++;
        pthread_mutex_unlock(&cache.lock);
        return e.base + XS_HEADER;
    }
    cache.misses++;
    pthread_mutex_unlock(&cache.lock);
    return map_new(size);
}

void *xs_cache_calloc(void *ctx, size_t nelem, size_t elsize) {
    (void)ctx;
    if (elsize != 0 && nelem > SIZE_MAX / elsize) return NULL;
    size_t size = nelem * elsize;
    return map_new(size ? size : 1);  /* a fresh mapping reads as zeros */
}

void *xs_cache_realloc(void *ctx, void *ptr, size_t new_size) {
    if (ptr == NULL) return xs_cache_malloc(ctx, new_size);
    size_t capacity = length_of(ptr) - XS_HEADER;
    if (new_size <= capacity) return ptr;
    void *grown = xs_cache_malloc(ctx, new_size);
    if (grown == NULL) return NULL;
    memcpy(grown, ptr, capacity);
    xs_cache_free(ctx, ptr, capacity);
    return grown;
}

void xs_cache_free(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    (void)size;  /* the header knows the mapping's length */
    if (ptr == NULL) return;
    entry e = {(char *)ptr - XS_HEADER, length_of(ptr), 0};
    entry drop[XS_CACHE_MAX_BUFFERS + 1];
    int ndrop = 0;
    pthread_mutex_lock(&cache.lock);
    if (e.length > cache.max_bytes || cache.max_buffers == 0) {
        drop[ndrop++] = e;
    } else {
        e.stamp = ++cache.clock;
        cache.kept[cache.count++] = e;
        cache.bytes += e.length;
        ndrop = trim(drop, ndrop);
    }
    pthread_mutex_unlock(&cache.lock);
    unmap_all(drop, ndrop);
}

void xs_cache_configure(size_t max_bytes, int max_buffers) {
    if (max_buffers < 0) max_buffers = 0;
    if (max_buffers > XS_CACHE_MAX_BUFFERS) max_buffers = XS_CACHE_MAX_BUFFERS;
    pthread_once(&fork_handlers_once, install_fork_handlers);
    entry drop[XS_CACHE_MAX_BUFFERS];
    int ndrop = 0;
    pthread_mutex_lock(&cache.lock);
    cache.max_bytes = max_bytes;
    cache.max_buffers = max_buffers;
    ndrop = trim(drop, ndrop);
    pthread_mutex_unlock(&cache.lock);
    unmap_all(drop, ndrop);
}

void xs_cache_get_stats(xs_cache_stats *stats) {
    pthread_mutex_lock(&cache.lock);
    stats->max_bytes = cache.max_bytes;
    stats->max_buffers = cache.max_buffers;
    stats->held_bytes = cache.bytes;
    stats->held_buffers = cache.count;
    stats->hits = cache.hits;
    stats->misses = cache.misses;
    pthread_mutex_unlock(&cache.lock);
}

#else /* no mmap: plain malloc, nothing kept */

void *xs_cache_malloc(void *ctx, size_t size) {
    (void)ctx;
    return malloc(size ? size : 1);
}
void *xs_cache_calloc(void *ctx, size_t nelem, size_t elsize) {
    (void)ctx;
    return calloc(nelem ? nelem : 1, elsize ? elsize : 1);
}
void *xs_cache_realloc(void *ctx, void *ptr, size_t new_size) {
    (void)ctx;
    return realloc(ptr, new_size ? new_size : 1);
}
void xs_cache_free(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    (void)size;
    free(ptr);
}
void xs_cache_configure(size_t max_bytes, int max_buffers) {
    (void)max_bytes;
    (void)max_buffers;
}
void xs_cache_get_stats(xs_cache_stats *stats) { memset(stats, 0, sizeof *stats); }

#endif
