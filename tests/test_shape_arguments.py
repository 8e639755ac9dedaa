"""Shape arguments as users write them: shape text wherever a Shape goes,
NumPy's dtype names for element types, and the messages for what is refused.
Oracle: the same call on the parsed Shape, and PrimitiveType.from_dtype.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import shapes

import xlashape as xs
from xlashape import IndexUtil, LayoutUtil, PrimitiveType, Shape, ShapeUtil
from xlashape.linear import buffers

TEXT = "f32[4,300]{1,0:T(2,128)}"
BUFFER = np.arange(1536, dtype=np.float32)  # the tiled buffer
ROWS = np.array([[0, 0], [1, 2], [1, 0]])


def _dask_ravel(shape):
    dask = pytest.importorskip("xlashape.dask")
    return dask.ravel(ROWS, shape).compute(scheduler="synchronous")


def _dask_unravel(shape):
    dask = pytest.importorskip("xlashape.dask")
    return dask.unravel(np.array([0, 8, 130]), shape).compute(scheduler="synchronous")


CALLS = {
    "xs.ravel": lambda shape: xs.ravel(ROWS, shape, mode="wrap"),
    "xs.unravel": lambda shape: xs.unravel([0, 8, 130], shape),
    "IndexUtil.multidimensional_index_to_linear_index": (
        lambda shape: IndexUtil.multidimensional_index_to_linear_index(shape, (1, 2))),
    "IndexUtil.linear_index_to_multidimensional_index": (
        lambda shape: IndexUtil.linear_index_to_multidimensional_index(shape, 8)),
    "IndexUtil.index_in_bounds": lambda shape: IndexUtil.index_in_bounds(shape, (1, 3)),
    "LayoutUtil.is_padded": LayoutUtil.is_padded,
    "ShapeUtil.elements_in": ShapeUtil.elements_in,
    "ShapeUtil.human_string_with_layout": ShapeUtil.human_string_with_layout,
    "ShapeUtil.equal": lambda shape: ShapeUtil.equal(shape, TEXT),
    "buffers.to_linear": lambda shape: buffers.to_linear(BUFFER[:1200].reshape(4, 300), shape),
    "buffers.from_linear": lambda shape: buffers.from_linear(BUFFER, shape),
    "xlashape.dask.ravel": _dask_ravel,
    "xlashape.dask.unravel": _dask_unravel,
}


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b)) if isinstance(a, tuple) else np.array_equal(a, b)


@pytest.mark.parametrize("name", CALLS)
def test_shape_text_goes_wherever_a_shape_goes(name):
    call = CALLS[name]
    assert same(call(TEXT), call(ShapeUtil.parse_shape_string(TEXT)))


def test_strides_of_shape_text():
    assert IndexUtil.get_dimension_stride("f32[2,3]{0,1}", 1) == 2


@given(shapes())
@settings(max_examples=40, deadline=None)
def test_any_shape_text_ravels_as_its_shape(shape):
    rows = np.zeros((1, shape.rank), dtype=np.int64)
    if shape.element_count == 0:
        return
    text = ShapeUtil.human_string_with_layout(shape)
    np.testing.assert_array_equal(xs.ravel(rows, text), xs.ravel(rows, shape))


@pytest.mark.parametrize(
    "text, message",
    [
        ("(f32[2], s32[3])", "shape '(f32[2], s32[3])' is a tuple shape, not an array shape"),
        ("token[]", "shape 'token[]' is a token shape, not an array shape"),
        ("opaque[]", "shape 'opaque[]' is an opaque shape, not an array shape"),
        ("f32[2,", "cannot parse shape 'f32[2,'"),
    ],
)
def test_text_that_is_no_array_shape_is_refused(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        xs.ravel(ROWS, text)


def test_other_types_are_refused_naming_text_as_an_option():
    with pytest.raises(TypeError, match=r"shape must be a Shape, got tuple; shape text such as "
                                        r"'f32\[2,3\]\{1,0\}' is taken too"):
        xs.ravel(ROWS, (2, 3))


# -- element types ---------------------------------------------------------------
NUMPY_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_numpy_dtype_names_name_their_xla_type(name):
    expected = PrimitiveType.from_dtype(np.dtype(name))
    assert Shape(name, (2, 3)) == Shape(expected, (2, 3)) == Shape(np.dtype(name), (2, 3))
    assert PrimitiveType.coerce(name) is expected


@pytest.mark.parametrize(
    "name, text", [("bfloat16", "bf16"), ("float8_e4m3fn", "f8e4m3fn"), ("float8_e5m2", "f8e5m2"),
                   ("int4", "s4"), ("uint4", "u4"), ("int2", "s2"), ("float4_e2m1fn", "f4e2m1fn")],
)
def test_ml_dtypes_names_name_their_xla_type(name, text):
    assert PrimitiveType.coerce(name) is PrimitiveType.from_text(text)
    assert Shape(name, (4,)) == Shape(text, (4,))


@pytest.mark.parametrize(
    "name, hint",
    [
        ("f4", "(NumPy reads it as float32, XLA's 'f32')"),
        ("i8", "(NumPy reads it as int64, XLA's 's64')"),
        ("float", "(NumPy reads it as float64, XLA's 'f64')"),
        ("f31", "(did you mean 'f32'?)"),
        ("F32", "(did you mean 'f32'?)"),
    ],
)
def test_ambiguous_or_unknown_names_are_refused_with_a_hint(name, hint):
    with pytest.raises(ValueError, match=re.escape(f"unknown element type '{name}' {hint}; expected one of ")):
        Shape(name, (2, 3))


# -- messages --------------------------------------------------------------------
@pytest.mark.parametrize(
    "widths, message",
    [((3,), "layout has 1 padded width, but shape has 2 dimensions: one width per dimension"),
     ((3, 5, 7), "layout has 3 padded widths, but shape has 2 dimensions: one width per dimension")],
)
def test_padded_width_count_message(widths, message):
    with pytest.raises(ValueError, match=message):
        Shape("f32", (2, 3), xs.Layout((0, 1), widths))


@pytest.mark.parametrize(
    "mode, message",
    [("bogus", "mode must be 'raise', 'wrap' or 'clip' (once, or one per dimension), got 'bogus'"),
     (("wrap",), "mode has 1 entry for a rank-2 shape; give one mode for all dimensions or one per "
                 "dimension"),
     (("wrap",) * 3, "mode has 3 entries for a rank-2 shape")],
)
def test_ravel_mode_messages_say_mode(mode, message):
    with pytest.raises(ValueError) as refused:
        xs.ravel(ROWS, TEXT, mode=mode)
    assert message in str(refused.value)
    assert "clipmode" not in str(refused.value)


def test_from_jax_of_a_numpy_array_points_to_from_array():
    with pytest.raises(TypeError) as refused:
        Shape.from_jax(np.zeros(3))
    assert "AUTO" not in str(refused.value)
    assert str(refused.value).endswith(
        "got ndarray; a NumPy array has no device layout: Shape.from_array reads its strides")


def test_from_jax_of_an_auto_layout_says_so():
    layout = pytest.importorskip("jax.experimental.layout")
    auto = layout.Format(layout.Layout.AUTO)
    with pytest.raises(TypeError, match="its AUTO layout has not been chosen yet"):
        Shape.from_jax(auto, dimensions=(2, 3), dtype="float32")
