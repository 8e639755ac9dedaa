"""``ShapeUtil.indices_in_physical_order`` against the kernel it runs on: an
``unravel`` of the same number of offsets (the region's own offsets, in
order, as int64), on the same shape in the same run.

About 10**7 elements per case when the environment variable
XLASHAPE_BENCH_FULL is set, 10**5 otherwise. Run for real with

    XLASHAPE_BENCH_FULL=1 python -m pytest benchmarks/test_physical_order_bench.py --benchmark-enable

and compare the two rows of each group: the ratio of their medians is the
cost of asking for the indices in memory order rather than unravelling
offsets one already holds. Under the default ``--benchmark-disable`` each
case runs once and checks that both give the same rows.
"""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

import xlashape as xs
from xlashape import Layout, Shape, ShapeUtil

FULL = bool(os.environ.get("XLASHAPE_BENCH_FULL"))

# name: (full dimensions, small dimensions, layout, region (base, count, incr) or None).
CASES = {
    "row-major": ((3162, 3162), (316, 316), Layout((1, 0)), None),
    "3d-permuted": ((215, 215, 215), (46, 46, 46), Layout((0, 2, 1)), None),
    "padded": ((3162, 3162), (316, 316), Layout((1, 0), (3162 + 38, 3162)), None),
    "region-every-2nd": ((3162, 3162), (316, 316), Layout((0, 1)), "every-2nd"),
    "tiled-exact": ((3072, 3072), (320, 384), Layout((1, 0), tiles=[(8, 128)]), None),
    "tiled-padded": ((3162, 3162), (316, 316), Layout((1, 0), tiles=[(8, 128)]), None),
    "tiled-two-levels": ((3162, 3162), (316, 316), Layout((1, 0), tiles=[(8, 128), (2, 1)]), None),
    # the tiled array's most minor axes give boxes of 8 elements (4 x 2)
    "tiled-small-boxes": ((100, 100, 100, 10), (20, 20, 20, 10), Layout((0, 1, 2, 3), tiles=[(2, 4)]), None),
}


@functools.cache
def case_data(name: str) -> tuple[Shape, tuple[list[int], list[int], list[int]] | None, np.ndarray]:
    """The shape, region and the region's offsets in order, built once."""
    full, small, layout, region = CASES[name]
    dims = full if FULL else small
    if layout.padded_dimensions:
        layout = Layout(layout.minor_to_major, [d + (w - f) for d, w, f in zip(dims, layout.padded_dimensions, full)])
    shape = Shape("f32", dims, layout)
    box = None if region is None else ([0] * len(dims), list(dims), [2] * len(dims))
    rows = np.indices(dims).reshape(len(dims), -1).T
    if box is not None:
        rows = rows[(rows % 2 == 0).all(axis=1)]
    offsets = np.sort(xs.ravel(np.ascontiguousarray(rows), shape))
    return shape, box, offsets


def physical_order(shape, box, offsets):
    return ShapeUtil.indices_in_physical_order(shape, *(box or ()))


def unravel_offsets(shape, box, offsets):
    return xs.unravel(offsets, shape)


IMPLEMENTATIONS = {"indices_in_physical_order": physical_order, "unravel": unravel_offsets}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.benchmark(group=f"physical-order-{name}")) for name in CASES],
)
@pytest.mark.parametrize("implementation", list(IMPLEMENTATIONS))
def test_physical_order(benchmark, name, implementation):
    shape, box, offsets = case_data(name)
    benchmark.extra_info.update(impl=implementation, elements=offsets.size)
    result = benchmark(IMPLEMENTATIONS[implementation], shape, box, offsets)
    np.testing.assert_array_equal(result, xs.unravel(offsets, shape))
    np.testing.assert_array_equal(xs.ravel(result, shape), offsets)
