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


# Index arrays whose chunk sizes Dask leaves unknown: what flatnonzero and
# boolean masks give. Each maker takes a Dask array of values and returns the
# lazy indices and a NumPy function giving the same from the computed values.
UNKNOWN_CHUNKS = {
    "flatnonzero": (lambda x: da.flatnonzero(x % 5 == 0), lambda v: np.flatnonzero(v % 5 == 0)),
    "boolean mask": (lambda x: x[x > 7], lambda v: v[v > 7]),
    "mask on rows": (lambda x: x[x[:, 0] % 2 == 0], lambda v: v[v[:, 0] % 2 == 0]),
}


def unknown_chunk_indices(maker, values, chunks):
    lazy_of, numpy_of = UNKNOWN_CHUNKS[maker]
    counted = Counted()
    lazy = lazy_of(counted(values, chunks))
    assert any(np.isnan(lazy.shape)) and counted.computed == 0
    return lazy, numpy_of(values), counted


@pytest.mark.parametrize("maker", UNKNOWN_CHUNKS)
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index_of_unknown_chunk_sizes_is_lazy_and_matches_numpy(maker, order):
    dims = (5, 9)  # 45 elements: the flat positions of a (9, 5) array
    values = np.random.default_rng(3).integers(0, 24, (9, 5))
    lazy, indices, counted = unknown_chunk_indices(maker, values, (2, 3))
    result = xs.unravel_index(lazy, dims, order=order)
    assert isinstance(result, tuple) and all(isinstance(r, da.Array) for r in result)
    assert all(str(r.chunks) == str(lazy.chunks) for r in result)  # still unknown (nan)
    assert counted.computed == 0
    expected = np.unravel_index(indices, dims, order=order)
    for got, want in zip(compute(result), expected, strict=True):
        np.testing.assert_array_equal(got, want)
        assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("maker", UNKNOWN_CHUNKS)
@pytest.mark.parametrize("mode", ["raise", "clip"])
def test_ravel_multi_index_of_unknown_chunk_sizes_is_lazy_and_matches_numpy(maker, mode):
    dims = (45, 10)
    values = np.random.default_rng(4).integers(0, 24, (9, 5))
    lazy, indices, counted = unknown_chunk_indices(maker, values, (2, 3))
    # columns of the same chunks, beside an int and a 0-d array that broadcast
    cases = [
        ((lazy, lazy % 7), (indices, indices % 7)),
        ((lazy, 3), (indices, 3)),
        ((np.int64(2), lazy % 10), (np.int64(2), indices % 10)),
    ]
    results = [xs.ravel_multi_index(multi_index, dims, mode=mode) for multi_index, _ in cases]
    for result in results:
        assert isinstance(result, da.Array) and str(result.chunks) == str(lazy.chunks)
    assert counted.computed == 0
    for result, (_, numpy_index) in zip(results, cases):
        expected = np.ravel_multi_index(numpy_index, dims, mode=mode)
        got = compute(result)
        np.testing.assert_array_equal(got, expected)
        assert got.shape == expected.shape and got.dtype == expected.dtype


def test_unravel_then_ravel_of_unknown_chunk_sizes_round_trips():
    values = np.arange(60).reshape(6, 10) % 7
    x = da.from_array(values, chunks=(4, 3))
    flat = da.flatnonzero(x == 0)
    positions = xs.unravel_index(flat, x.shape, order="F")
    back = xs.ravel_multi_index(positions, x.shape, order="F")
    assert isinstance(back, da.Array) and np.isnan(back.shape[0])
    np.testing.assert_array_equal(compute(back), np.flatnonzero(values == 0))


@pytest.mark.parametrize("value", [0, 7, 23])
def test_0d_dask_indices_compute_to_numpys_scalars(value):
    dims = (4, 6)
    counted = Counted()
    expected = np.unravel_index(np.array(value), dims)
    row, column = expected
    positions = xs.unravel_index(counted(np.array(value), ()), dims)
    offset = xs.ravel_multi_index((counted(np.array(row), ()), column), dims)
    assert all(isinstance(r, da.Array) and r.shape == () for r in (*positions, offset))
    assert counted.computed == 0
    for got, want in zip(compute(positions), expected, strict=True):
        assert type(got) is type(want) and got == want
    got, want = compute(offset), np.ravel_multi_index((np.array(row), column), dims)
    assert type(got) is type(want) and got == want


def global_row_message(numpy_error: Exception, chunks: tuple[tuple[int, ...], ...], position) -> str:
    """The NumPy-level drop-in's message, with the chunk and the row (C order)
    within it that hold the bad index at ``position`` added."""
    chunk, within = [], []
    for sizes, p in zip(chunks, position):
        starts = np.cumsum((0,) + sizes)
        c = int(np.searchsorted(starts, p, side="right")) - 1
        chunk.append(c)
        within.append((p - starts[c], sizes[c]))
    local = int(np.ravel_multi_index([w for w, _ in within], [n for _, n in within]))
    message = str(numpy_error)
    at = message[message.index(" at row ") :].split(";")[0]
    return message.replace(at, f"{at} (row {local} of chunk {tuple(chunk)})")


@pytest.mark.parametrize("position", [(0, 0), (1, 4), (3, 2), (4, 5)])
def test_errors_in_nd_dask_arrays_name_the_row_numpys_drop_in_names(position):
    chunks = ((2, 2, 1), (3, 3))
    indices = np.arange(30).reshape(5, 6) % 12
    indices[position] = 99  # outside (3, 4)'s 12 elements
    lazy = da.from_array(indices, chunks=chunks)
    with pytest.raises(xs.IndexOutOfBoundsError) as numpy_error:
        xs.unravel_index(indices, (3, 4))
    with pytest.raises(xs.IndexOutOfBoundsError) as dask_error:
        compute(xs.unravel_index(lazy, (3, 4)))
    assert str(dask_error.value) == global_row_message(numpy_error.value, chunks, position)
    columns = (indices, 1)
    with pytest.raises(xs.IndexOutOfBoundsError) as numpy_error:
        xs.ravel_multi_index(columns, (12, 4))
    with pytest.raises(xs.IndexOutOfBoundsError) as dask_error:
        compute(xs.ravel_multi_index((lazy, 1), (12, 4)))
    assert str(dask_error.value) == global_row_message(numpy_error.value, chunks, position)


def test_non_integer_dask_indices_are_refused_at_once():
    lazy = da.from_array(np.array([0.0, 1.0]), chunks=1)
    with pytest.raises(TypeError, match="indices must hold integers, got dtype float64"):
        xs.unravel_index(lazy, (2, 3))
    with pytest.raises(TypeError, match=r"multi_index\[1\] must hold integers, got dtype float64"):
        xs.ravel_multi_index((lazy.astype(int), lazy), (2, 3))


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
