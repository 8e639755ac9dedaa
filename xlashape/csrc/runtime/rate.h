/* A measured cost that no one sample turns: the median of the last
 * XS_RATE_SAMPLES samples. The hand-off (handoff.h) keeps the one-thread
 * rate of each kind of call in one, and the pool (pool.c) a worker's start
 * and the caller's signal to a sleeping one. */
#ifndef XLASHAPE_RATE_H
#define XLASHAPE_RATE_H

#include <stdint.h>

#define XS_RATE_SAMPLES 5

/* Adds ``v`` nanoseconds to the uint64_t at ``p``, from any thread: how
 * the chunks of one call sum their times. */
#if defined(__GNUC__) || defined(__clang__)
#define XS_ADD_NS(p, v) ((void)__atomic_fetch_add((p), (uint64_t)(v), __ATOMIC_RELAXED))
#else
#include <intrin.h>
#define XS_ADD_NS(p, v) ((void)_InterlockedExchangeAdd64((volatile long long *)(p), (long long)(v)))
#endif

/* Zeroed: no sample yet. Calls from several threads may add at once: a
 * sample is one atomic store into a slot picked by one atomic count. */
typedef struct {
    double sample[XS_RATE_SAMPLES];
    unsigned added;
} xs_rate;

void xs_rate_add(xs_rate *rate, double sample);

/* The median of the samples held (the lower middle of an even count), or
 * ``prior`` before any. One sample among XS_RATE_SAMPLES - 1 equal ones
 * leaves it where they are; a new sample moves it at most to a neighbour
 * of the old median among the samples held. */
double xs_rate_estimate(const xs_rate *rate, double prior);

#endif
