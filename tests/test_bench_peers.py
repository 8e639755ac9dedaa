"""numba's loops in ``xlashape bench`` (xlashape.bench_peers) give
xlashape's and NumPy's results on valid input: the bounds-checked loop and
the unchecked one (static rank, strides a tuple). Skipped without numba.
"""

from __future__ import annotations

import numpy as np
import pytest

from xlashape import bench, convert
from xlashape.bench_peers import _ravel_unchecked, numba_call, ravel_unchecked_call

numba = pytest.importorskip("numba")

DTYPES = ("int64", "int32")
LAYOUTS = ("row-major", "column-major", "permuted", "padded")
RANKS = (1, 2, 3, 4, 5, 8)


def _numpy_ravel(case: bench.Case, rows: np.ndarray) -> np.ndarray:
    """NumPy's ravel of ``rows`` in the case's layout: the multi-index
    major to minor, the padded widths as dims."""
    shape = case.shape
    order = shape.layout.major_to_minor
    widths = tuple(shape.padded_dimensions[d] for d in order)
    return np.ravel_multi_index(tuple(rows[:, d] for d in order), widths)


def _numpy_unravel(case: bench.Case, offsets: np.ndarray) -> np.ndarray:
    shape = case.shape
    order = shape.layout.major_to_minor
    widths = tuple(shape.padded_dimensions[d] for d in order)
    columns = np.unravel_index(offsets, widths)
    return np.stack([columns[order.index(d)] for d in range(case.rank)], axis=1)


# Each direction: its output buffer, its input, NumPy's form and xlashape's.
DIRECTIONS = {
    "ravel": ("ravel_out", "rows", _numpy_ravel, convert.ravel),
    "unravel": ("unravel_out", "offsets", _numpy_unravel, convert.unravel),
}


@pytest.mark.parametrize("checked", [True, False], ids=["checked", "unchecked"])
@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", DIRECTIONS)
def test_numba_loops_match_numpy_and_xlashape(op, dtype, layout, rank, checked):
    out, given, numpy_form, xlashape_form = DIRECTIONS[op]
    case = bench.Case(op, 1000, rank=rank, dtype=dtype, layout=layout)
    data = bench.make_case_data(case, seed=rank)
    data[out][:] = -1
    call = numba_call(case, data, checked=checked)
    assert call is not None
    result = call()
    assert result is data[out]
    np.testing.assert_array_equal(result, numpy_form(case, data[given]))
    np.testing.assert_array_equal(result, xlashape_form(data[given], case.shape))


def test_the_unchecked_ravel_checks_nothing_where_the_checked_one_raises():
    case = bench.Case("ravel", 4, rank=2)
    data = bench.make_case_data(case)
    extent = case.shape.dimensions[1]
    data["rows"][2] = (1, extent)  # past the end of dimension 1
    strides = case.shape.strides
    call = numba_call(case, data, checked=False)
    assert call is not None
    assert call()[2] == strides[0] + extent * strides[1]  # the sum, unchecked
    with pytest.raises(IndexError):
        numba_call(case, data)


def test_the_unchecked_loop_takes_the_strides_as_a_tuple():
    case = bench.Case("ravel", 10, rank=3)
    data = bench.make_case_data(case)
    ravel_unchecked_call(case.shape, data["rows"], data["ravel_out"])()
    # a static rank of 3: the strides' type holds their count
    assert numba.types.UniTuple(numba.int64, 3) in {signature[1] for signature in _ravel_unchecked.signatures}


@pytest.mark.parametrize("op", ["ravel", "unravel"])
def test_tiled_layouts_have_no_numba_loop(op):
    case = bench.Case(op, 10, layout="tiled")
    data = bench.make_case_data(case)
    assert numba_call(case, data, checked=False) is None
    assert numba_call(case, data) is None
