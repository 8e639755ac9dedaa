"""IndexUtil against the plain-Python reference and NumPy."""

import gc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from inputs import index_arrays
from oracles import numpy_ravel, numpy_unravel
from strategies import all_multi_indices, shapes

from xlashape import IndexOutOfBoundsError, IndexUtil, Layout, Shape, reference

ravel = IndexUtil.multidimensional_index_to_linear_index
unravel = IndexUtil.linear_index_to_multidimensional_index


def ref_ravel(shape, index):
    return reference.linear_index_of(shape, index)


def ref_unravel(shape, offset):
    return reference.multi_index_at(shape, offset)


# -- properties over random shapes ------------------------------------------


@given(shapes())
def test_bijection_between_indices_and_non_padding_offsets(shape):
    rows = all_multi_indices(shape)
    offsets = ravel(shape, rows)
    assert offsets.dtype == np.int64 and offsets.shape == (len(rows),)
    assert len(set(offsets.tolist())) == len(rows)  # injective
    assert all(0 <= o < shape.buffer_size for o in offsets.tolist())
    # Every offset not hit is padding, and unravelling it is an error.
    for offset in sorted(set(range(min(shape.buffer_size, 300))) - set(offsets.tolist())):
        with pytest.raises(IndexOutOfBoundsError, match="lands on padding"):
            unravel(shape, offset)


@given(shapes())
def test_batch_and_scalar_paths_agree_with_the_reference(shape):
    rows = all_multi_indices(shape)
    offsets = ravel(shape, rows)
    expected = [ref_ravel(shape, tuple(r)) for r in rows.tolist()]
    assert offsets.tolist() == expected
    assert [ravel(shape, tuple(r)) for r in rows.tolist()] == expected
    back = unravel(shape, offsets)
    assert back.dtype == np.int64 and back.shape == rows.shape
    np.testing.assert_array_equal(back, rows)
    assert [unravel(shape, o) for o in expected] == [tuple(r) for r in rows.tolist()]
    assert [ref_unravel(shape, o) for o in expected] == [tuple(r) for r in rows.tolist()]


@given(shapes())
def test_agrees_with_numpy_after_reordering(shape):
    rows = all_multi_indices(shape)
    np.testing.assert_array_equal(ravel(shape, rows), numpy_ravel(shape, rows))
    offsets = ravel(shape, rows)
    np.testing.assert_array_equal(unravel(shape, offsets), numpy_unravel(shape, offsets))


@given(st.lists(st.integers(1, 5), min_size=1, max_size=6), st.sampled_from("CF"))
def test_c_and_f_orders_match_numpy_directly(dims, order):
    m2m = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    shape = Shape("f32", dims, Layout(m2m))
    rows = all_multi_indices(shape)
    expected = np.ravel_multi_index(tuple(rows.T), dims, order=order)
    np.testing.assert_array_equal(ravel(shape, rows), expected)
    flat = np.arange(shape.element_count)
    np.testing.assert_array_equal(
        unravel(shape, flat), np.stack(np.unravel_index(flat, dims, order=order), axis=-1)
    )


@given(shapes(max_rank=4), st.data())
def test_out_of_range_indices_name_row_dimension_and_value(shape, data):
    if shape.rank == 0:
        return
    rows = all_multi_indices(shape)
    if len(rows) == 0:
        rows = np.zeros((1, shape.rank), dtype=np.int64)
    rows = rows.copy()
    row = data.draw(st.integers(0, len(rows) - 1))
    dim = data.draw(st.integers(0, shape.rank - 1))
    value = data.draw(
        st.one_of(st.integers(-(2**63), -1), st.integers(shape.dimensions[dim], 2**63 - 1))
    )
    rows[row, dim] = value
    with pytest.raises(IndexOutOfBoundsError) as info:
        ravel(shape, rows)
    message = str(info.value)
    # The first bad row is reported; it may precede ``row`` only if an
    # earlier row was already out of range (size-0 dimensions).
    bad_rows = [
        i for i, r in enumerate(rows.tolist())
        if any(not 0 <= v < s for v, s in zip(r, shape.dimensions))
    ]  # fmt: skip
    first = bad_rows[0]
    first_dim = next(
        d for d, (v, s) in enumerate(zip(rows[first].tolist(), shape.dimensions)) if not 0 <= v < s
    )
    assert f"at row {first} of the batch" in message
    assert f"index {rows[first, first_dim]} is out of bounds for dimension {first_dim} " in message
    assert f"with size {shape.dimensions[first_dim]}" in message


@given(shapes(max_rank=4), st.integers(-(2**63), 2**63 - 1))
def test_any_offset_unravels_exactly_as_the_reference(shape, offset):
    try:
        expected = ref_unravel(shape, offset)
    except IndexOutOfBoundsError as e:
        with pytest.raises(IndexOutOfBoundsError) as scalar_info:
            unravel(shape, offset)
        assert str(scalar_info.value) == str(e)
        # Offset 0 is valid in any non-empty shape; in an empty one, row 0
        # already fails.
        row = 1 if shape.element_count else 0
        with pytest.raises(IndexOutOfBoundsError, match=f"at row {row} of the batch"):
            unravel(shape, np.array([0, offset]))
    else:
        assert unravel(shape, offset) == expected
        assert unravel(shape, np.array([offset])).tolist() == [list(expected)]


# -- every input form, through the one generator -----------------------------

SHAPE = Shape("f32", [3, 4, 5], Layout([1, 2, 0], [4, 4, 6]))
ROWS = np.array([[0, 0, 0], [2, 3, 4], [1, 2, 3], [2, 0, 4]])
OFFSETS = np.array([ref_ravel(SHAPE, tuple(r)) for r in ROWS.tolist()])


def assert_batch_converts(convert, batch, expected):
    """``convert(SHAPE, batch)`` gives ``expected`` as int64 and leaves
    ``batch`` untouched."""
    before = np.array(batch, copy=True)
    result = convert(SHAPE, batch)
    np.testing.assert_array_equal(result, expected)
    assert result.dtype == np.int64
    np.testing.assert_array_equal(np.asarray(batch), before)


@pytest.mark.parametrize("label, rows", list(index_arrays(ROWS)))
def test_every_batch_form_ravels(label, rows):
    assert_batch_converts(ravel, rows, OFFSETS)


@pytest.mark.parametrize("label, offsets", list(index_arrays(OFFSETS)))
def test_every_batch_form_unravels(label, offsets):
    assert_batch_converts(unravel, offsets, ROWS)


@pytest.mark.parametrize("label, index", list(index_arrays(ROWS[1])))
def test_every_single_index_form_ravels(label, index):
    assert ravel(SHAPE, index) == OFFSETS[1]
    assert type(ravel(SHAPE, index)) is int


def test_numpy_scalars_and_zero_d_arrays_unravel_to_tuples():
    for offset in (np.int8(OFFSETS[2]), np.uint64(OFFSETS[2]), np.array(OFFSETS[2])):
        result = unravel(SHAPE, offset)
        assert result == tuple(ROWS[2]) and all(type(v) is int for v in result)


# -- edge cases ----------------------------------------------------------------


def test_rank_zero():
    scalar = Shape("f32", [])
    assert ravel(scalar, ()) == 0
    assert ravel(scalar, []) == 0
    assert unravel(scalar, 0) == ()
    np.testing.assert_array_equal(ravel(scalar, np.zeros((3, 0), dtype=np.int32)), [0, 0, 0])
    assert unravel(scalar, np.zeros(2, dtype=np.int64)).shape == (2, 0)
    with pytest.raises(IndexOutOfBoundsError, match="linear index 1 is out of bounds for a buffer of 1"):
        unravel(scalar, 1)
    with pytest.raises(IndexOutOfBoundsError, match="at row 1"):
        unravel(scalar, np.array([0, 1]))


def test_empty_batches():
    assert ravel(SHAPE, np.zeros((0, 3), dtype=np.uint8)).shape == (0,)
    assert unravel(SHAPE, np.zeros(0, dtype=np.int16)).shape == (0, 3)
    assert unravel(SHAPE, []).shape == (0, 3)


def test_zero_sized_dimension():
    empty = Shape("f32", [3, 0, 2**40, 2**40])
    with pytest.raises(IndexOutOfBoundsError, match="dimension 1 with size 0"):
        ravel(empty, (0, 0, 0, 0))
    with pytest.raises(IndexOutOfBoundsError, match="buffer of 0 elements"):
        unravel(empty, 0)
    assert ravel(empty, np.zeros((0, 4), dtype=np.int64)).shape == (0,)
    with pytest.raises(IndexOutOfBoundsError, match="at row 0"):
        ravel(empty, np.zeros((2, 4), dtype=np.int64))


def test_indices_near_the_int64_limit():
    shape = Shape("u8", (49, 73, 127, 337, 92737, 649657))  # 2**63 - 1 elements
    last = tuple(d - 1 for d in shape.dimensions)
    assert ravel(shape, last) == 2**63 - 2
    assert ravel(shape, np.array([last, last], dtype=np.int64)).tolist() == [2**63 - 2] * 2
    assert unravel(shape, 2**63 - 2) == last
    assert unravel(shape, np.array([2**63 - 2], dtype=np.uint64)).tolist() == [list(last)]
    with pytest.raises(IndexOutOfBoundsError, match="9223372036854775807 is out of bounds"):
        unravel(shape, np.array([2**63 - 1], dtype=np.uint64))


def test_unsigned_values_above_int64_are_out_of_range():
    shape = Shape("f32", [10, 3])
    with pytest.raises(IndexOutOfBoundsError, match="index 9223372036854775813 is out of bounds for dimension 0"):
        ravel(shape, np.array([[2**63 + 5, 0]], dtype=np.uint64))
    with pytest.raises(IndexOutOfBoundsError, match="18446744073709551615 is out of bounds"):
        unravel(shape, np.array([2**64 - 1], dtype=np.uint64))
    with pytest.raises(IndexOutOfBoundsError, match="index 18446744073709551616 is out of bounds"):
        ravel(shape, (2**64, 0))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: ravel(SHAPE, (1, 2)), ValueError, r"multi-index \(1, 2\) has 2 entries, but the shape is rank 3"),
        (lambda: ravel(SHAPE, np.zeros((2, 2), dtype=int)), ValueError, r"\(N, 3\) array.*got shape \(2, 2\)"),
        (lambda: ravel(SHAPE, np.zeros((2, 3, 1), dtype=int)), ValueError, r"got shape \(2, 3, 1\)"),
        (lambda: ravel(SHAPE, (1, 2.5, 0)), TypeError, "entry 1 of the multi-index must be an integer, got float"),
        (lambda: ravel(SHAPE, (True, 0, 0)), TypeError, "boolean"),
        (lambda: ravel(SHAPE, np.zeros((2, 3))), TypeError, "dtype float64"),
        (lambda: ravel(SHAPE, np.zeros((2, 3), dtype=bool)), TypeError, "dtype bool"),
        (lambda: ravel(SHAPE, np.array([0.0, 1.0, 2.0])), TypeError, "dtype float64"),
        (lambda: ravel((3, 4, 5), (0, 0, 0)), TypeError, "shape must be a Shape, got tuple"),
        (lambda: unravel(SHAPE, 1.5), TypeError, "linear index must be an integer, got float"),
        (lambda: unravel(SHAPE, np.array([1.0])), TypeError, "dtype float64"),
        (lambda: unravel(SHAPE, np.zeros((2, 2), dtype=int)), ValueError, r"must be 1-D, got shape \(2, 2\)"),
        (lambda: unravel(SHAPE, -1), IndexOutOfBoundsError, r"linear index -1 is out of bounds for a buffer of 96 elements"),
        (lambda: unravel(SHAPE, 96), IndexOutOfBoundsError, r"expected 0 <= index < 96"),
        (lambda: unravel(SHAPE, 20), IndexOutOfBoundsError, r"lands on padding: it puts dimension 2 at 5, past its size 5 \(padded width 6\)"),
        (lambda: ravel(SHAPE, (0, 4, 0)), IndexOutOfBoundsError, r"index 4 is out of bounds for dimension 1 with size 4; multi-index \(0, 4, 0\)"),
        (lambda: ravel(SHAPE, (-1, 0, 0)), IndexOutOfBoundsError, r"index -1 is out of bounds for dimension 0 with size 3"),
    ],
)  # fmt: skip
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_out_of_bounds_error_is_both_index_and_value_error():
    assert issubclass(IndexOutOfBoundsError, IndexError)
    assert issubclass(IndexOutOfBoundsError, ValueError)


def test_out_argument():
    out = np.full(len(ROWS), -7, dtype=np.int64)
    assert ravel(SHAPE, ROWS, out=out) is out
    np.testing.assert_array_equal(out, OFFSETS)
    rows_out = np.empty((len(ROWS), 3), dtype=np.int64)
    assert unravel(SHAPE, OFFSETS, out=rows_out) is rows_out
    np.testing.assert_array_equal(rows_out, ROWS)
    with pytest.raises(TypeError, match="dtype int64"):
        ravel(SHAPE, ROWS, out=np.empty(len(ROWS), dtype=np.int32))
    with pytest.raises(ValueError, match=r"shape \(4,\), got \(5,\)"):
        ravel(SHAPE, ROWS, out=np.empty(5, dtype=np.int64))
    readonly = np.empty(len(ROWS), dtype=np.int64)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ravel(SHAPE, ROWS, out=readonly)
    shared = np.zeros((4, 3), dtype=np.int64)
    with pytest.raises(ValueError, match="overlaps"):
        unravel(SHAPE, shared[:, 0], out=shared)
    with pytest.raises(ValueError, match="overlaps"):
        ravel(SHAPE, shared, out=shared.reshape(-1)[:4])
    with pytest.raises(ValueError, match="must be C-contiguous"):
        ravel(SHAPE, ROWS, out=np.empty(8, dtype=np.int64)[::2])


# -- the rest of IndexUtil -----------------------------------------------------


def test_bump_indices_counts_in_row_major_order():
    shape = Shape("f32", [2, 3], Layout([0, 1]))  # the layout does not matter
    seen, index = [], [0, 0]
    while True:
        seen.append(tuple(index))
        if not IndexUtil.bump_indices(shape, index):
            break
    assert seen == [(i, j) for i in range(2) for j in range(3)]
    assert index == [1, 2]  # unchanged after the last one
    array = np.array([0, 2], dtype=np.int32)
    assert IndexUtil.bump_indices(shape, array) and array.tolist() == [1, 0]
    assert not IndexUtil.bump_indices(Shape("f32", []), [])


def test_bump_indices_errors():
    shape = Shape("f32", [2, 3])
    with pytest.raises(TypeError, match="pass a list or a 1-D integer array, got tuple"):
        IndexUtil.bump_indices(shape, (0, 0))
    with pytest.raises(ValueError, match="has 1 entries, but the shape is rank 2"):
        IndexUtil.bump_indices(shape, [0])
    with pytest.raises(IndexOutOfBoundsError, match="index 3 is out of bounds for dimension 1"):
        IndexUtil.bump_indices(shape, [0, 3])
    with pytest.raises(TypeError, match="1-D integer array"):
        IndexUtil.bump_indices(shape, np.zeros(2))
    frozen = np.zeros(2, dtype=np.int64)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        IndexUtil.bump_indices(shape, frozen)


def test_get_dimension_stride():
    shape = Shape("f32", [2, 3], Layout([0, 1], [3, 5]))
    assert [IndexUtil.get_dimension_stride(shape, d) for d in (0, 1, -1, -2)] == [1, 3, 3, 1]
    assert [IndexUtil.get_dimension_stride(Shape("f32", [2, 3, 4]), d) for d in range(3)] == [12, 4, 1]
    with pytest.raises(IndexError, match="dimension number 2 is out of range"):
        IndexUtil.get_dimension_stride(shape, 2)


def test_index_in_bounds():
    shape = Shape("f32", [2, 3])
    assert IndexUtil.index_in_bounds(shape, [1, 2])
    assert IndexUtil.index_in_bounds(Shape("f32", []), [])
    for index in ([2, 0], [0, 3], [-1, 0], [0], [0, 0, 0], [2**70, 0]):
        assert not IndexUtil.index_in_bounds(shape, index)
    with pytest.raises(TypeError, match="must be an integer"):
        IndexUtil.index_in_bounds(shape, [0.5, 0])


def test_compare_indices():
    assert IndexUtil.compare_indices([0, 5], [1, 0]) == -1
    assert IndexUtil.compare_indices((1, 2), [1, 2]) == 0
    assert IndexUtil.compare_indices([1, 3], [1, 2]) == 1
    assert IndexUtil.compare_indices([], []) == 0
    with pytest.raises(ValueError, match="lengths 2 and 1"):
        IndexUtil.compare_indices([0, 0], [0])


# -- found in review -----------------------------------------------------------


@pytest.mark.parametrize("value", [np.array(1.9), np.array(True), np.array(1, dtype=object), np.float64(1.0)])
def test_zero_d_non_integers_are_refused_not_truncated(value):
    with pytest.raises(TypeError):
        ravel(SHAPE, (1, value, 0))
    with pytest.raises(TypeError):
        unravel(SHAPE, value)


def test_python_ints_beyond_int64_in_lists_are_out_of_bounds():
    with pytest.raises(IndexOutOfBoundsError, match=r"-1 at position \(0, 0\) is out of bounds"):
        ravel(SHAPE, [[-1, 2**63, 0], [1, 1, 1]])
    with pytest.raises(IndexOutOfBoundsError, match=r"18446744073709551616 at position \(0,\) is out of bounds"):
        unravel(SHAPE, [2**64, 1])
    with pytest.raises(TypeError, match="dtype float64"):
        ravel(SHAPE, [[0.5, 1, 2]])


def test_out_of_any_64_bit_int_dtype_is_accepted():
    out = np.empty(len(ROWS), dtype=np.longlong)
    assert ravel(SHAPE, ROWS, out=out) is out
    np.testing.assert_array_equal(out, OFFSETS)


def test_single_index_calls_refuse_out_and_check_threads():
    with pytest.raises(TypeError, match="out= is for batches"):
        ravel(SHAPE, (0, 0, 0), out=np.empty(1, dtype=np.int64))
    with pytest.raises(TypeError, match="out= is for batches"):
        unravel(SHAPE, 0, out=np.empty((1, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="threads must be >= 1"):
        ravel(SHAPE, (0, 0, 0), threads=-5)
    assert ravel(SHAPE, (0, 0, 0), threads=2) == 0


def test_single_unravel_results_own_their_ints():
    # Positions past Python's small-int cache: each tuple must hold its own
    # references (a refcount slip here once crashed the interpreter).
    shape = Shape("f32", [100001, 100000, 1024])
    offsets = [99999, 2**40 + 12345, shape.buffer_size - 1]
    results = [unravel(shape, offset) for offset in offsets for _ in range(50)]
    gc.collect()
    expected = [ref_unravel(shape, offset) for offset in offsets for _ in range(50)]
    assert results == expected
    assert ravel(shape, list(results[-1])) == shape.buffer_size - 1
