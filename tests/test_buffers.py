"""Linear buffers: to_linear, from_linear, view_linear, Shape.from_array and
the stride queries, against NumPy and xlashape.reference."""

import itertools
import sys

import numpy as np
import pytest
from buffer_strategies import (
    FILLED,
    NUMPY_TYPES,
    UNFILLED,
    element_offsets,
    numbered,
    numpy_shapes,
    padding_mask,
)
from hypothesis import given
from hypothesis import strategies as st
from inputs import array_forms

from xlashape import Layout, PaddingValue, PrimitiveType, Shape, ShapeUtil, reference
from xlashape.linear.buffers import from_linear, padding_fill_value, to_linear, view_linear

DTYPES = tuple(t.numpy_dtype for t in NUMPY_TYPES)

# The spec's 2x3 example, its letters numbered a=1 .. f=6.
SPEC_LETTERS = {letter: i for i, letter in enumerate("0abcdef")}
SPEC_ARRAY = np.array([[SPEC_LETTERS[c] for c in row.split()] for row in ("a b c", "d e f")])
SPEC_SHAPE = Shape("s32", (2, 3), Layout((0, 1), (3, 5), PaddingValue.ZERO_PAD))


def spec_picture(text: str) -> list[int]:
    """A picture of memory from the spec, letters numbered as SPEC_ARRAY."""
    return [SPEC_LETTERS[c] for c in text.split()]


def read_only(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only."""
    array.flags.writeable = False
    return array


def expected_fill(padding_value: PaddingValue, dtype: np.dtype):
    """The issue's table of padding values, written out per kind of dtype."""
    kind = np.dtype(dtype).kind
    if padding_value == PaddingValue.ZERO_PAD:
        return 0
    if padding_value == PaddingValue.ONE_PAD:
        return 1
    high = padding_value == PaddingValue.HIGHEST_PAD
    if kind == "b":
        return high
    if kind in "iu":
        info = np.iinfo(dtype)
        return info.max if high else info.min
    end = np.inf if high else -np.inf
    return complex(end, end) if kind == "c" else end


# -- the spec's example ----------------------------------------------------
def test_spec_example_buffer():
    expected = spec_picture("a d 0 b e 0 c f 0 0 0 0 0 0 0")
    buffer = to_linear(SPEC_ARRAY.astype(np.int32), SPEC_SHAPE)
    assert buffer.dtype == np.int32
    assert buffer.tolist() == expected
    oracle = reference.linear_values(SPEC_SHAPE, SPEC_ARRAY.ravel().tolist())
    assert oracle == expected


def test_spec_example_equals_the_padded_array_picture():
    # "This is equivalent to the layout of the following array with the same
    # minor-to-major dimension order: a b c 0 0 / d e f 0 0 / 0 0 0 0 0".
    rows = ("a b c 0 0", "d e f 0 0", "0 0 0 0 0")
    padded = np.array([spec_picture(row) for row in rows], dtype=np.int32)
    plain = to_linear(padded, Shape("s32", (3, 5), Layout((0, 1))))
    np.testing.assert_array_equal(plain, to_linear(SPEC_ARRAY.astype(np.int32), SPEC_SHAPE))


def test_spec_example_views():
    buffer = np.array(spec_picture("a d 0 b e 0 c f 0 0 0 0 0 0 0"), dtype=np.int32)
    view = view_linear(buffer, SPEC_SHAPE)
    np.testing.assert_array_equal(view, SPEC_ARRAY)
    assert np.shares_memory(view, buffer)
    column_major = Shape("s32", (2, 3), Layout((0, 1)))
    np.testing.assert_array_equal(
        view_linear(np.array(spec_picture("a d b e c f"), dtype=np.int32), column_major), SPEC_ARRAY
    )
    row_major = Shape("s32", (2, 3), Layout((1, 0)))
    np.testing.assert_array_equal(
        from_linear(np.array(spec_picture("a b c d e f"), dtype=np.int32), row_major), SPEC_ARRAY
    )


# -- round trips -------------------------------------------------------------
@given(numpy_shapes())
def test_round_trip(shape):
    dtype = shape.element_type.numpy_dtype
    array = numbered(shape.dimensions, dtype)
    original = array.copy()

    buffer = to_linear(array, shape)
    assert buffer.shape == (shape.buffer_size,) and buffer.dtype == dtype
    np.testing.assert_array_equal(buffer[element_offsets(shape)], array.ravel())
    np.testing.assert_array_equal(array, original)

    kept = buffer.copy()
    copy = from_linear(buffer, shape)
    assert copy.dtype == dtype and copy.flags.c_contiguous
    np.testing.assert_array_equal(copy, array)
    assert not np.shares_memory(copy, buffer)

    view = view_linear(buffer, shape)
    assert view.dtype == dtype and view.strides == shape.numpy_strides
    np.testing.assert_array_equal(view, array)
    np.testing.assert_array_equal(buffer, kept)
    assert np.shares_memory(view, buffer) == (shape.element_count > 0)


@given(numpy_shapes(max_rank=4, max_elements=256), st.sampled_from(FILLED))
def test_buffer_matches_reference(shape, padding_value):
    shape = Shape(
        shape.element_type,
        shape.dimensions,
        Layout(shape.layout.minor_to_major, shape.layout.padded_dimensions, padding_value),
    )
    dtype = shape.element_type.numpy_dtype
    array = numbered(shape.dimensions, dtype)
    fill = expected_fill(padding_value, dtype)
    oracle = reference.linear_values(shape, array.ravel().tolist(), fill)
    np.testing.assert_array_equal(to_linear(array, shape), np.array(oracle, dtype=dtype))


@given(numpy_shapes())
def test_writes_through_a_view_reach_the_buffer(shape):
    dtype = shape.element_type.numpy_dtype
    buffer = to_linear(np.zeros(shape.dimensions, dtype=dtype), shape)
    array = numbered(shape.dimensions, dtype)
    view_linear(buffer, shape)[...] = array
    np.testing.assert_array_equal(buffer[element_offsets(shape)], array.ravel())


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_form_of_input_gives_the_same_buffer(dtype):
    shape = Shape(
        PrimitiveType.from_dtype(dtype),
        (3, 4, 5),
        Layout((0, 2, 1), (4, 6, 5), PaddingValue.ONE_PAD),
    )
    values = numbered(shape.dimensions, dtype)
    expected = to_linear(values, shape)
    for label, array in array_forms(values):
        original = array.copy()
        np.testing.assert_array_equal(to_linear(array, shape), expected, err_msg=label)
        np.testing.assert_array_equal(array, original, err_msg=label)


def test_jax_major_to_minor_order_matches_numpy_transpose():
    # JAX lists dimensions major to minor: its buffer is the C-order ravel of
    # the array transposed to that order.
    array = numbered((2, 3, 4), np.float32)
    for order in itertools.permutations(range(3)):
        shape = Shape("f32", (2, 3, 4), Layout.from_major_to_minor(order))
        assert shape.layout.major_to_minor == order
        np.testing.assert_array_equal(to_linear(array, shape), np.transpose(array, order).ravel())


@pytest.mark.parametrize(
    "text, order", [("f32[2,3,4]{1,0,2}", (2, 0, 1)), ("f32[2,3,4]{0,1,2}", (2, 1, 0))]
)
def test_hlo_layout_text_gives_the_buffer(text, order):
    shape = ShapeUtil.parse_shape_string(text)
    array = numbered((2, 3, 4), np.float32)
    np.testing.assert_array_equal(to_linear(array, shape), np.transpose(array, order).ravel())


# -- padding -----------------------------------------------------------------
@pytest.mark.parametrize("padding_value", FILLED, ids=lambda p: p.name)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_padding_fill_values(padding_value, dtype):
    shape = Shape(PrimitiveType.from_dtype(dtype), (2, 3), Layout((1, 0), (4, 5), padding_value))
    buffer = to_linear(numbered((2, 3), dtype), shape)
    fill = expected_fill(padding_value, dtype)
    assert padding_fill_value(padding_value, dtype) == fill
    padding = buffer[padding_mask(shape)]
    assert padding.size == 20 - 6
    np.testing.assert_array_equal(padding, np.full(padding.size, fill, dtype=dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_lowest_and_highest_padding_leave_max_and_min_unchanged(dtype):
    rng = np.random.default_rng(5)
    kind = np.dtype(dtype).kind
    if kind in "iu":
        info = np.iinfo(dtype)
        values = rng.integers(info.min, info.max, 100, endpoint=True, dtype=dtype)
        values[:2] = info.min, info.max
    else:
        values = np.empty(102, dtype=dtype)
        values.real = np.concatenate([[np.inf, -np.inf], rng.standard_normal(100) * 1e3])
        if kind == "c":
            values.imag = np.concatenate([[-np.inf, np.inf], rng.standard_normal(100)])
    lowest = padding_fill_value(PaddingValue.LOWEST_PAD, dtype)
    highest = padding_fill_value(PaddingValue.HIGHEST_PAD, dtype)
    np.testing.assert_array_equal(np.maximum(values, lowest), values)
    np.testing.assert_array_equal(np.minimum(values, highest), values)
    assert lowest.dtype == highest.dtype == dtype


@pytest.mark.parametrize("padding_value", UNFILLED, ids=lambda p: p.name)
def test_unspecified_padding_is_left_untouched(padding_value):
    shape = Shape("f64", (2, 3), Layout((0, 1), (3, 5), padding_value))
    out = np.full(15, 7.5)
    result = to_linear(numbered((2, 3), np.float64), shape, out=out)
    assert result is out
    assert padding_fill_value(padding_value, np.float64) is None
    np.testing.assert_array_equal(out[padding_mask(shape)], 7.5)
    np.testing.assert_array_equal(out[element_offsets(shape)], numbered((6,), np.float64))


@pytest.mark.parametrize("padding_value", FILLED, ids=lambda p: p.name)
def test_padding_is_filled_in_out(padding_value):
    shape = Shape("s16", (3, 2), Layout((0, 1), (5, 3), padding_value))
    values = numbered((3, 2), np.int16)
    out = np.full(15, 99, dtype=np.int16)
    to_linear(values, shape, out=out)
    fill = expected_fill(padding_value, np.int16)
    oracle = reference.linear_values(shape, values.ravel().tolist(), fill)
    np.testing.assert_array_equal(out, oracle)


def test_padding_fill_value_errors():
    with pytest.raises(ValueError, match="padding_value must be a PaddingValue"):
        padding_fill_value(9, np.float32)
    with pytest.raises(TypeError, match="XLA element types only, got dtype <U1"):
        padding_fill_value(PaddingValue.LOWEST_PAD, "<U1")


# -- casting -----------------------------------------------------------------
def test_dtype_must_match_unless_casting_allows():
    shape = Shape("f32", (2, 3))
    values = numbered((2, 3), np.float64)
    with pytest.raises(
        TypeError, match=r"cannot cast an array of dtype float64 to float32 .*casting='equiv'"
    ):
        to_linear(values, shape)
    with pytest.raises(TypeError, match="casting='safe'"):
        to_linear(values, shape, casting="safe")
    np.testing.assert_array_equal(
        to_linear(values, shape, casting="same_kind"), values.astype(np.float32).ravel()
    )
    swapped = values.astype(">f4")
    np.testing.assert_array_equal(to_linear(swapped, shape), values.astype(np.float32).ravel())
    with pytest.raises(TypeError, match=r"dtype >f4 to float32 .*casting='no'"):
        to_linear(swapped, shape, casting="no")
    with pytest.raises(ValueError, match="casting must be one of"):
        to_linear(values, shape, casting="sometimes")


def test_lists_are_read_as_numpy_would():
    shape = Shape("s64", (2, 2), Layout((0, 1)))
    np.testing.assert_array_equal(to_linear([[1, 2], [3, 4]], shape), [1, 3, 2, 4])
    with pytest.raises(TypeError, match="dtype float64 to int64"):
        to_linear([[1.0, 2.0], [3.0, 4.0]], shape)
    np.testing.assert_array_equal(to_linear(5, Shape("s64", ())), [5])


# -- errors ------------------------------------------------------------------
def test_to_linear_errors():
    shape = Shape("f32", (2, 3), Layout((0, 1), (3, 5)))
    values = numbered((2, 3), np.float32)
    with pytest.raises(TypeError, match="shape must be a Shape, got list"):
        to_linear(values, [2, 3])
    with pytest.raises(
        ValueError,
        match=r"array has shape \(3, 2\), but shape f32\[2,3\]\{0,1:PAD\(3,5\)\} has dimensions \(2, 3\)",
    ):
        to_linear(values.T, shape)

def test_narrow_floats_need_ml_dtypes(monkeypatch):
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # as if not installed
    with pytest.raises(
        TypeError,
        match=r"element type bf16 of shape bf16\[2,3\]\{1,0\} has no NumPy dtype.*install ml_dtypes",
    ):
        to_linear(numbered((2, 3), np.float32), Shape("bf16", (2, 3)))


@pytest.mark.parametrize(
    "make_out, error, message",
    [
        (lambda: [0.0] * 15, TypeError, "out must be a 1-D NumPy array, got list"),
        (
            lambda: np.zeros((3, 5), np.float32),
            ValueError,
            r"out must be 1-D, got an array of shape \(3, 5\)",
        ),
        (
            lambda: np.zeros(15, np.float64),
            TypeError,
            r"out must have dtype float32 \(native byte order\) for shape f32\[2,3\]\{0,1:PAD\(3,5:zero\)\}, got <f8",
        ),
        (lambda: np.zeros(15, ">f4"), TypeError, "out must have dtype float32 .*got >f4"),
        (
            lambda: np.zeros(6, np.float32),
            ValueError,
            r"out holds 6 elements, but shape f32\[2,3\]\{0,1:PAD\(3,5:zero\)\} needs 15 \(its padded size\)",
        ),
        (
            lambda: np.zeros(30, np.float32)[::2],
            ValueError,
            r"out must be contiguous, got strides \(8,\) for itemsize 4",
        ),
        (lambda: read_only(np.zeros(15, np.float32)), ValueError, "out is read-only"),
    ],
)
def test_out_errors(make_out, error, message):
    shape = Shape("f32", (2, 3), Layout((0, 1), (3, 5), PaddingValue.ZERO_PAD))
    out = make_out()
    before = out.copy() if isinstance(out, np.ndarray) else None
    with pytest.raises(error, match=message):
        to_linear(numbered((2, 3), np.float32), shape, out=out)
    if before is not None:
        np.testing.assert_array_equal(out, before)


def test_out_must_not_overlap_the_input():
    shape = Shape("f32", (3,))
    memory = np.arange(4, dtype=np.float32)
    with pytest.raises(ValueError, match="out overlaps an input array"):
        to_linear(memory[:3], shape, out=memory[1:])
    np.testing.assert_array_equal(memory, [0, 1, 2, 3])


def test_out_is_not_touched_when_casting_fails():
    shape = Shape("f32", (2, 3), Layout((0, 1), (3, 5), PaddingValue.ZERO_PAD))
    out = np.full(15, 3.0, np.float32)
    with pytest.raises(TypeError, match="cannot cast"):
        to_linear(numbered((2, 3), np.float64), shape, out=out)
    np.testing.assert_array_equal(out, 3.0)


@pytest.mark.parametrize("read", [view_linear, from_linear], ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "buffer, error, message",
    [
        (
            b"\0" * 60,
            TypeError,
            r"buffer must be a 1-D NumPy array, got bytes; wrap raw bytes with np.frombuffer\(data, dtype='float32'\)",
        ),
        (
            np.zeros((3, 5), np.float32),
            ValueError,
            r"buffer must be 1-D, got an array of shape \(3, 5\)",
        ),
        (
            np.zeros(15, np.int32),
            TypeError,
            r"buffer must have dtype float32 \(native byte order\) for shape f32\[2,3\]\{0,1:PAD\(3,5\)\}, got <i4 \(int32\)",
        ),
        (np.zeros(15, ">f4"), TypeError, r"buffer must have dtype float32 .*got >f4"),
        (
            np.zeros(16, np.float32),
            ValueError,
            r"buffer holds 16 elements, but shape f32\[2,3\]\{0,1:PAD\(3,5\)\} needs 15",
        ),
        (np.zeros(6, np.float32), ValueError, "buffer holds 6 elements, but .* needs 15"),
        (
            np.zeros(30, np.float32)[::2],
            ValueError,
            r"buffer must be contiguous.*np.ascontiguousarray\(buffer\)",
        ),
    ],
)
def test_buffer_errors(read, buffer, error, message):
    with pytest.raises(error, match=message):
        read(buffer, Shape("f32", (2, 3), Layout((0, 1), (3, 5))))


def test_buffer_errors_for_shapes():
    with pytest.raises(TypeError, match="shape must be a Shape, got tuple"):
        view_linear(np.zeros(6, np.float32), (2, 3))
    with pytest.raises(TypeError, match=r"buffer must have dtype bfloat16 .* got <u2 \(uint16\)"):
        from_linear(np.zeros(6, np.uint16), Shape("bf16", (2, 3)))


def test_views_of_read_only_buffers_are_read_only():
    buffer = np.arange(15, dtype=np.int32)
    buffer.flags.writeable = False
    view = view_linear(buffer, SPEC_SHAPE)
    assert not view.flags.writeable
    np.testing.assert_array_equal(view, [[0, 3, 6], [1, 4, 7]])


def test_empty_shapes():
    shape = Shape("f32", (0, 3), Layout((0, 1), (2, 5), PaddingValue.ONE_PAD))
    buffer = to_linear(np.zeros((0, 3), np.float32), shape)
    np.testing.assert_array_equal(buffer, np.ones(10, np.float32))
    assert view_linear(buffer, shape).shape == (0, 3)
    # Strides past intp in a shape with no elements address nothing.
    huge = Shape("f32", (1, 0), Layout((0, 1), (2**62, 0), PaddingValue.ZERO_PAD))
    assert huge.byte_strides == (4, 2**64)
    assert huge.numpy_strides == (4, 0)
    assert view_linear(np.zeros(0, np.float32), huge).shape == (1, 0)
    assert to_linear(np.zeros((1, 0), np.float32), huge).shape == (0,)


# -- stride queries ------------------------------------------------------------
@given(numpy_shapes())
def test_strides_match_numpy_on_the_padded_array(shape):
    # The buffer seen as the padded array in major-to-minor order, transposed
    # back to dimension order and cut to the sizes, as NumPy computes it.
    order = shape.layout.major_to_minor
    dtype = shape.element_type.numpy_dtype
    padded = np.empty([shape.padded_dimensions[d] for d in order], dtype=dtype)
    logical = padded.transpose(np.argsort(order))[tuple(slice(0, n) for n in shape.dimensions)]
    itemsize = shape.element_type.byte_size
    assert shape.byte_strides == tuple(s * itemsize for s in shape.strides)
    if shape.element_count:
        assert shape.numpy_strides == logical.strides
        assert shape.byte_strides == logical.strides


def test_stride_queries_for_every_type():
    for element_type in PrimitiveType:
        if element_type.is_array:
            shape = Shape(element_type, (2, 3), Layout((0, 1), (3, 5)))
            size = element_type.byte_size
            assert shape.byte_strides == (size, 3 * size)
            assert shape.numpy_strides == (size, 3 * size)


def test_numpy_strides_overflow():
    shape = Shape("c128", (2, 2**60))
    assert shape.byte_strides == (2**64, 16)
    with pytest.raises(
        OverflowError,
        match=r"dimension 0 of shape c128.* has a stride of 18446744073709551616 bytes, more than NumPy's maximum",
    ):
        _ = shape.numpy_strides


# -- Shape.from_array ----------------------------------------------------------
def assert_describes(shape: Shape, array: np.ndarray) -> None:
    """``shape`` reproduces ``array`` in memory: a linear buffer starting at
    the array's first element, viewed with ``shape``, is ``array`` itself."""
    assert shape.dimensions == array.shape
    assert shape.element_type.numpy_dtype == array.dtype
    if array.size:
        memory = np.ravel(array.base if array.base is not None else array, order="K")
        start = (
            array.__array_interface__["data"][0] - memory.__array_interface__["data"][0]
        ) // array.itemsize
        buffer = memory[start : start + shape.buffer_size]
        view = view_linear(buffer, shape)
        assert view.__array_interface__["data"][0] == array.__array_interface__["data"][0]
        spread = [d for d, n in enumerate(array.shape) if n > 1]
        assert [view.strides[d] for d in spread] == [array.strides[d] for d in spread]
        np.testing.assert_array_equal(view, array)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("dims", [(), (5,), (2, 3), (2, 3, 4), (3, 1, 4), (1, 1, 5), (4, 1, 1)])
def test_from_array_c_and_fortran(dtype, dims):
    c = numbered(dims, dtype)
    f = np.array(c, order="F")
    rank = len(dims)
    assert Shape.from_array(c) == Shape(PrimitiveType.from_dtype(dtype), dims)
    assert Shape.from_array(f).layout == (
        Layout(range(rank)) if sum(n > 1 for n in dims) > 1 else Layout(range(rank - 1, -1, -1))
    )
    assert_describes(Shape.from_array(c), c)
    assert_describes(Shape.from_array(f), f)
    assert ShapeUtil.from_array(f) == Shape.from_array(f)


@given(
    st.lists(st.integers(2, 4), min_size=0, max_size=5).flatmap(
        lambda dims: st.tuples(st.just(tuple(dims)), st.permutations(range(len(dims))))
    )
)
def test_from_array_transposed(case):
    dims, axes = case
    array = numbered(dims, np.int16).transpose(axes)
    shape = Shape.from_array(array)
    # NumPy's transpose: result dimension i is C dimension axes[i], so the
    # result's dimensions from major to minor are argsort(axes).
    assert shape.layout == Layout.from_major_to_minor(np.argsort(axes).tolist())
    assert not shape.layout.padded_dimensions
    assert_describes(shape, array)
    np.testing.assert_array_equal(from_linear(to_linear(array, shape), shape), array)


@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=4).flatmap(
        lambda dims: st.tuples(
            st.just(tuple(dims)),
            st.permutations(range(len(dims))),
            st.lists(st.integers(0, 3), min_size=len(dims), max_size=len(dims)),
        )
    )
)
def test_from_array_slices_and_unit_dimensions(case):
    dims, axes, extra = case
    base = numbered(tuple(n + e for n, e in zip(dims, extra)), np.float32).transpose(axes)
    array = base[tuple(slice(0, dims[a]) for a in axes)]
    assert_describes(Shape.from_array(array), array)


def test_from_array_reads_slices_as_padding():
    base = numbered((4, 8), np.float32)
    shape = Shape.from_array(base[:2, :5])
    assert shape == Shape("f32", (2, 5), Layout((1, 0), (2, 8), PaddingValue.UNKNOWN_PAD))
    column = np.asfortranarray(numbered((6, 3), np.int64))[1:4, :2]
    assert Shape.from_array(column).layout == Layout((0, 1), (6, 2), PaddingValue.UNKNOWN_PAD)
    cube = numbered((5, 4, 3), np.uint8)[:2, :3, :]
    assert Shape.from_array(cube).layout == Layout((2, 1, 0), (2, 4, 3), PaddingValue.UNKNOWN_PAD)


def test_from_array_pads_a_size_1_dimension_for_a_minor_gap():
    # A column of a C array: its size-1 dimension becomes the padded minor one.
    c = numbered((4, 3), np.float64)
    assert Shape.from_array(c[:, :1]).layout == Layout((1, 0), (4, 3), PaddingValue.UNKNOWN_PAD)
    # A row of a Fortran array, and a column with a step.
    f = np.array(numbered((2, 5), np.float64), order="F")
    assert Shape.from_array(f[:1, :]).layout == Layout((0, 1), (2, 5), PaddingValue.UNKNOWN_PAD)
    stepped = numbered((4, 6), np.float64)[:, ::2][:, :1]
    assert Shape.from_array(stepped).layout == Layout((1, 0), (4, 6), PaddingValue.UNKNOWN_PAD)
    for array in (c[:, :1], f[:1, :], stepped):
        assert_describes(Shape.from_array(array), array)


def test_from_array_empty_arrays_get_the_default_layout():
    for array in (
        np.zeros((0, 3), order="F"),
        np.zeros((2, 0, 4)).transpose(2, 0, 1),
        np.zeros((3, 0))[::-1],
    ):
        assert Shape.from_array(array).layout == Layout(range(array.ndim - 1, -1, -1))


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: [[1.0, 2.0]], TypeError, "from_array reads a NumPy array's strides, got list"),
        (lambda: np.array(["a"]), ValueError, "NumPy dtype <U1 has no XLA element type"),
        (lambda: np.zeros(3, ">f4"), ValueError, r"non-native byte order \(>f4\).*newbyteorder"),
        (
            lambda: np.zeros((2, 3))[:, ::-1],
            ValueError,
            "dimension 1 has stride -8 bytes; a layout places every dimension at a positive stride",
        ),
        (
            lambda: np.broadcast_to(np.zeros(3), (2, 3)),
            ValueError,
            "dimension 0 has stride 0 bytes",
        ),
        (
            lambda: np.zeros((2, 6))[:, ::2],
            ValueError,
            "dimension 1, the most minor .smallest stride., has stride 2 elements; a layout's most minor dimension has stride 1",
        ),
        (
            lambda: np.lib.stride_tricks.as_strided(np.zeros(12, np.float32), (2, 3), (6, 4)),
            ValueError,
            "dimension 0 has stride 6 bytes, not a multiple of the itemsize 4",
        ),
        (
            lambda: np.lib.stride_tricks.as_strided(np.zeros(12), (2, 3), (48, 16)),
            ValueError,
            "dimension 1, the most minor .smallest stride., has stride 2 elements",
        ),
        (
            lambda: np.lib.stride_tricks.as_strided(np.zeros(20), (2, 3, 2), (56, 8, 24)),
            ValueError,
            "dimension 0 has stride 7 elements, not a multiple of the stride 3 of dimension 2, the next more minor",
        ),
        (
            lambda: np.lib.stride_tricks.as_strided(np.zeros(12), (3, 4), (16, 8)),
            ValueError,
            r"dimension 0 has stride 2 elements, less than the 4 x 1 elements spanned by dimension 1: the array's elements overlap",
        ),
        (
            lambda: np.lib.stride_tricks.as_strided(np.zeros(12), (3, 4), (8, 8)),
            ValueError,
            "elements overlap",
        ),
    ],
)
def test_from_array_errors(make, error, message):
    with pytest.raises(error, match=message):
        Shape.from_array(make())


@pytest.mark.parametrize("padding", [PaddingValue.ZERO_PAD, PaddingValue.ONE_PAD, PaddingValue.UNKNOWN_PAD])
def test_padding_fill_value_refuses_non_xla_dtypes(padding):
    with pytest.raises(TypeError, match="XLA element types only, got dtype <U3"):
        padding_fill_value(padding, "U3")
