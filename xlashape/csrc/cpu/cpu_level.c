/* The CPU level in use (cpu_level.h): each level's struct of kernels, the
 * check of its features, and the one atomic pointer every call reads. */
#include "cpu/cpu_level.h"

/* The level in use: its struct of kernels, the baseline's filling the
 * index dtypes it leaves NULL (kernels.h). Picked once at import, and again
 * only by xlashape.cpu.set_cpu_level; read once per call. */
static xs_kernels levels[XS_NLEVELS];
static const xs_kernels *active = NULL;
#if defined(__GNUC__) || defined(__clang__)
#define XS_PUBLISH(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define XS_READ(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#else  /* an aligned pointer is read and written whole; MSVC's volatile orders it */
#define XS_PUBLISH(p, v) (*(const xs_kernels *volatile *)(p) = (v))
#define XS_READ(p) (*(const xs_kernels *volatile *)(p))
#endif

#define XS_LEVEL_STRUCT(name) &xs_kernels_##name,
static const xs_kernels *const compiled[XS_NLEVELS] = {XS_LEVELS(XS_LEVEL_STRUCT)};
#undef XS_LEVEL_STRUCT
#define XS_LEVEL_FEATURES(name) XS_FEATURES_##name,
static const char *const features[XS_NLEVELS] = {XS_LEVELS(XS_LEVEL_FEATURES)};
#undef XS_LEVEL_FEATURES

int xs_best_level(void) {
    int best = 0;
    for (int level = 1; level < XS_NLEVELS; level++)
        if (xs_cpu_supports(features[level])) best = level;
    return best;
}

int xs_level(void) {
    const xs_kernels *k = xs_active_kernels();
    return (int)(k - levels);
}

const char *xs_level_name(int level) {
    return level >= 0 && level < XS_NLEVELS ? compiled[level]->name : "unknown";
}

/* The struct of ``level``, with the baseline's kernels where it has none. */
static void fill(xs_kernels *k, int level) {
    const xs_kernels *base = compiled[0];
    *k = *compiled[level];
    for (int d = 0; d < XS_NDTYPES; d++) {
        if (k->ravel[d] == NULL) k->ravel[d] = base->ravel[d];
        if (k->ravel_cols[d] == NULL) k->ravel_cols[d] = base->ravel_cols[d];
        if (k->ravel_cols32[d] == NULL) k->ravel_cols32[d] = base->ravel_cols32[d];
        if (k->unravel[d] == NULL) k->unravel[d] = base->unravel[d];
    }
}

int xs_select_level(int level) {
    int best = xs_best_level();
    if (level < 0) level = best;
    if (level > best) return -1;
    fill(&levels[level], level);
    XS_PUBLISH(&active, &levels[level]);
    return level;
}

const xs_kernels *xs_active_kernels(void) {
    const xs_kernels *k = XS_READ(&active);
    if (k == NULL) {
        xs_select_level(-1);
        k = XS_READ(&active);
    }
    return k;
}

void xs_traffic(const int64_t *in, ptrdiff_t n_in, int64_t *out, ptrdiff_t n_out) {
    xs_active_kernels()->traffic(in, n_in, out, n_out);
}
