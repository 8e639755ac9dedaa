/* The worker pool of pool.h. */
#include "runtime/pool.h"

#if !XS_POOL_THREADED

ptrdiff_t xs_pool_run(xs_chunk_fn fn, const void *arg, ptrdiff_t n, int threads,
                      ptrdiff_t min_chunk) {
    (void)threads;
    (void)min_chunk;
    return fn(arg, 0, n);
}
double xs_pool_wake_ns(void) { return 0; }
int xs_pool_costs(xs_worker_cost *awake, xs_worker_cost *asleep) {
    awake->wake_ns = awake->worker_ns = asleep->wake_ns = asleep->worker_ns = 0;
    return 0;
}
int xs_pool_workers(void) { return 0; }
#include <time.h>
uint64_t xs_now_ns(void) { return (uint64_t)clock() * (1000000000ULL / CLOCKS_PER_SEC); }

#else

#include "runtime/rate.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#if defined(__APPLE__)
#include <mach/mach_time.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#define XS_PAUSE() __asm__ __volatile__("pause")
#elif defined(__aarch64__)
#define XS_PAUSE() __asm__ __volatile__("yield")
#else
#define XS_PAUSE() ((void)0)
#endif

#define XS_ACQ __ATOMIC_ACQUIRE
#define XS_REL __ATOMIC_RELEASE
#define XS_SEQ __ATOMIC_SEQ_CST

/* The ticket packs what a worker needs to claim a chunk into one word, so
 * a claim is one compare-and-swap: the job's number (24 bits), its chunk
 * count (20 bits) and the next chunk to hand out (20 bits). A worker that
 * claims a chunk of job G knows job G is still running, so its fields are
 * stable until the chunk is done. */
#define XS_CHUNK_BITS 20
#define XS_MAX_CHUNKS ((1 << XS_CHUNK_BITS) - 1)
#define XS_GEN_MASK 0xFFFFFFULL

static struct {
    /* the job */
    xs_chunk_fn fn;
    const void *arg;
    ptrdiff_t n;
    int nchunks;
    int helpers;                  /* workers 0 .. helpers-1 may take part */
    uint64_t ticket;              /* atomic */
    int done;                     /* chunks finished (atomic) */
    ptrdiff_t first_bad;          /* atomic minimum; PTRDIFF_MAX for none */
    uint64_t worker_start_ns;     /* atomic: a worker's first claim (0: none yet) */
    /* the pool */
    uint64_t generation;          /* atomic: a new job bumps it */
    int workers;
    int sleepers;                 /* atomic */
    int busy;                     /* atomic: a call holds the pool */
    double wake_ns;               /* calibrate() says what these are */
    double claim_ns;
    pthread_mutex_t lock;
    /* Each worker sleeps on its own condition, so that a job wakes only the
     * workers it may use (waking all of 255 to run on 2 cores would delay
     * the one it needs by milliseconds). */
    pthread_cond_t wake[XS_POOL_MAX];
    int asleep[XS_POOL_MAX];      /* under lock */
    int fork_handler;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

uint64_t xs_now_ns(void) {
#if defined(__APPLE__)
    /* clock_gettime is macOS 10.12's, and the x86-64 wheels run from 10.9 */
    mach_timebase_info_data_t tick;  /* nanoseconds per tick, as numer / denom */
    mach_timebase_info(&tick);
    return mach_absolute_time() * tick.numer / tick.denom;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
#endif
}

static ptrdiff_t chunk_start(int k) {
    return (ptrdiff_t)((__int128)pool.n * k / pool.nchunks);
}

static void record_bad(ptrdiff_t row) {
    ptrdiff_t seen = __atomic_load_n(&pool.first_bad, XS_ACQ);
    while (row < seen &&
           !__atomic_compare_exchange_n(&pool.first_bad, &seen, row, 1, XS_SEQ, XS_ACQ)) {
    }
}

/* Take and run chunks of job ``gen`` until none is left (``worker``: on a
 * worker, whose first claim marks when the workers started). */
static void take_chunks(uint64_t gen, int worker) {
    for (;;) {
        uint64_t t = __atomic_load_n(&pool.ticket, XS_ACQ);
        uint64_t next = t & XS_MAX_CHUNKS;
        uint64_t count = (t >> XS_CHUNK_BITS) & XS_MAX_CHUNKS;
        if ((t >> (2 * XS_CHUNK_BITS)) != (gen & XS_GEN_MASK) || next >= count) return;
        if (!__atomic_compare_exchange_n(&pool.ticket, &t, t + 1, 0, XS_SEQ, XS_ACQ)) continue;
        uint64_t none = 0;
        if (worker && __atomic_load_n(&pool.worker_start_ns, XS_ACQ) == 0)
            __atomic_compare_exchange_n(&pool.worker_start_ns, &none, xs_now_ns(), 0, XS_SEQ, XS_ACQ);
        if (pool.fn != NULL) {  /* NULL: calibration, a job that does nothing */
            ptrdiff_t row = pool.fn(pool.arg, chunk_start((int)next), chunk_start((int)next + 1));
            if (row >= 0) record_bad(row);
        }
        __atomic_fetch_add(&pool.done, 1, XS_REL);
    }
}

typedef struct { int index; uint64_t seen; } worker_start;

static void *worker(void *p) {
    worker_start start = *(worker_start *)p;
    free(p);
    uint64_t seen = start.seen;
    for (;;) {
        uint64_t gen = __atomic_load_n(&pool.generation, XS_ACQ);
        if (gen == seen) {
            uint64_t until = xs_now_ns() + XS_POOL_SPIN_NS;
            int spins = 0;
            while ((gen = __atomic_load_n(&pool.generation, XS_ACQ)) == seen) {
                XS_PAUSE();
                if (++spins % 64 == 0 && xs_now_ns() > until) break;
            }
            if (gen == seen) {
                pthread_mutex_lock(&pool.lock);
                pool.asleep[start.index] = 1;
                __atomic_fetch_add(&pool.sleepers, 1, XS_SEQ);
                while ((gen = __atomic_load_n(&pool.generation, XS_SEQ)) == seen)
                    pthread_cond_wait(&pool.wake[start.index], &pool.lock);
                __atomic_fetch_sub(&pool.sleepers, 1, XS_SEQ);
                pool.asleep[start.index] = 0;
                pthread_mutex_unlock(&pool.lock);
            }
        }
        seen = gen;
        if (start.index < __atomic_load_n(&pool.helpers, XS_ACQ))
            take_chunks(gen, 1);
    }
    return NULL;
}

static void forget_workers_in_child(void) {
    /* The child has only the forking thread: no worker survives fork. */
    pthread_mutex_t fresh_lock = PTHREAD_MUTEX_INITIALIZER;
    pool.lock = fresh_lock;  /* grow initialises each worker's condition again */
    pool.workers = 0;
    pool.sleepers = 0;
    pool.busy = 0;
}

static void grow(int workers) {
    if (!pool.fork_handler) {
        pthread_atfork(NULL, NULL, forget_workers_in_child);
        pool.fork_handler = 1;
    }
    while (pool.workers < workers) {
        worker_start *start = malloc(sizeof *start);
        if (start == NULL) return;
        start->index = pool.workers;
        start->seen = __atomic_load_n(&pool.generation, XS_ACQ);
        pthread_cond_init(&pool.wake[pool.workers], NULL);
        pool.asleep[pool.workers] = 0;
        pthread_t thread;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int failed = pthread_create(&thread, &attr, worker, start);
        pthread_attr_destroy(&attr);
        if (failed) {
            free(start);
            return;  /* run with the workers there are */
        }
        pool.workers++;
    }
}

/* Hands out a job; returns the sleeping workers it woke. */
static int publish(xs_chunk_fn fn, const void *arg, ptrdiff_t n, int nchunks, int helpers) {
    int woken = 0;
    pool.worker_start_ns = 0;
    pool.fn = fn;
    pool.arg = arg;
    pool.n = n;
    pool.nchunks = nchunks;
    pool.first_bad = PTRDIFF_MAX;
    __atomic_store_n(&pool.done, 0, XS_REL);
    __atomic_store_n(&pool.helpers, helpers, XS_REL);
    uint64_t gen = __atomic_load_n(&pool.generation, XS_ACQ) + 1;
    __atomic_store_n(&pool.ticket,
                     ((gen & XS_GEN_MASK) << (2 * XS_CHUNK_BITS)) |
                         ((uint64_t)nchunks << XS_CHUNK_BITS),
                     XS_SEQ);
    __atomic_store_n(&pool.generation, gen, XS_SEQ);
    if (__atomic_load_n(&pool.sleepers, XS_SEQ) > 0) {
        pthread_mutex_lock(&pool.lock);
        for (int w = 0; w < helpers; w++)
            if (pool.asleep[w]) {
                pthread_cond_signal(&pool.wake[w]);
                woken++;
            }
        pthread_mutex_unlock(&pool.lock);
    }
    return woken;
}

static void wait_done(int nchunks) {
    int spins = 0;
    while (__atomic_load_n(&pool.done, XS_ACQ) < nchunks) {
        XS_PAUSE();
        if (++spins > 2000) sched_yield();  /* a worker holds a chunk: let it run */
    }
}

/* What handing out a job costs (xs_pool_costs), each the median of its
 * last samples (rate.h), so that no one job (a worker that lost its CPU)
 * turns the hand-off: start_cost[slept], from handing out a job until the
 * first worker starts on it, when every worker it asked for slept (1) or
 * none did (0); signal_cost, the caller's own time in publish() per
 * sleeping worker it wakes (a futex call, which on a busy machine may let
 * the woken worker take the caller's CPU). calibrate() gives them their
 * first samples; every job the pool runs adds its own. */
static xs_rate start_cost[2];
static xs_rate signal_cost;

/* The samples of one job, handed out at ``t0``, on the caller's thread
 * from ``t1``, done at ``t2``: where no worker took a chunk, the job's time
 * is what starting one cost at least. */
static void add_costs(int woken, int helpers, uint64_t t0, uint64_t t1, uint64_t t2) {
    uint64_t started = __atomic_load_n(&pool.worker_start_ns, XS_ACQ);
    if (woken == 0 || woken == helpers)
        xs_rate_add(&start_cost[woken > 0], (double)((started ? started : t2) - t0));
    if (woken > 0) xs_rate_add(&signal_cost, (double)(t1 - t0) / woken);
}

/* When the pool first starts: the costs above, with the workers idle; the
 * median wake-up of a sleeping worker 0, which cpu_features() reports
 * (pool_wake_ns); and claim_ns, one chunk claimed (a compare-and-swap on
 * the ticket's line) while the caller and worker 0 claim chunks of one
 * job, the median of XS_WAKE_TRIALS. */
#define XS_WAKE_TRIALS 7
#define XS_CLAIM_TRIALS 256

/* The median of XS_WAKE_TRIALS samples (sorted in place). */
static double median(double *sample) {
    for (int t = 1; t < XS_WAKE_TRIALS; t++)  /* insertion sort */
        for (int k = t; k > 0 && sample[k - 1] > sample[k]; k--) {
            double swap = sample[k];
            sample[k] = sample[k - 1];
            sample[k - 1] = swap;
        }
    return sample[XS_WAKE_TRIALS / 2];
}
static void calibrate(void) {
    double wake[XS_WAKE_TRIALS], claim[XS_WAKE_TRIALS];
    for (int t = 0; t < XS_WAKE_TRIALS; t++) {
        /* every worker asleep (all spin a while first, on however few cores) */
        uint64_t deadline = xs_now_ns() + (20 + (uint64_t)pool.workers) * XS_POOL_SPIN_NS;
        while (__atomic_load_n(&pool.sleepers, XS_SEQ) < pool.workers && xs_now_ns() < deadline)
            sched_yield();
        uint64_t t0 = xs_now_ns();
        int woken = publish(NULL, NULL, 1, 1, 1);
        uint64_t t1 = xs_now_ns();
        wait_done(1);
        add_costs(woken, 1, t0, t1, xs_now_ns());
        wake[t] = (double)(pool.worker_start_ns - t0);
        /* worker 0 spins now */
        t0 = xs_now_ns();
        woken = publish(NULL, NULL, 1, 1, 1);
        t1 = xs_now_ns();
        wait_done(1);
        add_costs(woken, 1, t0, t1, xs_now_ns());
        t0 = xs_now_ns();
        publish(NULL, NULL, XS_CLAIM_TRIALS, XS_CLAIM_TRIALS, 1);
        take_chunks(__atomic_load_n(&pool.generation, XS_ACQ), 0);
        wait_done(XS_CLAIM_TRIALS);
        claim[t] = (double)(xs_now_ns() - t0) / XS_CLAIM_TRIALS;
    }
    pool.wake_ns = median(wake);
    pool.claim_ns = median(claim);
}

ptrdiff_t xs_pool_run(xs_chunk_fn fn, const void *arg, ptrdiff_t n, int threads,
                      ptrdiff_t min_chunk) {
    if (threads > XS_POOL_MAX + 1) threads = XS_POOL_MAX + 1;
    if (min_chunk < 1) min_chunk = 1;
    ptrdiff_t most = n / min_chunk;
    if (threads <= 1 || most < 2) return fn(arg, 0, n);
    int expected = 0;
    if (!__atomic_compare_exchange_n(&pool.busy, &expected, 1, 0, XS_SEQ, XS_SEQ))
        return fn(arg, 0, n);  /* another call holds the pool: never queue */
    if (pool.workers < threads - 1) {
        int first = pool.workers == 0;
        grow(threads - 1);
        if (first && pool.workers > 0) calibrate();
    }
    int helpers = pool.workers < threads - 1 ? pool.workers : threads - 1;
    if (helpers == 0) {
        __atomic_store_n(&pool.busy, 0, XS_SEQ);
        return fn(arg, 0, n);
    }
    ptrdiff_t nchunks = XS_POOL_CHUNKS_PER_THREAD * (ptrdiff_t)(helpers + 1);
    if (nchunks > most) nchunks = most;
    if (nchunks > XS_MAX_CHUNKS) nchunks = XS_MAX_CHUNKS;
    uint64_t t0 = xs_now_ns();
    int woken = publish(fn, arg, n, (int)nchunks, helpers);
    uint64_t t1 = xs_now_ns();
    take_chunks(__atomic_load_n(&pool.generation, XS_ACQ), 0);
    wait_done((int)nchunks);
    add_costs(woken, helpers, t0, t1, xs_now_ns());
    ptrdiff_t bad = pool.first_bad;
    __atomic_store_n(&pool.busy, 0, XS_SEQ);
    return bad == PTRDIFF_MAX ? -1 : bad;
}

double xs_pool_wake_ns(void) { return pool.wake_ns; }

int xs_pool_costs(xs_worker_cost *awake, xs_worker_cost *asleep) {
    const double claims = XS_POOL_CHUNKS_PER_THREAD * pool.claim_ns;
    asleep->wake_ns = xs_rate_estimate(&start_cost[1], pool.wake_ns);
    asleep->worker_ns = xs_rate_estimate(&signal_cost, 0) + claims;
    /* a spinning worker's start, until one is seen (on a busy machine,
     * where the caller can lose its CPU to the worker it wakes, the worker
     * may sleep again before the next job), counts as a sleeping one's */
    awake->wake_ns = xs_rate_estimate(&start_cost[0], asleep->wake_ns);
    awake->worker_ns = claims;
    return pool.workers - __atomic_load_n(&pool.sleepers, XS_ACQ);
}

int xs_pool_workers(void) { return pool.workers; }

#endif
