"""Issue 22, item 8, and issue 32, item 3: the drop-ins' fast paths for
buffer-protocol objects (memoryviews, as scikit-image's
``morphology/_max_tree.pyx`` passes its shape, ``array.array``, ctypes
arrays) and short lists, against NumPy: both raise the same exception type,
or both return equal values of one type, dtype and shape."""

import array

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from inputs import UNUSUAL_BUFFERS, buffer_forms, index_arrays
from test_numpy_compat import assert_same, outcome

import xlashape as xs
from xlashape.drop_ins import _drop_ins

MODES = ["raise", "wrap", "clip"]
# NumPy's integer dtypes: their memoryviews have the native formats b B h H i I l L
INTEGER_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@st.composite
def memoryview_calls(draw):
    """A shape as a 1-D memoryview of native integers (or a tuple), and one
    multi-index as such a memoryview (or a tuple of ints), in bounds or not."""
    rank = draw(st.integers(1, 4))
    dims = draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank))
    index = [draw(st.integers(-2, d + 1)) for d in dims]
    shape_dtype = draw(st.sampled_from(INTEGER_DTYPES))
    index_dtype = draw(st.sampled_from([np.int8, np.int16, np.int32, np.int64]))
    shape = memoryview(np.array(dims, dtype=shape_dtype)) if draw(st.booleans()) else tuple(dims)
    multi_index = memoryview(np.array(index, dtype=index_dtype))
    return multi_index, shape, index, draw(st.sampled_from(MODES)), draw(st.sampled_from("CF"))


@given(memoryview_calls())
def test_memoryviews_as_numpy_reads_them(call):
    multi_index, shape, index, mode, order = call

    def numpy_ravel():
        return np.ravel_multi_index(multi_index, shape, mode=mode, order=order)

    assert_same(lambda: xs.ravel_multi_index(multi_index, shape, mode, order), numpy_ravel)
    fast = _drop_ins.try_ravel_multi_index(multi_index, shape, mode, order)
    assert (fast is None) == (outcome(numpy_ravel)[0] == "error")
    size = int(np.prod(np.asarray(shape)))
    for linear in (0, size - 1, size, -1):
        assert_same(lambda linear=linear: xs.unravel_index(linear, shape, order),
                    lambda linear=linear: np.unravel_index(linear, shape, order))
    if 0 <= index[0] < size:
        assert _drop_ins.try_unravel_index(index[0], shape, order) is not None


@st.composite
def list_calls(draw):
    """rank lists of Python ints of one length (sometimes not, or with a
    bool, a NumPy integer or an int past int64 in them)."""
    rank = draw(st.integers(1, 4))
    dims = tuple(draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank)))
    n = draw(st.integers(1, 12))
    lists = [[draw(st.integers(-2, d + 1)) for _ in range(n)] for d in dims]
    odd = draw(st.sampled_from(["none"] * 6 + ["bool", "numpy int", "huge", "ragged", "empty"]))
    column = lists[draw(st.integers(0, rank - 1))]
    if odd == "bool":
        column[0] = True
    elif odd == "numpy int":
        column[0] = np.int64(column[0])
    elif odd == "huge":
        column[0] = 2**70
    elif odd == "ragged":
        column.append(0)
        if rank == 1:  # one list is never ragged: every list has one length
            odd = "none"
    elif odd == "empty":
        column.clear()
    container = tuple if draw(st.booleans()) else list
    return container(lists), dims, draw(st.sampled_from(MODES)), draw(st.sampled_from("CF")), odd


@given(list_calls())
def test_short_lists_as_numpy_reads_them(call):
    lists, dims, mode, order, odd = call

    def numpy():
        return np.ravel_multi_index(lists, dims, mode=mode, order=order)

    assert_same(lambda: xs.ravel_multi_index(lists, dims, mode, order), numpy)
    fast = _drop_ins.try_ravel_multi_index(lists, dims, mode, order)
    if outcome(numpy)[0] == "error" or odd != "none":
        assert fast is None  # the general path reads these
    else:
        assert fast is not None, "the fast path handed over a call it takes"


def test_long_lists_take_the_general_path():
    columns = ([1] * 200, [2] * 200)
    assert _drop_ins.try_ravel_multi_index(columns, (3, 4)) is None
    assert_same(lambda: xs.ravel_multi_index(columns, (3, 4)),
                lambda: np.ravel_multi_index(columns, (3, 4)))


def _released():
    view = memoryview(np.array([3, 4], dtype=np.int32))
    view.release()
    return view


@pytest.mark.parametrize(
    "shape",
    [
        memoryview(np.array([3, 4], dtype=">i4")),  # not native: format '>i'
        memoryview(np.array([3, 4], dtype=np.float64)),
        memoryview(np.array([True, True])),
        memoryview(np.array([[3, 4]], dtype=np.int32)),  # 2-D
        memoryview(np.array(3, dtype=np.int32)),  # 0-d
        memoryview(array.array("q", [3, 4])),
        memoryview(b"\x03\x04"),  # unsigned bytes, format 'B'
        memoryview(np.array([3, 4], dtype=np.int32)).cast("B").cast("i"),
        memoryview(np.array([2**63 - 1, 4], dtype=np.uint64)),
        _released(),
    ],
    ids=["big-endian", "float", "bool", "2-D", "0-d", "array.array", "bytes", "cast", "huge", "released"],
)
def test_other_buffers_as_shape_answer_as_numpy(shape):
    for multi_index in ((1, 2), memoryview(np.array([1, 2], dtype=np.int32))):
        assert_same(lambda m=multi_index: xs.ravel_multi_index(m, shape),
                    lambda m=multi_index: np.ravel_multi_index(m, shape))
    assert_same(lambda: xs.unravel_index(5, shape), lambda: np.unravel_index(5, shape))


@pytest.mark.parametrize(
    "multi_index",
    [
        memoryview(np.array([[1, 2], [0, 3]], dtype=np.int32)),  # (rank, N)
        memoryview(np.array([1, 2], dtype=">i8")),
        memoryview(np.array([1.0, 2.0])),
        memoryview(np.array([1, 2, 0], dtype=np.int32)),  # rank 3 for rank-2 dims
        # (not a released one: NumPy's own error for it varies from call to call)
    ],
    ids=["2-D", "big-endian", "float", "too long"],
)
def test_other_buffers_as_multi_index_answer_as_numpy(multi_index):
    assert_same(lambda: xs.ravel_multi_index(multi_index, (3, 4)),
                lambda: np.ravel_multi_index(multi_index, (3, 4)))


def test_a_memoryview_shape_shares_the_tuples_cached_layout():
    """The cache key is the values: one layout for (5, 7) however passed."""
    view = memoryview(np.array([5, 7], dtype=np.int32))
    assert xs.unravel_index(17, view) == np.unravel_index(17, (5, 7))
    assert xs.unravel_index(17, (5, 7)) == np.unravel_index(17, view)
    index = memoryview(np.array([2, 3], dtype=np.int32))
    assert xs.ravel_multi_index(index, view) == np.ravel_multi_index(index, (5, 7)) == 17


@st.composite
def buffer_calls(draw):
    """dims, one multi-index and a few linear indices (each in bounds or
    not), a mode and an order: for buffer_forms of each."""
    rank = draw(st.integers(1, 4))
    dims = draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank))
    index = [draw(st.integers(-2, d + 1)) for d in dims]
    size = int(np.prod(dims))
    linear = draw(st.lists(st.integers(-2, size + 1), min_size=1, max_size=8))
    return dims, index, linear, draw(st.sampled_from(MODES)), draw(st.sampled_from("CF"))


def _fast_as_expected(fast, label, numpy):
    """The fast path took the call (not None) exactly when NumPy returns
    and the buffer is 1-D, aligned and of native integers."""
    if label in UNUSUAL_BUFFERS:
        assert fast is None, label
    else:
        assert (fast is None) == (outcome(numpy)[0] == "error"), label


@given(buffer_calls())
def test_buffer_exporters_as_numpy_reads_them(call):
    dims, index, linear, mode, order = call
    for _, shape in [*buffer_forms(dims), *index_arrays(np.array(dims))]:
        assert_same(lambda shape=shape: xs.ravel_multi_index(tuple(index), shape, mode, order),
                    lambda shape=shape: np.ravel_multi_index(tuple(index), shape, mode=mode,
                                                             order=order))
        assert_same(lambda shape=shape: xs.unravel_index(linear[0], shape, order),
                    lambda shape=shape: np.unravel_index(linear[0], shape, order))
    for label, multi_index in buffer_forms(index):

        def numpy_ravel(multi_index=multi_index):
            return np.ravel_multi_index(multi_index, dims, mode=mode, order=order)

        assert_same(lambda m=multi_index: xs.ravel_multi_index(m, dims, mode, order), numpy_ravel)
        _fast_as_expected(_drop_ins.try_ravel_multi_index(multi_index, dims, mode, order), label,
                          numpy_ravel)
    for label, indices in buffer_forms(linear):

        def numpy_unravel(indices=indices):
            return np.unravel_index(indices, dims, order)

        assert_same(lambda i=indices: xs.unravel_index(i, dims, order), numpy_unravel)
        _fast_as_expected(_drop_ins.try_unravel_index(indices, dims, order), label, numpy_unravel)


def test_buffer_indices_are_not_modified():
    for label, indices in buffer_forms([5, 0, 11]):
        if label == "float64":  # refused
            continue
        before = memoryview(indices).tobytes()
        xs.unravel_index(indices, (3, 4))
        assert memoryview(indices).tobytes() == before


def test_bytes_are_refused_even_where_their_values_are_cached():
    xs.unravel_index(0, (2, 3))  # the layout of (2, 3), cached by value
    for dims in (b"\x02\x03", bytearray(b"\x02\x03")):
        with pytest.raises(TypeError, match="NumPy would read its byte values"):
            xs.unravel_index(0, dims)
        with pytest.raises(TypeError, match="NumPy would read its byte values"):
            xs.ravel_multi_index((0, 0), dims)
