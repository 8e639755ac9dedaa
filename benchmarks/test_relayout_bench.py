"""Relayout of a large array into a padded linear buffer: ``to_linear``
against NumPy's best equivalent, ``np.transpose`` plus ``np.copyto`` into a
padded view of a fresh buffer, on the same data in the same run.

About 10**7 elements per case when the environment variable
XLASHAPE_BENCH_FULL is set, 10**5 otherwise (to keep CI fast). Run for real
with

    XLASHAPE_BENCH_FULL=1 python -m pytest benchmarks/test_relayout_bench.py --benchmark-enable

and compare the two rows of each group (``--benchmark-json FILE`` adds
``speedup_vs_numpy``, see conftest.py). Under the default
``--benchmark-disable`` each case runs once and only checks that both give
identical buffers.
"""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

from xlashape import Layout, PaddingValue, Shape
from xlashape.linear.buffers import padding_fill_value, to_linear

FULL = bool(os.environ.get("XLASHAPE_BENCH_FULL"))

# name: (full dimensions, small dimensions, minor_to_major, extra width per
# dimension, padding value). Each is a relayout with padding.
CASES = {
    "2d-transpose": ((3162, 3162), (316, 316), (0, 1), (6, 2), PaddingValue.ZERO_PAD),
    "3d-reverse": ((215, 215, 215), (46, 46, 46), (0, 1, 2), (1, 3, 1), PaddingValue.ZERO_PAD),
    "3d-minor-kept": (
        (100, 100, 1000),
        (10, 10, 1000),
        (2, 0, 1),
        (0, 4, 24),
        PaddingValue.LOWEST_PAD,
    ),
    "row-major-tiles": ((3162, 3162), (316, 316), (1, 0), (6, 94), PaddingValue.ZERO_PAD),
}


@functools.cache
def case_data(name: str) -> tuple[np.ndarray, Shape]:
    """The array and target shape of a case, built once per run so that
    both implementations see the same data."""
    full, small, minor_to_major, extra, padding_value = CASES[name]
    dims = full if FULL else small
    widths = tuple(d + e for d, e in zip(dims, extra))
    shape = Shape("f32", dims, Layout(minor_to_major, widths, padding_value))
    array = np.random.default_rng(0).standard_normal(dims, dtype=np.float32)
    return array, shape


def numpy_relayout(array: np.ndarray, shape: Shape) -> np.ndarray:
    """What NumPy alone does best: a buffer filled with the padding value
    (np.zeros when that is 0), seen as the padded array in major-to-minor
    order, and the array transposed to that order copied into its corner."""
    order = shape.layout.major_to_minor
    fill = padding_fill_value(shape.layout.padding_value, array.dtype)
    if fill == 0:
        buffer = np.zeros(shape.buffer_size, dtype=array.dtype)
    else:
        buffer = np.full(shape.buffer_size, fill, dtype=array.dtype)
    padded = buffer.reshape([shape.padded_dimensions[d] for d in order])
    corner = padded[tuple(slice(0, shape.dimensions[d]) for d in order)]
    np.copyto(corner, np.transpose(array, order))
    return buffer


IMPLEMENTATIONS = {"xlashape": to_linear, "numpy": numpy_relayout}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.benchmark(group=f"relayout-{name}")) for name in CASES],
)
@pytest.mark.parametrize("implementation", list(IMPLEMENTATIONS))
def test_relayout(benchmark, name, implementation):
    array, shape = case_data(name)
    benchmark.extra_info.update(impl=implementation, elements=array.size)
    result = benchmark(IMPLEMENTATIONS[implementation], array, shape)
    other = "numpy" if implementation == "xlashape" else "xlashape"
    np.testing.assert_array_equal(result, IMPLEMENTATIONS[other](array, shape))
