/* The estimator of rate.h. */
#include "runtime/rate.h"

#if defined(__GNUC__) || defined(__clang__)
#define XS_NEXT_SLOT(p) __atomic_fetch_add((p), 1u, __ATOMIC_RELAXED)
#define XS_COUNT(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#else  /* MSVC: an aligned double or unsigned is read and written whole */
#define XS_NEXT_SLOT(p) ((unsigned)_InterlockedIncrement((volatile long *)(p)) - 1u)
#define XS_COUNT(p) (*(volatile const unsigned *)(p))
#endif

void xs_rate_add(xs_rate *rate, double sample) {
    unsigned slot = XS_NEXT_SLOT(&rate->added) % XS_RATE_SAMPLES;
    *(volatile double *)&rate->sample[slot] = sample;
}

double xs_rate_estimate(const xs_rate *rate, double prior) {
    unsigned added = XS_COUNT(&rate->added);
    int count = added < XS_RATE_SAMPLES ? (int)added : XS_RATE_SAMPLES;
    if (count == 0) return prior;
    double sorted[XS_RATE_SAMPLES];
    for (int k = 0; k < count; k++) {
        double value = *(volatile const double *)&rate->sample[k];
        int at = k;  /* insertion sort */
        for (; at > 0 && sorted[at - 1] > value; at--) sorted[at] = sorted[at - 1];
        sorted[at] = value;
    }
    return sorted[(count - 1) / 2];
}
