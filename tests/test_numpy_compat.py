"""The drop-ins behave exactly as NumPy's functions, and go further."""

import functools
import threading

import hypothesis.extra.numpy as npst
import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings
from inputs import DTYPES, ORDERS, array_forms, index_arrays
from oracles import numpy_ravel
from strategies import all_multi_indices, shapes

import xlashape as xs
from xlashape import cpu
from xlashape.drop_ins import _drop_ins, numpy_compat

DIMS = (3, 4, 5)
ROWS = np.array([[0, 0, 0], [2, 3, 4], [1, 2, 3], [2, 0, 4], [1, 1, 1]])


def outcome(call):
    """('ok', value) or ('error', exception type) of a call."""
    try:
        return "ok", call()
    except Exception as e:  # the type is what is compared
        return "error", type(e)


def assert_same(ours, theirs):
    """Both raise the same exception type, or both return equal values of
    equal dtypes and shapes (tuples element by element)."""
    (kind, a), (kind_np, b) = outcome(ours), outcome(theirs)
    if kind_np == "error":
        assert kind == "error", f"NumPy raised {b.__name__}, xlashape returned {a!r}"
        assert issubclass(a, b), f"NumPy raised {b.__name__}, xlashape {a.__name__}"
        return
    assert kind == "ok", f"xlashape raised {a.__name__}, NumPy returned {b!r}"
    pairs = zip(a, b) if isinstance(b, tuple) else [(a, b)]
    assert type(a) is type(b)
    for x, y in pairs:
        assert type(x) is type(y)
        assert np.shape(x) == np.shape(y) and np.asarray(x).dtype == np.asarray(y).dtype
        np.testing.assert_array_equal(x, y)


# -- same results as NumPy ---------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("wrap", "clip", "raise")])
@pytest.mark.parametrize("label, rows", list(index_arrays(ROWS)))
def test_ravel_every_input_form(label, rows, mode, order):
    columns = tuple(np.asarray(rows).T)
    assert_same(
        lambda: xs.ravel_multi_index(columns, DIMS, mode=mode, order=order),
        lambda: np.ravel_multi_index(columns, DIMS, mode=mode, order=order),
    )


@settings(max_examples=300, deadline=None)
@given(
    dims=st.lists(st.integers(1, 50), min_size=1, max_size=5),
    data=st.data(),
    mode=st.sampled_from(["wrap", "clip"]),
    order=st.sampled_from(["C", "F"]),
)
def test_one_multi_index_in_every_mode(dims, data, mode, order):
    # One multi-index of Python ints is brought into range before the
    # kernel runs; anywhere in int64, far out of range included.
    index = tuple(data.draw(st.one_of(st.integers(-3 * d, 3 * d), st.integers(-2**63, 2**63 - 1)))
                  for d in dims)
    assert_same(
        lambda: xs.ravel_multi_index(index, dims, mode=mode, order=order),
        lambda: np.ravel_multi_index(index, dims, mode=mode, order=order),
    )


@pytest.mark.parametrize("label, transposed", list(index_arrays(ROWS.T)))
def test_ravel_of_a_rank_by_n_array(label, transposed):
    assert_same(
        lambda: xs.ravel_multi_index(transposed, DIMS),
        lambda: np.ravel_multi_index(transposed, DIMS),
    )


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("label, offsets", list(index_arrays(np.array([0, 59, 17, 33, 1]))))
def test_unravel_every_input_form(label, offsets, order):
    assert_same(
        lambda: xs.unravel_index(offsets, DIMS, order=order),
        lambda: np.unravel_index(offsets, DIMS, order=order),
    )


@pytest.mark.parametrize(
    "multi_index, dims",
    [
        ((1, 2), (3, 4)),  # scalars give a scalar
        ((np.int8(1), np.uint64(2)), (3, 4)),
        ((np.array([[1, 2]]), np.array([0, 1])), (3, 3)),  # broadcasting
        ((np.array([[1], [2]]), np.array([0, 1, 2])), (3, 3)),
        ((np.array([], dtype=int), np.array([], dtype=int)), (2, 0)),
        ((np.array([True, False]), 1), (2, 2)),
        ((), ()),
        ((1,), 6),
        ([[1, 2], [0, 1]], (3, 4)),
        (np.array([[[1, 2]], [[0, 1]]]), (3, 3)),
        ((1, 2), np.array([3, 3])),
        ((np.array(1), np.array(2)), (3, 4)),
    ],
)
def test_ravel_shapes_and_scalars(multi_index, dims):
    assert_same(
        lambda: xs.ravel_multi_index(multi_index, dims),
        lambda: np.ravel_multi_index(multi_index, dims),
    )


@pytest.mark.parametrize(
    "indices, shape",
    [
        (5, (2, 3)),
        (np.int8(5), (2, 3)),
        ([5, 1], (2, 3)),
        (np.array([[5, 1], [0, 2]]), (2, 3)),
        (np.array([], dtype=np.uint64), (2, 3)),
        (0, ()),
        (np.zeros((2, 0), dtype=int), (2, 3)),
        (True, (2, 3)),
        (np.array(4, dtype=np.int16), np.array([2, 3])),
        (np.array([3], dtype=np.int8), 6),
    ],
)
def test_unravel_shapes_and_scalars(indices, shape):
    assert_same(
        lambda: xs.unravel_index(indices, shape),
        lambda: np.unravel_index(indices, shape),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f(np.array([1.0]), (2,)),
        lambda f: f((np.array([1]), np.array([0])), (2, 0), mode="wrap"),
        lambda f: f((np.array([1]), np.array([0])), (2, 0), mode="clip"),
        lambda f: f((np.array([5]), np.array([0])), (2, 0)),
        lambda f: f((np.array([5]), np.array([0])), (2, 2)),
        lambda f: f((np.array([-1]), np.array([0])), (2, 2)),
        lambda f: f((np.array([5]), np.array([0])), (2**40, 2**40)),
        lambda f: f((np.array([5]), np.array([0])), (-2, 3)),
        lambda f: f((np.array([1]),), (3, 3)),
        lambda f: f((1, 1), (3, 3), mode=("wrap", "bogus")),
        lambda f: f((1, 1), (3, 3), mode=("wrap",)),
        lambda f: f((1, 1), (3, 3), order="X"),
        lambda f: f(np.array([[1], [1]], dtype=object), (3, 3)),
        lambda f: f((np.array([[1, 2]]), np.array([0, 1, 1])), (3, 3)),
        lambda f: f((1, 2), (3.0, 3)),
        lambda f: f([[]], (3,)),
    ],
)
def test_ravel_raises_what_numpy_raises(call):
    assert_same(lambda: call(xs.ravel_multi_index), lambda: call(np.ravel_multi_index))


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f([0, 0], ()),
        lambda f: f(np.array([], dtype=int), ()),
        lambda f: f(6, (2, 3)),
        lambda f: f(-1, (2, 3)),
        lambda f: f(1.0, (2, 3)),
        lambda f: f(np.array([1.0]), (2, 3)),
        lambda f: f([], (2, 3)),
        lambda f: f(0, (2, 0)),
        lambda f: f(1, (3, -3)),
        lambda f: f(1, (2**62, 4)),
        lambda f: f(5, (3, 3), order="A"),
    ],
)
def test_unravel_raises_what_numpy_raises(call):
    assert_same(lambda: call(xs.unravel_index), lambda: call(np.unravel_index))


# -- beyond NumPy -------------------------------------------------------------


@given(shapes(min_rank=1, max_rank=5))
def test_minor_to_major_order_and_padding(shape):
    rows = all_multi_indices(shape)
    order, padded = shape.layout.minor_to_major, shape.layout.padded_dimensions or None
    linear = xs.ravel_multi_index(tuple(rows.T), shape.dimensions, order=order, padded_dims=padded)
    np.testing.assert_array_equal(linear, numpy_ravel(shape, rows))
    back = xs.unravel_index(linear, shape.dimensions, order=order, padded_dims=padded)
    np.testing.assert_array_equal(np.stack(back, axis=-1).reshape(rows.shape), rows)


def test_errors_name_row_dimension_and_value():
    with pytest.raises(ValueError, match=r"index 7 is out of bounds for dimension 1 with size 4 at row 2"):
        xs.ravel_multi_index((np.array([0, 1, 2]), np.array([0, 3, 7])), (3, 4))
    with pytest.raises(ValueError, match=r"linear index 12 is out of bounds for a buffer of 12 elements at row 1"):
        xs.unravel_index(np.array([0, 12]), (3, 4))
    with pytest.raises(IndexError, match=r"lands on padding"):
        xs.unravel_index(3, (3, 4), order="F", padded_dims=(4, 4))


def test_out_arguments():
    out = np.zeros(5, dtype=np.int64)
    assert xs.ravel_multi_index(tuple(ROWS.T), DIMS, out=out) is out
    np.testing.assert_array_equal(out, np.ravel_multi_index(tuple(ROWS.T), DIMS))
    out2 = np.zeros(5, dtype=np.int64)
    assert xs.ravel_multi_index(ROWS.T, DIMS, out=out2) is out2
    np.testing.assert_array_equal(out2, out)
    rows_out = np.zeros((3, 5), dtype=np.int64)
    result = xs.unravel_index(out, DIMS, out=rows_out)
    assert all(np.shares_memory(r, rows_out) for r in result)
    np.testing.assert_array_equal(rows_out, ROWS.T)
    with pytest.raises(ValueError, match=r"out must have shape \(5,\)"):
        xs.ravel_multi_index(tuple(ROWS.T), DIMS, out=np.zeros(4, dtype=np.int64))
    with pytest.raises(ValueError, match="C-contiguous"):
        xs.ravel_multi_index(tuple(ROWS.T), DIMS, out=np.zeros(10, dtype=np.int64)[::2])
    with pytest.raises(TypeError, match="int64"):
        xs.unravel_index(out, DIMS, out=np.zeros((3, 5), dtype=np.int32))


# -- NumPy's known bugs, one regression test each ------------------------------


def test_numpy_7546_big_indices():
    # Indices near the int64 limit must not overflow in the multiply-add.
    dims = (2**32, 2**31 - 1)
    index = (2**32 - 1, 2**31 - 2)
    expected = (2**32 - 1) * (2**31 - 1) + 2**31 - 2
    assert xs.ravel_multi_index(index, dims) == expected
    assert xs.unravel_index(expected, dims) == index
    big = (np.array([2**32 - 1, 0]), np.array([2**31 - 2, 1]))
    np.testing.assert_array_equal(xs.ravel_multi_index(big, dims), [expected, 1])


def test_numpy_9538_huge_shapes_are_refused_not_wrapped():
    with pytest.raises(ValueError, match="more than the int64 maximum"):
        xs.ravel_multi_index((1, 1, 1), (2**31, 2**31, 4))
    with pytest.raises(ValueError, match="more than the int64 maximum"):
        xs.unravel_index(1, (2**62, 4))


def test_numpy_15690_zero_dimensions():
    assert xs.ravel_multi_index((np.array([], dtype=int),) * 2, (0, 3)).shape == (0,)
    assert [a.shape for a in xs.unravel_index(np.array([], dtype=int), (0, 3))] == [(0,), (0,)]
    with pytest.raises(ValueError):
        xs.unravel_index(0, (0, 3))
    with pytest.raises(ValueError):
        xs.ravel_multi_index((np.array([0]), np.array([0])), (0, 3), mode="clip")


def test_numpy_19832_uint64_wrap_is_exact():
    # NumPy returns 21: it casts 2**63 + 5 to int64 first.
    index = (np.uint64(2**63 + 5), 0)
    assert xs.ravel_multi_index(index, (10, 3), mode="wrap") == ((2**63 + 5) % 10) * 3 == 9
    assert xs.ravel_multi_index(index, (10, 3), mode="clip") == 27
    with pytest.raises(ValueError, match="index 9223372036854775813 is out of bounds for dimension 0"):
        xs.ravel_multi_index(index, (10, 3))
    for dtype in DTYPES:
        values = np.array([np.iinfo(dtype).max, np.iinfo(dtype).min], dtype=dtype)
        expected = [(int(v) % 10) * 3 for v in values]
        assert xs.ravel_multi_index((values, np.zeros(2, dtype)), (10, 3), mode="wrap").tolist() == expected


def test_numpy_31980_long_n_by_1_input():
    # (N, 1) input longer than NumPy's 8192-element buffer.
    rows = np.arange(20000).reshape(-1, 1) % 7
    np.testing.assert_array_equal(xs.ravel_multi_index(rows.T, (7,)), rows[:, 0])
    np.testing.assert_array_equal(xs.ravel(rows, xs.Shape("f32", [7])), rows[:, 0])
    np.testing.assert_array_equal(xs.unravel_index(rows[:, 0], (7,))[0], rows[:, 0])


def test_order_and_padding_may_be_arrays():
    rows = (np.array([1, 2]), np.array([3, 0]))
    expected = xs.ravel_multi_index(rows, (3, 4), order=(0, 1), padded_dims=(4, 4))
    got = xs.ravel_multi_index(rows, (3, 4), order=np.array([0, 1]), padded_dims=np.array([4, 4]))
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(expected, [13, 2])


def test_rank_zero_out_is_checked():
    with pytest.raises(TypeError, match="int64"):
        xs.ravel_multi_index((), (), out=np.zeros((), dtype=np.int32))
    out = np.full((), 7, dtype=np.int64)
    assert xs.ravel_multi_index((), (), out=out) is out and out == 0


# -- argument spellings and forms, as NumPy reads them (issue 12) --------------

DIMS2 = (3, 4)


@pytest.mark.parametrize(
    "call",
    [
        # rank 0: a (0, N) array, of any dtype, is an empty multi-index
        lambda f: f(np.zeros((0, 5), dtype=int), ()),
        lambda f: f(np.zeros((0, 5)), ()),
        lambda f: f(np.zeros(0), ()),
        lambda f: f("", ()),
        lambda f: f([], ()),
        # order as NumPy spells it
        lambda f: f((1, 2), DIMS2, order="c"),
        lambda f: f((1, 2), DIMS2, order="f"),
        lambda f: f((1, 2), DIMS2, order=b"C"),
        lambda f: f((1, 2), DIMS2, order=b"f"),
        lambda f: f((1, 2), DIMS2, order=None),
        lambda f: f((1, 2), DIMS2, order="A"),
        lambda f: f((1, 2), DIMS2, order="k"),
        lambda f: f((1, 2), DIMS2, order="CC"),
        lambda f: f((1, 2), DIMS2, order=""),
        lambda f: f((1, 2), DIMS2, order=1),
        # mode as NumPy spells it
        lambda f: f((1, 5), DIMS2, mode=b"clip"),
        lambda f: f((1, 5), DIMS2, mode=[b"clip", "wrap"]),
        lambda f: f((1, 5), DIMS2, mode=np.str_("wrap")),
        lambda f: f((1, 2), DIMS2, mode=None),
        lambda f: f((1, 5), DIMS2, mode=None),
        lambda f: f((1, 5), DIMS2, mode=0),
        lambda f: f((1, 5), DIMS2, mode=1),
        lambda f: f((1, 5), DIMS2, mode=2),
        lambda f: f((1, 5), DIMS2, mode=3),
        lambda f: f((1, 5), DIMS2, mode=True),
        lambda f: f((1, 5), DIMS2, mode=1.0),
        lambda f: f((1, 5), DIMS2, mode="CLIP"),
        lambda f: f((1, 5), DIMS2, mode="c"),
        lambda f: f((1, 5), DIMS2, mode=np.array(["clip", "wrap"])),
        lambda f: f((1, 5), DIMS2, mode=["clip", 1]),
        # an integer mode outside C's int is "not understood" (TypeError)
        lambda f: f((1, 5), DIMS2, mode=2**31 - 1),
        lambda f: f((1, 5), DIMS2, mode=2**31),
        lambda f: f((1, 5), DIMS2, mode=-(2**31) - 1),
        lambda f: f((1, 5), DIMS2, mode=np.uint64(2**63)),
        # multi_index that is not a sequence
        lambda f: f(5, (6,)),
        lambda f: f(np.int64(5), (6,)),
        lambda f: f(np.array(5), (6,)),
        lambda f: f(5, ()),
        lambda f: f((i for i in (1, 2)), DIMS2),
        lambda f: f(iter([1, 2]), DIMS2),
        lambda f: f({1, 2}, DIMS2),
        lambda f: f({1: 2, 3: 4}, DIMS2),
        lambda f: f("ab", DIMS2),
        # entries as NumPy types them
        lambda f: f(([], []), DIMS2),
        lambda f: f((np.array([]), np.array([])), DIMS2),
        lambda f: f((1, 2**64), DIMS2),
        lambda f: f((1, -(2**63) - 1), DIMS2),
        lambda f: f((1, 2**63), DIMS2),
        lambda f: f((True, 2), DIMS2),
        lambda f: f((1, None), DIMS2),
        # dims as NumPy reads them
        lambda f: f((1,), 3),
        lambda f: f((1,), np.int8(3)),
        lambda f: f((1,), np.array(3)),
        lambda f: f((1,), None),
        lambda f: f((1,), True),
        lambda f: f((1,), (True,)),
        lambda f: f((1,), "3"),
        lambda f: f((1,), (3.0,)),
        lambda f: f((1,), (2**64,)),
        lambda f: f((1, 1), (3, [4])),  # ragged dims: TypeError, not ValueError
        lambda f: f((1, 1), (3, np.array([4]))),
        # NumPy's rank limits: at most 64 dims, read before anything else, and
        # ravel_multi_index takes at most 63 (its iterator's NPY_MAXARGS)
        lambda f: f((0,) * 63, (1,) * 63),
        lambda f: f((0,) * 64, (1,) * 64),
        lambda f: f((np.zeros(2, int),) * 64, (1,) * 64),
        lambda f: f((0,) * 65, (1,) * 65),
        lambda f: f((1.0,) * 65, (1,) * 65),
        lambda f: f((0,) * 65, (1,) * 65, order=1),
        # NumPy refuses order 'A'/'K' and dims past int64 after reading mode,
        # and meets a negative dimension only after reading multi_index
        lambda f: f((1, 1), (3, 4), mode=1.5, order="A"),
        lambda f: f((1.0, 1), (3, 4), order="K"),
        lambda f: f((1, 1), (2**62, 4), mode=1.5),
        lambda f: f((1, 1), (2**62, 4), mode=("wrap",)),
        lambda f: f((1, 1), (2**62, 4), mode=1.5, order="X"),
        lambda f: f((1.0, 1), (3, -4)),
        lambda f: f((1,), (3, -4)),
        lambda f: f((1, 1), (3, -4), mode=1.5),
        lambda f: f((1.0, 1), (2**62, -4)),
        lambda f: f((1.0, 1), (-4, 2**62), order="F"),
        lambda f: f((1.0, 1), (3.0, -4)),
        lambda f: f((1.0,) * 64, (-1,) * 64),
    ],
)
def test_ravel_reads_arguments_as_numpy_does(call):
    assert_same(lambda: call(xs.ravel_multi_index), lambda: call(np.ravel_multi_index))


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f(5, DIMS2, order="c"),
        lambda f: f(5, DIMS2, order=b"F"),
        lambda f: f(5, DIMS2, order=None),
        lambda f: f(5, DIMS2, order="K"),
        lambda f: f([5], DIMS2, order="x"),
        lambda f: f(0, ()),
        lambda f: f(1, ()),
        lambda f: f([0], ()),
        lambda f: f([1], ()),
        lambda f: f(np.array([], dtype=int), ()),
        lambda f: f(np.zeros((0, 3), dtype=int), ()),
        lambda f: f([], DIMS2),
        lambda f: f((), DIMS2),
        lambda f: f(np.array([]), DIMS2),
        lambda f: f(2**64, DIMS2),
        lambda f: f(-(2**63) - 1, DIMS2),
        lambda f: f([1, 2**64], DIMS2),
        lambda f: f(2**63, DIMS2),
        lambda f: f(-1, DIMS2),
        lambda f: f(None, DIMS2),
        lambda f: f("1", DIMS2),
        lambda f: f(1 + 0j, DIMS2),
        lambda f: f((i for i in [1]), DIMS2),
        lambda f: f(True, DIMS2),
        lambda f: f(5, None),
        lambda f: f(5, 12),
        lambda f: f(5, np.array([3, 4])),
        lambda f: f(5, (3, [4])),
        lambda f: f(5, (3, np.array([4]))),
        lambda f: f(0, (1,) * 64),
        lambda f: f(np.zeros(2, int), (1,) * 64),
        lambda f: f(0, (1,) * 65),
        lambda f: f(1.0, (1,) * 65),
        lambda f: f(0, (1,) * 65, order=1),
        # NumPy refuses order 'A'/'K' after reading the indices, and meets a
        # negative dimension only among them (unless the size is past int64)
        lambda f: f(1.0, (3, 4), order="A"),
        lambda f: f(1.0, (2**62, 4), order="A"),
        lambda f: f(1.0, (3, -4)),
        lambda f: f("1", (3, -4), order="k"),
        lambda f: f(1.0, (1, -1)),
        lambda f: f(1.0, (2**62, -4)),
        lambda f: f(1.0, (0, -4)),
        lambda f: f(1.0, (3, -4), order="X"),
    ],
)
def test_unravel_reads_arguments_as_numpy_does(call):
    assert_same(lambda: call(xs.unravel_index), lambda: call(np.unravel_index))


def test_rank_zero_ravel_of_an_empty_rank_by_n_array_is_one_zero():
    # NumPy reads a (0, N) array as the empty sequence: the one multi-index
    # of a rank-0 shape, at 0; not as N rank-0 multi-indices.
    for rows in (np.zeros((0, 5), dtype=int), np.zeros((0, 5)), np.zeros((0, 5), dtype=">u2")):
        result = xs.ravel_multi_index(rows, ())
        assert type(result) is np.intp and result == 0


def test_numpy_wrong_dims_with_a_zero_and_a_product_beyond_int64_on_empty_input():
    # NumPy multiplies the sizes until it meets a zero, from the last
    # dimension in ravel_multi_index and from the first in unravel_index, so
    # ravel_multi_index refuses (0, 2**62, 8) and takes (2**62, 8, 0), and
    # unravel_index the other way round. A shape with a zero dimension has
    # no elements and no overflow: xlashape takes both, in both.
    empty = [np.array([], dtype=np.intp)] * 3
    for dims in ((0, 2**62, 8), (2**62, 8, 0)):
        assert xs.ravel_multi_index(empty, dims).shape == (0,)
        assert [a.shape for a in xs.unravel_index(empty[0], dims)] == [(0,)] * 3
    with pytest.raises(ValueError, match="invalid dims"):
        np.ravel_multi_index(empty, (0, 2**62, 8))
    with pytest.raises(ValueError, match="dimensions are too large"):
        np.unravel_index(empty[0], (2**62, 8, 0))


def test_numpy_negative_dims_are_refused_where_numpy_takes_them():
    # NumPy never checks a dimension's sign: under 'wrap' and 'clip' it gives
    # offsets for dims (-3,) ([1, 2] and [-4, -4] for indices [1, 5]), and
    # it takes an empty batch. xlashape refuses negative dims (after what
    # NumPy reads first: see test_ravel_reads_arguments_as_numpy_does).
    for mode in ("wrap", "clip"):
        with pytest.raises(ValueError, match="negative dimensions are not allowed"):
            xs.ravel_multi_index((np.array([1, 5]),), (-3,), mode=mode)
    empty = np.array([], dtype=np.intp)
    with pytest.raises(ValueError, match=r"dimension 1 of \(3, -2\) is -2"):
        xs.ravel_multi_index((empty, empty), (3, -2))
    with pytest.raises(ValueError, match=r"dimension 1 of \(3, -2\) is -2"):
        xs.unravel_index(empty, (3, -2))


@given(
    st.lists(st.integers(-4, 4), min_size=1, max_size=4).filter(lambda dims: min(dims) < 0),
    st.sampled_from(["C", "F"]),
)
def test_numpy_negative_dims_are_refused_in_numpys_words(dims, order):
    # NumPy's own words for a negative dimension (np.empty's), naming the
    # first negative dimension and its value; where NumPy refuses the call
    # too (it takes some: unravel_index of 0 in (-1, -1)), its exception type.
    with pytest.raises(ValueError) as numpy_refusal:
        np.empty(dims)
    first = next(i for i, size in enumerate(dims) if size < 0)
    expected = f"{numpy_refusal.value}; dimension {first} of {tuple(dims)} is {dims[first]}"
    index = np.zeros(1, dtype=np.intp)
    calls = [
        (xs.ravel_multi_index, np.ravel_multi_index, ((index,) * len(dims), dims)),
        (xs.unravel_index, np.unravel_index, (index, dims)),
    ]
    for ours, numpys, args in calls:
        kind, numpy_error = outcome(functools.partial(numpys, *args, order=order))
        with pytest.raises(numpy_error if kind == "error" else ValueError) as refusal:
            ours(*args, order=order)
        assert type(refusal.value) is ValueError and str(refusal.value) == expected


def test_numpy_empty_nested_list_is_a_type_error_not_a_system_error():
    # NumPy returns NULL without an exception for [[]] (a SystemError);
    # xlashape says the entries must be integers.
    with pytest.raises(TypeError, match="only int indices permitted"):
        xs.unravel_index([[]], (3,))
    with pytest.raises(TypeError, match="only int indices permitted"):
        xs.ravel_multi_index(([[]], [[]]), (3, 3))


def test_numpys_pinned_messages_keep_xlashapes_detail():
    with pytest.raises(TypeError, match=r"multi_index\[1\]: indices must be integral: the provided empty"):
        xs.ravel_multi_index(([1], []), (3, 3))
    with pytest.raises(TypeError, match=r"only int indices permitted: indices must hold integers, got dtype float64"):
        xs.unravel_index(np.array([1.5]), (3, 3))
    with pytest.raises(ValueError, match=r"linear index 1 is out of bounds for a buffer of 1 elements"):
        xs.unravel_index([1], ())
    with pytest.raises(ValueError, match=r"multiple indices are not supported for 0d arrays: indices of shape \(1,\)"):
        xs.unravel_index([0], ())


def test_the_layout_cache_never_serves_stale_dims():
    dims = [3, 4]
    assert xs.unravel_index(11, dims) == (2, 3)
    dims[1] = 5  # a list may change between calls
    assert xs.unravel_index(11, dims) == (2, 1)
    size = np.array(4)
    held = (3, size)  # a tuple holding something mutable
    assert xs.ravel_multi_index((2, 3), held) == 11
    size[()] = 5
    assert xs.ravel_multi_index((2, 3), held) == 13
    for _ in range(3):  # the same tuple again and again, in both orders
        assert xs.unravel_index(11, (3, 4)) == (2, 3)
        assert xs.unravel_index(11, (3, 4), order="F") == (2, 3)
    with pytest.raises(TypeError):
        xs.unravel_index(1, (True, 4))
    with pytest.raises(TypeError):
        xs.unravel_index(1, (3.0, 4))


# -- the compiled fast path and the general path agree (issue 9) ---------------
#
# The drop-ins take their common calls through a compiled fast path
# (_drop_ins) and hand everything else to the general path (numpy_compat).
# The same inputs go through both, and through NumPy.

MODES = ("raise", "wrap", "clip")
INT64_MAX = np.iinfo(np.int64).max


def general_ravel(multi_index, dims, mode="raise", order="C", padded_dims=None):
    """ravel_multi_index through the general path alone."""
    shape = numpy_compat.new_shape(dims, order, padded_dims)
    return numpy_compat.ravel_shaped(shape, multi_index, mode, None, None)


def general_unravel(indices, dims, order="C", padded_dims=None):
    """unravel_index through the general path alone."""
    shape = numpy_compat.new_shape(dims, order, padded_dims)
    return numpy_compat.unravel_shaped(shape, indices, None, None)


@st.composite
def dims_and_order(draw):
    """Dims of rank 1-5 (a tuple, a list or, at rank 1, an int), sizes 0-7, and an order."""
    rank = draw(st.integers(1, 5))
    dims = tuple(draw(st.lists(st.integers(0, 7), min_size=rank, max_size=rank)))
    form = draw(st.sampled_from(["tuple", "list", "int"] if rank == 1 else ["tuple", "list"]))
    spelled = dims[0] if form == "int" else list(dims) if form == "list" else dims
    return spelled, dims, draw(st.sampled_from(ORDERS))


@st.composite
def index_values(draw, dtype, n, high):
    """``n`` indices of ``dtype`` around [0, high): mostly in range, some
    out of it, some at the dtype's ends (never above int64's maximum, where
    NumPy wraps uint64; numpy issue 19832)."""
    info = np.iinfo(dtype)
    low_end, high_end = int(info.min), min(int(info.max), INT64_MAX)
    near = st.integers(max(low_end, -3), min(high_end, high + 3))
    value = st.one_of(near, near, near, st.sampled_from([low_end, high_end]))
    return np.array(draw(st.lists(value, min_size=n, max_size=n)), dtype=dtype)


@st.composite
def fast_ravel_calls(draw):
    """Calls of the form the fast path takes: ``rank`` integer arrays of one
    shape (any dtype; 1-D C, strided or read-only, or N-D C) in a tuple or list,
    or stacked as a (rank, N) array (C, or the transpose of a C (N, rank)),
    or ``rank`` ints or NumPy integers; a mode and an order as strings."""
    spelled, dims, order = draw(dims_and_order())
    high = max(dims)
    if draw(st.booleans()):
        n, dtype = draw(st.integers(1, 30)), draw(st.sampled_from(DTYPES))
        shape = draw(st.sampled_from([(n,), (n, 2), (2, 1, n)]))
        columns = []
        for _ in dims:
            column = draw(index_values(dtype, int(np.prod(shape)), high)).reshape(shape)
            form = draw(st.sampled_from(["C", "strided", "readonly"] if len(shape) == 1 else ["C", "readonly"]))
            if form == "strided":
                wide = np.zeros(2 * n, dtype=dtype)
                wide[::2] = column
                column = wide[::2]
            elif form == "readonly":
                column.flags.writeable = False
            columns.append(column)
    else:
        scalar = draw(st.sampled_from([int, np.int8, np.int64, np.uint16, np.uint64]))
        columns = [scalar(draw(index_values(np.dtype(scalar if scalar is not int else np.int64), 1, high))[0])
                   for _ in dims]
    container = draw(st.sampled_from(["tuple", "list", "(rank, N)", "a.T"]))
    if container == "tuple" or isinstance(columns[0], (int, np.integer)) or columns[0].ndim != 1:
        multi_index = tuple(columns)
    elif container == "list":
        multi_index = columns
    elif container == "(rank, N)":
        multi_index = np.stack(columns)
    else:  # the transpose of a C-contiguous (N, rank) array
        multi_index = np.stack(columns, axis=1).T
    return multi_index, spelled, draw(st.sampled_from(MODES)), order


@given(fast_ravel_calls())
def test_ravel_fast_path_general_path_and_numpy_agree(call):
    multi_index, dims, mode, order = call

    def numpy():
        return np.ravel_multi_index(multi_index, dims, mode=mode, order=order)

    assert_same(lambda: xs.ravel_multi_index(multi_index, dims, mode, order), numpy)
    assert_same(lambda: general_ravel(multi_index, dims, mode, order), numpy)
    fast = _drop_ins.try_ravel_multi_index(multi_index, dims, mode, order)
    if outcome(numpy)[0] == "error":
        assert fast is None  # the general path raises NumPy's exception
    else:
        assert fast is not None, "the fast path handed over a call it takes"
        assert_same(lambda: fast, numpy)


@st.composite
def fast_unravel_calls(draw):
    """Calls of the form the fast path takes: an integer array (any dtype;
    1-D C or strided, or N-D C), or one int or NumPy integer; an order."""
    spelled, dims, order = draw(dims_and_order())
    size = int(np.prod(dims))
    if draw(st.booleans()):
        dtype, n = draw(st.sampled_from(DTYPES)), draw(st.integers(1, 30))
        indices = draw(index_values(dtype, n, size))
        form = draw(st.sampled_from(["C", "strided", "2-D", "3-D"]))
        if form == "strided":
            indices = np.repeat(indices, 2)[::2]
        elif form != "C":
            indices = indices.reshape((n, 1) if form == "2-D" else (1, n, 1))
    else:
        scalar = draw(st.sampled_from([int, np.int32, np.uint64]))
        indices = scalar(draw(index_values(np.dtype(scalar if scalar is not int else np.int64), 1, size))[0])
    return indices, spelled, order


@given(fast_unravel_calls())
def test_unravel_fast_path_general_path_and_numpy_agree(call):
    indices, dims, order = call

    def numpy():
        return np.unravel_index(indices, dims, order=order)

    assert_same(lambda: xs.unravel_index(indices, dims, order), numpy)
    assert_same(lambda: general_unravel(indices, dims, order), numpy)
    fast = _drop_ins.try_unravel_index(indices, dims, order)
    if outcome(numpy)[0] == "error":
        assert fast is None
    else:
        assert fast is not None, "the fast path handed over a call it takes"
        assert_same(lambda: fast, numpy)


@given(shapes(min_rank=1, max_rank=4), st.data())
def test_fast_path_takes_padded_and_permuted_layouts(shape, data):
    # NumPy has no padding: the general path is the oracle here.
    dims, order = shape.dimensions, shape.layout.minor_to_major
    padded = shape.layout.padded_dimensions or None
    size = int(np.prod(padded or dims))
    offsets = data.draw(index_values(np.int64, data.draw(st.integers(1, 20)), size))
    fast = _drop_ins.try_unravel_index(offsets, dims, order, padded_dims=padded)
    general = outcome(lambda: general_unravel(offsets, dims, order, padded))
    if general[0] == "error":  # outside the buffer, or on padding
        assert fast is None
        return
    assert fast is not None
    for ours, theirs in zip(fast, general[1]):
        np.testing.assert_array_equal(ours, theirs)
    columns = general[1]
    mode = data.draw(st.sampled_from(MODES))
    again = _drop_ins.try_ravel_multi_index(columns, dims, mode, order, padded_dims=padded)
    np.testing.assert_array_equal(again, offsets)
    np.testing.assert_array_equal(general_ravel(columns, dims, mode, order, padded), offsets)


def _unaligned(values):
    """``values`` (int64) in an array whose data is not 8-byte aligned."""
    raw = np.zeros(values.size * 8 + 1, dtype=np.uint8)[1:]
    array = raw.view(np.int64) if raw.ctypes.data % 8 == 0 else np.frombuffer(raw, dtype=np.int64)
    array[...] = values
    return array


class _Sub(np.ndarray):
    """An ndarray subclass: NumPy's rules for it belong to the general path."""


COLUMN = np.array([1, 2])
# Calls the fast path must hand over (it returns None for them), each
# compared with NumPy through the public function.
RAVEL_HANDOVERS = [
    ((COLUMN, np.array([0, 1, 2])), (3, 3), "raise"),  # lengths differ: broadcast or error
    ((np.array([[1, 2]]), np.array([0, 1])), (3, 3), "raise"),  # shapes differ: broadcast
    ((np.ones((2, 2), int), np.ones((2, 2), int).T), (3, 3), "raise"),  # 2-D, not C-contiguous
    ((np.array(1), np.array(2)), (3, 3), "raise"),  # 0-d columns
    ((COLUMN, COLUMN.astype(">i8")), (3, 3), "raise"),  # byte-swapped
    ((COLUMN, np.array([True, False])), (3, 3), "raise"),  # bool
    ((COLUMN, COLUMN.astype(float)), (3, 3), "raise"),  # float
    ((COLUMN, [0, 1]), (3, 3), "raise"),  # a list column
    ((COLUMN, 1), (3, 3), "raise"),  # an array and an int
    ((np.array([], dtype=np.intp),) * 2, (3, 3), "raise"),  # empty
    ((COLUMN,), (3, 3), "raise"),  # too few columns
    (np.array([[1, 2], [0, 1]], dtype=">i8"), (3, 3), "raise"),  # (rank, N), byte-swapped
    (np.array([[1, 2], [0, 1]], dtype=float), (3, 3), "raise"),  # (rank, N), float
    (np.array([[1, 2], [0, 1], [0, 0]]), (3, 3), "raise"),  # (rank + 1, N)
    (np.zeros((2, 0), dtype=int), (3, 3), "raise"),  # (rank, 0)
    (np.zeros((2, 2, 1), dtype=int), (3, 3), "raise"),  # 3-D
    ((COLUMN, COLUMN), (3, 3), ("wrap", "clip")),  # a mode per dimension
    ((COLUMN, COLUMN), (3, 3), b"wrap"),
    ((COLUMN, COLUMN), (3, 3), "CLIP"),
    ((COLUMN, COLUMN), (3, 3), 1),
    ((COLUMN, COLUMN), (3, 3), None),
    ((COLUMN, COLUMN), (3, 0), "wrap"),  # a dimension of size 0
    ((COLUMN, COLUMN), (3, 0), "clip"),
    ((COLUMN, np.array([0, 3])), (3, 3), "raise"),  # out of bounds
    ((COLUMN, np.array([0, -1])), (3, 3), "raise"),
    ((1, 3), (3, 3), "raise"),
    ((1, 2**64), (3, 3), "wrap"),  # beyond int64
    ((1, np.uint64(2**63 + 5)), (10, 3), "raise"),  # uint64 beyond int64
    ((True, 1), (3, 3), "raise"),  # bool
    ((np.True_, 1), (3, 3), "raise"),
    ((1.0, 1), (3, 3), "raise"),  # float
    ((), (), "raise"),  # rank 0
    ((COLUMN, _unaligned(COLUMN)), (3, 3), "raise"),
    ((COLUMN, COLUMN.view(_Sub)), (3, 3), "raise"),
    ({1, 2}, (3, 3), "raise"),  # not a tuple or list
    ((COLUMN, COLUMN), (3, 3.0), "raise"),  # not dims NumPy takes
]


@pytest.mark.parametrize("multi_index, dims, mode", RAVEL_HANDOVERS)
def test_ravel_fast_path_hands_over(multi_index, dims, mode):
    def numpy():
        return np.ravel_multi_index(multi_index, dims, mode=mode)

    assert_same(lambda: xs.ravel_multi_index(multi_index, dims, mode), numpy)
    assert_same(lambda: general_ravel(multi_index, dims, mode), numpy)
    kind, value = outcome(lambda: _drop_ins.try_ravel_multi_index(multi_index, dims, mode))
    # None, or the general path's error for dims it refuses before looking further
    assert value is None or (kind == "error" and outcome(numpy)[0] == "error")


UNRAVEL_HANDOVERS = [
    (np.arange(6).reshape(2, 3)[:, ::2], (3, 3)),  # 2-D, not C-contiguous
    (np.asfortranarray(np.arange(6).reshape(2, 3)), (3, 3)),
    (np.array(4), (3, 3)),  # 0-d
    ([1, 2], (3, 3)),  # a list
    (np.array([], dtype=np.intp), (3, 3)),  # empty
    (COLUMN.astype(">i4"), (3, 3)),  # byte-swapped
    (COLUMN.astype(bool), (3, 3)),  # bool
    (COLUMN.astype(float), (3, 3)),  # float
    (np.array([1, 9]), (3, 3)),  # out of bounds
    (np.array([-1]), (3, 3)),
    (9, (3, 3)),
    (-1, (3, 3)),
    (2**64, (3, 3)),  # beyond int64
    (np.uint64(2**63), (3, 3)),
    (True, (3, 3)),  # bool
    (np.True_, (3, 3)),
    (1.0, (3, 3)),  # float
    (0, ()),  # rank 0
    (0, (0, 3)),  # no elements
    (_unaligned(COLUMN), (3, 3)),
    (COLUMN.view(_Sub), (3, 3)),
    (None, (3, 3)),
]


@pytest.mark.parametrize("indices, dims", UNRAVEL_HANDOVERS)
def test_unravel_fast_path_hands_over(indices, dims):
    def numpy():
        return np.unravel_index(indices, dims)

    assert_same(lambda: xs.unravel_index(indices, dims), numpy)
    assert_same(lambda: general_unravel(indices, dims), numpy)
    assert _drop_ins.try_unravel_index(indices, dims) is None


def test_out_and_threads_take_their_paths():
    columns = (np.array([0, 2, 1]), np.array([3, 0, 2]))
    expected = np.ravel_multi_index(columns, (3, 4))
    out = np.zeros(3, dtype=np.int64)
    assert xs.ravel_multi_index(columns, (3, 4), out=out) is out  # the general path
    np.testing.assert_array_equal(out, expected)
    for threads in (1, 2, 64):
        fast = _drop_ins.try_ravel_multi_index(columns, (3, 4), threads=threads)
        np.testing.assert_array_equal(fast, expected)
        for ours, theirs in zip(_drop_ins.try_unravel_index(expected, (3, 4), threads=threads), columns):
            np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("threads", [0, -1, 1.5, "2"])
def test_bad_threads_raise_as_in_the_general_path(threads):
    columns = (np.array([0, 2, 1]), np.array([3, 0, 2]))
    linear = np.array([3, 8, 6])
    shape = numpy_compat.new_shape((3, 4), "C", None)
    assert_same(lambda: xs.ravel_multi_index(columns, (3, 4), threads=threads),
                lambda: numpy_compat.ravel_shaped(shape, columns, "raise", None, threads))
    assert_same(lambda: xs.unravel_index(linear, (3, 4), threads=threads),
                lambda: numpy_compat.unravel_shaped(shape, linear, None, threads))
    assert outcome(lambda: xs.unravel_index(linear, (3, 4), threads=threads))[0] == "error"
    # one multi-index or one linear index: the scalar fast paths check threads too
    assert_same(lambda: xs.ravel_multi_index((2, 3), (3, 4), threads=threads),
                lambda: numpy_compat.ravel_shaped(shape, (2, 3), "raise", None, threads))
    assert_same(lambda: xs.unravel_index(5, (3, 4), threads=threads),
                lambda: numpy_compat.unravel_shaped(shape, 5, None, threads))
    assert outcome(lambda: xs.unravel_index(5, (3, 4), threads=threads))[0] == "error"


def test_results_are_fresh_and_inputs_untouched():
    columns = (np.array([0, 2, 1]), np.array([3, 0, 2]))
    copies = [c.copy() for c in columns]
    first = xs.ravel_multi_index(columns, (3, 4))
    second = xs.ravel_multi_index(columns, (3, 4))
    assert not np.shares_memory(first, second)
    rows = xs.unravel_index(first, (3, 4))
    assert all(r.flags.writeable and r.flags.c_contiguous for r in rows)
    rows[0][0] = 99  # each row is the caller's to change
    assert xs.unravel_index(first, (3, 4))[0][0] == 0
    for column, copy in zip(columns, copies):
        np.testing.assert_array_equal(column, copy)


@pytest.mark.parametrize("dims", [(3.0, 4), (np.int64(3), 4), (True, 4), [3, np.int8(4)]])
def test_the_layout_cache_tells_equal_dims_of_other_types_apart(dims):
    assert xs.ravel_multi_index((1, 1), (3, 4)) == 5  # (3, 4) cached
    assert xs.unravel_index(1, (1, 4)) == (0, 1)  # (1, 4) cached
    # each of these hashes like (3, 4) or (1, 4)
    assert_same(lambda: xs.ravel_multi_index((1, 1), dims), lambda: np.ravel_multi_index((1, 1), dims))
    assert_same(lambda: xs.unravel_index(5, dims), lambda: np.unravel_index(5, dims))


def test_the_layout_cache_keys_on_the_order():
    for order, expected in (("C", 5), ("F", 4), ((1, 0), 5), ((0, 1), 4), (None, 5), ("f", 4)):
        assert xs.ravel_multi_index((1, 1), (3, 4), order=order) == expected
        assert xs.unravel_index(expected, (3, 4), order=order) == (1, 1)


@pytest.mark.parametrize("level", cpu.cpu_features()["supported"])
@pytest.mark.parametrize("n", [1, 7, 33, 2500])  # around vector widths and the 2048-row block
def test_column_kernels_of_every_level_and_dtype(level, n):
    rng = np.random.default_rng(n)
    dims = (7, 100, 5, 11)
    previous = cpu.set_cpu_level(level)
    try:
        for dtype in DTYPES:
            columns = [rng.integers(0, d, n).astype(dtype) for d in dims]
            strided = [np.repeat(c, 2)[::2] for c in columns]
            for form in (columns, strided):
                assert_same(lambda f=form: xs.ravel_multi_index(f, dims),
                            lambda f=form: np.ravel_multi_index(f, dims))
            for bad in (7, -1, np.iinfo(dtype).max):  # one index out of range, at the last row
                if np.iinfo(dtype).min <= bad:
                    broken = [c.copy() for c in columns]
                    broken[0][-1] = bad
                    assert_same(lambda b=broken: xs.ravel_multi_index(b, dims),
                                lambda b=broken: np.ravel_multi_index(b, dims))
                    assert _drop_ins.try_ravel_multi_index(broken, dims) is None
    finally:
        cpu.set_cpu_level(previous)


# -- found in review: forms the general path read differently from NumPy -------


def test_ravel_of_a_matrix_reads_its_rows_as_numpy_does():
    # NumPy reads a (rank, N) multi_index as a sequence: the rows of an
    # np.matrix are (1, N) matrices, so the result is (1, N), not (N,).
    rows = np.array([[1, 2, 0], [0, 3, 1]])
    for multi_index in (rows.view(np.matrix), rows.view(_Sub), np.ma.masked_array(rows)):
        assert_same(lambda m=multi_index: xs.ravel_multi_index(m, (3, 4)),
                    lambda m=multi_index: np.ravel_multi_index(m, (3, 4)))
        assert_same(lambda m=multi_index: xs.ravel_multi_index(m, (3, 4), mode="wrap"),
                    lambda m=multi_index: np.ravel_multi_index(m, (3, 4), mode="wrap"))


@pytest.mark.parametrize("ndim", [32, 33, 63])
def test_ravel_of_index_arrays_of_more_than_32_dimensions(ndim):
    # np.broadcast (and so np.broadcast_arrays) takes at most 32 dimensions;
    # NumPy's ravel_multi_index takes arrays of up to 64.
    ones, fives = np.ones((1,) * ndim, dtype=np.intp), np.full((1,) * ndim, 5)
    for multi_index in ((ones, ones), (ones, fives), (ones, ones.astype(">i8")),
                        (ones, ones.reshape((1,) * (ndim - 1))), (ones, 1)):
        assert_same(lambda m=multi_index: xs.ravel_multi_index(m, (2, 2)),
                    lambda m=multi_index: np.ravel_multi_index(m, (2, 2)))


def test_the_layout_cache_from_many_threads_at_once():
    # Each thread finds its own layouts (more than the cache keeps, so it is
    # cleared while others read it) and the last layout in between: every
    # result must be its own dims'. (A crash or a wrong layout would show a
    # race on the cache, as on a free-threaded build.)
    errors = []

    def work(first):
        try:
            for size in range(first, first + 200):
                dims = (size, 7)
                for _ in range(3):  # the same tuple again: the last layout
                    assert xs.unravel_index(size * 7 - 1, dims) == (size - 1, 6)
                    assert xs.ravel_multi_index((size - 1, 6), dims) == size * 7 - 1
        except Exception as e:  # reported from the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(1 + 200 * k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# -- the general path's forms, property-tested against NumPy -------------------

FORM_NAMES = ("C", "F", "strided", "byteswapped", "readonly")


@st.composite
def index_array_of(draw, shape, high, dtype=None):
    """An index array of ``shape`` (an integer dtype, or bool), in one of
    inputs.array_forms' memory forms, or as a list or a Python int."""
    dtype = draw(st.sampled_from(DTYPES + (np.bool_,))) if dtype is None else dtype
    n = int(np.prod(shape))
    if dtype is np.bool_:
        values = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    else:
        values = draw(index_values(dtype, n, high))
    values = values.reshape(shape)
    forms = dict(array_forms(values))
    # (an empty nested list is NumPy's SystemError: see test_numpy_empty_nested_list_...)
    lists = ["list", "int"] if values.size or values.ndim < 2 else []
    form = draw(st.sampled_from([f for f in FORM_NAMES if f in forms] + lists))
    if form == "list":
        return values.tolist()
    if form == "int":
        return values.flat[0].item() if n == 1 and values.ndim == 0 else values.tolist()
    return forms[form]


@st.composite
def general_ravel_calls(draw):
    """multi_index of broadcastable shapes in any memory form, dtype or
    container; a mode once or per dimension; an order."""
    spelled, dims, order = draw(dims_and_order())
    shapes_ = draw(npst.mutually_broadcastable_shapes(num_shapes=len(dims), max_dims=3, max_side=3))
    columns = [draw(index_array_of(shape, max(dims))) for shape in shapes_.input_shapes]
    container = draw(st.sampled_from([tuple, list]))
    mode = draw(st.one_of(st.sampled_from(MODES), st.tuples(*[st.sampled_from(MODES)] * len(dims))))
    return container(columns), spelled, mode, order


@given(general_ravel_calls())
def test_ravel_of_any_form_agrees_with_numpy(call):
    multi_index, dims, mode, order = call
    assert_same(lambda: xs.ravel_multi_index(multi_index, dims, mode, order),
                lambda: np.ravel_multi_index(multi_index, dims, mode, order))


@given(dims_and_order(), st.data())
def test_unravel_of_any_form_agrees_with_numpy(dims_order, data):
    spelled, dims, order = dims_order
    shape = data.draw(npst.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    indices = data.draw(index_array_of(shape, int(np.prod(dims))))
    assert_same(lambda: xs.unravel_index(indices, spelled, order),
                lambda: np.unravel_index(indices, spelled, order))
