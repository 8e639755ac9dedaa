"""The drop-ins on other libraries' arrays (NEP 18): Dask arrays stay lazy
Dask arrays, and any other type with its own ``__array_function__`` goes
where ``np.ravel_multi_index`` and ``np.unravel_index`` send it.

Oracles: NumPy's functions on the computed arrays, and NumPy's own dispatch
on the same arguments.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xlashape as xs

da = pytest.importorskip("dask.array")


class Counted:
    """Dask arrays whose blocks count how often they are computed."""

    def __init__(self) -> None:
        self.computed = 0

    def __call__(self, values: np.ndarray, chunks: int | tuple[int, ...]) -> da.Array:
        def block(b: np.ndarray) -> np.ndarray:
            self.computed += 1
            return b

        return da.from_array(values, chunks=chunks).map_blocks(block, meta=np.empty((0,) * values.ndim, values.dtype))


def compute(result):
    if isinstance(result, tuple):
        return tuple(r.compute(scheduler="synchronous") for r in result)
    return result.compute(scheduler="synchronous")


# -- Dask ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"order": "F"}, {"mode": "wrap"}, {"mode": ("clip", "raise", "wrap")}, {"mode": 1}],
)
def test_ravel_multi_index_of_dask_columns_is_lazy_and_matches_numpy(kwargs):
    dims = (5, 7, 3)
    rng = np.random.default_rng(1)
    mode = kwargs.get("mode", "raise")
    modes = mode if isinstance(mode, tuple) else (mode,) * len(dims)
    # out of range only where the mode takes it
    columns = [rng.integers(0, d if m == "raise" else 2 * d, 50) for d, m in zip(dims, modes)]
    counted = Counted()
    lazy = tuple(counted(c, 16) for c in columns)
    result = xs.ravel_multi_index(lazy, dims, **kwargs)
    assert isinstance(result, da.Array)
    assert counted.computed == 0
    expected = np.ravel_multi_index(tuple(columns), dims, **kwargs)
    np.testing.assert_array_equal(compute(result), expected)
    assert counted.computed > 0
    assert result.dtype == expected.dtype


def test_ravel_multi_index_broadcasts_dask_columns_with_ints_and_arrays():
    rows = np.arange(12).reshape(3, 4) % 4
    lazy = da.from_array(rows, chunks=(2, 3))
    multi_index = [lazy, 2, np.array([0, 1, 2, 0])]
    result = xs.ravel_multi_index(multi_index, (4, 3, 5))
    assert isinstance(result, da.Array) and result.shape == (3, 4)
    np.testing.assert_array_equal(
        compute(result), np.ravel_multi_index([rows, 2, np.array([0, 1, 2, 0])], (4, 3, 5))
    )


def test_ravel_multi_index_of_a_dask_rank_by_n_array():
    rows = np.array([[0, 1, 1, 0], [2, 0, 2, 1]])
    result = xs.ravel_multi_index(da.from_array(rows, chunks=(1, 2)), (2, 3))
    assert isinstance(result, da.Array)
    np.testing.assert_array_equal(compute(result), np.ravel_multi_index(rows, (2, 3)))


def test_dask_keeps_xlashape_layouts():
    """padded_dims and a minor_to_major order carry over to xlashape.dask."""
    rng = np.random.default_rng(2)
    dims, order, padded = (4, 6, 3), (1, 2, 0), (5, 8, 3)
    columns = tuple(rng.integers(0, d, 40) for d in dims)
    lazy = tuple(da.from_array(c, chunks=7) for c in columns)
    options = {"order": order, "padded_dims": padded}
    offsets = xs.ravel_multi_index(lazy, dims, **options)
    expected = xs.ravel_multi_index(columns, dims, **options)
    np.testing.assert_array_equal(compute(offsets), expected)
    back = xs.unravel_index(offsets, dims, **options)
    assert all(isinstance(b, da.Array) for b in back)
    for got, want in zip(compute(back), xs.unravel_index(expected, dims, **options)):
        np.testing.assert_array_equal(got, want)


@given(
    dims=st.lists(st.integers(1, 6), min_size=1, max_size=4),
    shape=st.lists(st.integers(1, 5), min_size=0, max_size=2),
    chunk=st.integers(1, 4),
    order=st.sampled_from("CF"),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=30, deadline=None)
def test_unravel_index_of_dask_indices_matches_numpy(dims, shape, chunk, order, seed):
    size = int(np.prod(dims))
    indices = np.random.default_rng(seed).integers(0, size, shape)
    counted = Counted()
    lazy = counted(indices, chunk)
    result = xs.unravel_index(lazy, dims, order=order)
    assert isinstance(result, tuple) and all(isinstance(r, da.Array) for r in result)
    assert counted.computed == 0
    expected = np.unravel_index(indices, dims, order=order)
    for got, want in zip(compute(result), expected, strict=True):
        np.testing.assert_array_equal(got, want)
        assert got.shape == want.shape


@pytest.mark.parametrize("dims", [(-1, 5), (2, -3), (2**40, 2**40)])
def test_bad_dims_with_dask_columns_compute_nothing(dims):
    counted = Counted()
    lazy = counted(np.array([0, 1]), 1)
    with pytest.raises(ValueError):
        xs.ravel_multi_index((lazy, lazy), dims)
    with pytest.raises(ValueError):
        xs.unravel_index(lazy, dims)
    assert counted.computed == 0


def test_dask_errors():
    lazy = da.from_array(np.array([0, 9]), chunks=1)
    with pytest.raises(TypeError, match="out= cannot receive a lazy Dask result"):
        xs.ravel_multi_index((lazy, lazy), (10, 10), out=np.empty(2, np.int64))
    with pytest.raises(TypeError, match="out= cannot receive a lazy Dask result"):
        xs.unravel_index(lazy, (10, 10), out=np.empty((2, 2), np.int64))
    with pytest.raises(ValueError, match="sequence of length 2"):
        xs.ravel_multi_index((lazy,), (10, 10))
    with pytest.raises(ValueError, match="clipmode"):
        xs.ravel_multi_index((lazy, lazy), (10, 10), mode="bounce")
    result = xs.ravel_multi_index((lazy, lazy), (10, 5))  # 9 is out of range
    with pytest.raises(IndexError, match="index 9 is out of bounds for dimension 1 with size 5"):
        compute(result)


# -- any other __array_function__ type ------------------------------------------------
NUMPY_DEFAULTS = {"mode": "raise", "order": "C"}


class Duck:
    """The least an array library needs for NumPy to hand it calls: an
    ``__array_function__`` that records them and answers for itself."""

    calls: ClassVar[list] = []

    def __init__(self, values) -> None:
        self.values = np.asarray(values)

    def __array_function__(self, func, types, args, kwargs):
        Duck.calls.append((func, types, kwargs))
        return ("handled by Duck", func.__name__, args[1:])


def outcome(call, module):
    """What ``call(module)`` returns, or the type and message it raises."""
    try:
        return "returns", call(module)
    except Exception as e:
        return "raises", type(e), str(e)


@pytest.fixture
def calls():
    Duck.calls = []
    return Duck.calls


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.ravel_multi_index((Duck([0, 1]), np.array([1, 2])), (2, 3)),
        lambda m: m.ravel_multi_index([np.array([0, 1]), Duck([1, 2])], (2, 3), mode="wrap", order="F"),
        lambda m: m.ravel_multi_index(Duck([[0, 1], [1, 2]]), (2, 3)),
        lambda m: m.unravel_index(Duck([3, 4]), (2, 3)),
        lambda m: m.unravel_index(Duck([3, 4]), (2, 3), order="F"),
    ],
)
def test_other_array_function_types_get_numpys_dispatch(calls, call):
    expected = outcome(call, np)
    assert outcome(call, xs) == expected
    if expected[0] == "raises":  # NumPy iterates a (rank, N) Duck: this one cannot be
        assert calls == []
        return
    (function, types, kwargs), (our_function, our_types, our_kwargs) = calls
    assert (our_function, our_types) == (function, types)
    assert function in (np.ravel_multi_index, np.unravel_index)
    # NumPy's defaults are passed by name; what the caller gave, as given
    assert our_kwargs == {**{k: NUMPY_DEFAULTS[k] for k in our_kwargs}, **kwargs}


def test_arguments_numpy_has_not_are_refused_for_other_types(calls):
    for kwargs in ({"padded_dims": (2, 4)}, {"order": (0, 1)}, {"out": np.empty(2, np.int64)}):
        with pytest.raises(TypeError, match="index arrays are Duck, which implement __array_function__"):
            xs.ravel_multi_index((Duck([0, 1]), np.array([1, 2])), (2, 3), **kwargs)
    with pytest.raises(TypeError, match="takes no padded_dims="):
        xs.unravel_index(Duck([3]), (2, 3), padded_dims=(2, 4))
    assert calls == []


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_ndarray_subclasses_without_their_own_array_function_stay_here():
    """np.matrix and masked arrays inherit ndarray's __array_function__, so
    NumPy dispatches nothing: the drop-ins answer as before."""
    matrix = np.matrix([[0, 1, 1], [2, 0, 2]])
    np.testing.assert_array_equal(xs.ravel_multi_index(matrix, (2, 3)), np.ravel_multi_index(matrix, (2, 3)))
    masked = np.ma.masked_array([2, 3, 5], mask=[0, 1, 0])
    for got, want in zip(xs.unravel_index(masked, (2, 3)), np.unravel_index(masked, (2, 3))):
        np.testing.assert_array_equal(got, want)
