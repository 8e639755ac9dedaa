"""xlashape against ``jax.jit`` on separate columns and the power-of-two
shape ``(64, 128, 256, 32)``, one core: the cases ``xlashape bench`` does not
time (its JAX peer reads the case's own rows).

Run pinned to one core, after ``pip install ".[jax]"``:

    taskset -c 1 python benchmarks/jax_columns.py 1e5 1e6 1e7

Each line gives xlashape's speed over JAX's (above 1: xlashape ahead), medians
of 31 calls: ravel of a C-contiguous (4, N) array read through its transpose
against JAX's ravel of four arrays, and unravel into C rows and into the
transpose of a (4, N) result against ``jnp.unravel_index``. JAX runs with
``jax_enable_x64`` so that both read and write the same dtype.
"""

from __future__ import annotations

import sys
import time

import jax
import numpy as np

import xlashape as xs

jax.config.update("jax_enable_x64", True)
jnp = jax.numpy

DIMS = (64, 128, 256, 32)


def median_time(call, n=31):
    call()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def ratios(dtype, n, rng):
    """xlashape's speed over JAX's for the three calls, N = n indices."""
    shape = xs.Shape("f32", DIMS)
    ravel = jax.jit(lambda *c: jnp.ravel_multi_index(c, DIMS, mode="clip"))
    unravel = jax.jit(lambda f: jnp.unravel_index(f, DIMS))
    columns = np.stack([rng.integers(0, d, n) for d in DIMS]).astype(dtype)
    flat = np.ravel_multi_index(tuple(columns), DIMS).astype(dtype)
    jcolumns, jflat = tuple(jnp.asarray(c) for c in columns), jnp.asarray(flat)
    out, rows_out, columns_out = np.empty(n, dtype), np.empty((n, 4), dtype), np.empty((4, n), dtype)
    jax_unravel = median_time(lambda: [a.block_until_ready() for a in unravel(jflat)])
    return {
        "ravel columns": median_time(lambda: ravel(*jcolumns).block_until_ready())
        / median_time(lambda: xs.ravel(columns.T, shape, out=out, threads=1)),
        "unravel rows": jax_unravel / median_time(lambda: xs.unravel(flat, shape, out=rows_out, threads=1)),
        "unravel columns": jax_unravel
        / median_time(lambda: xs.unravel(flat, shape, out=columns_out.T, threads=1)),
    }


def main(sizes):
    rng = np.random.default_rng(0)
    for dtype in (np.int64, np.int32):
        for n in sizes:
            found = ratios(dtype, n, rng)
            print(f"{np.dtype(dtype).name} N={n:.0e}: " + ", ".join(f"{k} {v:.2f}" for k, v in found.items()))


if __name__ == "__main__":
    main([int(float(a)) for a in sys.argv[1:]] or [10**5, 10**6])
