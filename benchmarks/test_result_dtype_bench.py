"""32-bit results against 64-bit ones: ``xs.ravel`` into an int32 ``out=``
beside the same call into an int64 one (issue 22, item 7), and
``xs.unravel`` likewise, rank 4 row-major, int32 indices, one thread.

N = 10**6 and 10**7 when the environment variable XLASHAPE_BENCH_FULL is
set, 10**4 otherwise. Run for real with

    XLASHAPE_BENCH_FULL=1 python -m pytest benchmarks/test_result_dtype_bench.py --benchmark-enable

and compare the two rows of each group (int32 writes half the bytes of
int64). Under the default ``--benchmark-disable`` each case runs once and
checks that both widths hold the same values.
"""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

import xlashape as xs

FULL = bool(os.environ.get("XLASHAPE_BENCH_FULL"))
SIZES = (10**6, 10**7) if FULL else (10**4,)
SHAPE = xs.Shape("f32", (64, 128, 256, 32))
WIDTHS = ("int64", "int32")


@functools.cache
def case_data(n: int) -> tuple[np.ndarray, np.ndarray]:
    """int32 rows of ``n`` in-range multi-indices, and their offsets."""
    rng = np.random.default_rng(n)
    rows = np.stack([rng.integers(0, d, n, dtype=np.int32) for d in SHAPE.dimensions], axis=1)
    return rows, xs.ravel(rows, SHAPE, threads=1)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "n", [pytest.param(n, marks=pytest.mark.benchmark(group=f"ravel-out-{n:.0e}")) for n in SIZES]
)
def test_ravel_into_width(benchmark, n, width):
    rows, expected = case_data(n)
    out = np.empty(n, dtype=width)
    benchmark.extra_info.update(impl=f"out={width}", elements=n)
    benchmark(xs.ravel, rows, SHAPE, out=out, threads=1)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "n", [pytest.param(n, marks=pytest.mark.benchmark(group=f"unravel-out-{n:.0e}")) for n in SIZES]
)
def test_unravel_into_width(benchmark, n, width):
    rows, offsets = case_data(n)
    out = np.empty((n, SHAPE.rank), dtype=width)
    benchmark.extra_info.update(impl=f"out={width}", elements=n)
    benchmark(xs.unravel, offsets, SHAPE, out=out, threads=1)
    np.testing.assert_array_equal(out, rows)
