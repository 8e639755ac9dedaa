"""The model: PrimitiveType, PaddingValue, Layout and Shape."""

import pickle

import numpy as np
import pytest

from xlashape import Layout, PaddingValue, PrimitiveType, Shape

XLA_TYPES = [
    ("PRED", 1, 1), ("S8", 2, 1), ("S16", 3, 2), ("S32", 4, 4), ("S64", 5, 8),
    ("U8", 6, 1), ("U16", 7, 2), ("U32", 8, 4), ("U64", 9, 8), ("F16", 10, 2),
    ("F32", 11, 4), ("F64", 12, 8), ("TUPLE", 13, None), ("OPAQUE", 14, None),
    ("C64", 15, 8), ("BF16", 16, 2), ("TOKEN", 17, None), ("C128", 18, 16),
    # Added to xla_data.proto since 2017 (numbers from openxla/xla's xla_data.proto).
    ("F8E5M2", 19, 1), ("F8E4M3FN", 20, 1), ("S4", 21, 1), ("U4", 22, 1),
    ("F8E4M3B11FNUZ", 23, 1), ("F8E5M2FNUZ", 24, 1), ("F8E4M3FNUZ", 25, 1),
    ("S2", 26, 1), ("U2", 27, 1), ("F8E4M3", 28, 1), ("F8E3M4", 29, 1),
    ("S1", 30, 1), ("U1", 31, 1), ("F4E2M1FN", 32, 1), ("F8E8M0FNU", 33, 1),
]  # fmt: skip


@pytest.mark.parametrize("name, number, size", XLA_TYPES)
def test_primitive_type_numbers_and_sizes(name, number, size):
    t = PrimitiveType[name]
    assert int(t) == number
    assert t.byte_size == size
    assert t.text == name.lower()
    assert PrimitiveType.from_text(name.lower()) is t
    assert PrimitiveType.coerce(number) is t


def test_primitive_type_is_complete():
    assert [t.name for t in PrimitiveType] == [n for n, _, _ in XLA_TYPES]


@pytest.mark.parametrize(
    "dtype, name",
    [("bool", "PRED"), ("int8", "S8"), ("int16", "S16"), ("int32", "S32"),
     ("int64", "S64"), ("uint8", "U8"), ("uint16", "U16"), ("uint32", "U32"),
     ("uint64", "U64"), ("float16", "F16"), ("float32", "F32"),
     ("float64", "F64"), ("complex64", "C64"), ("complex128", "C128")],
)  # fmt: skip
def test_numpy_dtype_mapping_both_ways(dtype, name):
    t = PrimitiveType[name]
    assert t.numpy_dtype == np.dtype(dtype)
    assert PrimitiveType.from_dtype(dtype) is t
    assert PrimitiveType.from_dtype(np.dtype(dtype).newbyteorder("S")) is t
    assert t.numpy_dtype.itemsize == t.byte_size


@pytest.mark.parametrize("name", ["BF16", "TUPLE", "OPAQUE", "TOKEN", "S4", "U2", "F8E5M2"])
def test_types_without_numpy_dtype(name):
    assert PrimitiveType[name].numpy_dtype is None


@pytest.mark.parametrize(
    "name, bits",
    [("S1", 1), ("U1", 1), ("S2", 2), ("U2", 2), ("S4", 4), ("U4", 4), ("F4E2M1FN", 4),
     ("PRED", 1), ("S8", 8), ("F8E4M3FN", 8), ("BF16", 16), ("F32", 32), ("C128", 128),
     ("TUPLE", None), ("TOKEN", None)],
)  # fmt: skip
def test_bit_widths(name, bits):
    # Sub-byte types still take a byte each unless a layout packs them (E(4)).
    # PRED holds one bit, as XLA's BitWidth (numeric_limits<bool>::digits).
    assert PrimitiveType[name].bit_width == bits


def test_primitive_type_prints_its_name():
    # Issue 11: str(PrimitiveType.F32) printed 11.
    assert str(PrimitiveType.F32) == "f32"
    assert f"{PrimitiveType.S4}" == "s4"
    assert repr(PrimitiveType.F32) == "<PrimitiveType.F32: 11>"
    assert int(PrimitiveType.F32) == 11


def test_primitive_type_errors():
    with pytest.raises(ValueError, match=r"unknown element type 'f31'.*f32"):
        PrimitiveType.from_text("f31")
    with pytest.raises(ValueError, match="unknown element type number 34"):
        PrimitiveType.coerce(34)
    with pytest.raises(ValueError, match="NumPy dtype <U3 has no XLA element type"):
        PrimitiveType.from_dtype("U3")
    with pytest.raises(TypeError, match="got float"):
        PrimitiveType.coerce(1.5)
    with pytest.raises(TypeError):
        PrimitiveType.coerce(True)


def test_padding_value_numbers():
    assert {p.name: int(p) for p in PaddingValue} == {
        "INVALID_PAD": 0, "ZERO_PAD": 1, "ONE_PAD": 2,
        "LOWEST_PAD": 3, "HIGHEST_PAD": 4, "UNKNOWN_PAD": 5,
    }  # fmt: skip


def test_layout_is_an_immutable_value():
    a = Layout([0, 1], [3, 5], PaddingValue.ZERO_PAD)
    b = Layout((0, 1), (3, 5), 1)
    assert a == b and hash(a) == hash(b)
    assert a != Layout((0, 1), (3, 5))
    assert a != Layout((0, 1))
    assert len({a, b, Layout((1, 0))}) == 2
    assert a.minor_to_major == (0, 1) and a.padded_dimensions == (3, 5)
    assert a.padding_value is PaddingValue.ZERO_PAD
    assert a.major_to_minor == (1, 0)
    assert pickle.loads(pickle.dumps(a)) == a
    assert eval(repr(a)) == a
    with pytest.raises(AttributeError, match="immutable"):
        a.minor_to_major = (1, 0)
    assert Layout([]) == Layout(())


def test_layout_from_major_to_minor():
    assert Layout.from_major_to_minor([2, 0, 1]) == Layout([1, 0, 2])


def test_layout_rejects_non_integers():
    with pytest.raises(TypeError, match=r"minor_to_major\[1\] must be an integer, got float"):
        Layout([0, 1.0])
    with pytest.raises(TypeError, match=r"padded_dimensions\[0\] must be an integer"):
        Layout([0], ["3"])
    with pytest.raises(TypeError, match="boolean"):
        Layout([True])
    with pytest.raises(TypeError, match="sequence of integers"):
        Layout("01")
    with pytest.raises(ValueError, match="padding_value must be a PaddingValue"):
        Layout([0], padding_value=9)


def test_shape_is_an_immutable_value():
    a = Shape("f32", [2, 3])
    b = Shape(PrimitiveType.F32, (2, 3), Layout((1, 0)))
    assert a == b and hash(a) == hash(b)
    assert a != Shape("f32", [2, 3], Layout((0, 1)))
    assert a != Shape("f64", [2, 3])
    assert a != Shape("f32", [2, 3], Layout((1, 0), (2, 3)))
    assert pickle.loads(pickle.dumps(a)) == a
    assert eval(repr(a)) == a
    with pytest.raises(AttributeError, match="immutable"):
        a.dimensions = (1,)
    assert a.dimensions == (2, 3) and a.element_type is PrimitiveType.F32
    assert np.int64(2) in a.dimensions and type(Shape("f32", [np.int64(2)]).dimensions[0]) is int


def test_default_layout_is_major_to_minor():
    assert Shape("f32", [2, 3, 4]).layout == Layout((2, 1, 0))
    assert Shape("f32", []).layout == Layout(())


@pytest.mark.parametrize(
    "dims, layout, error, message",
    [
        ([2, 3], Layout([2, 1, 0]), ValueError,
         r"layout minor_to_major field contains 3 elements, but shape has 2 dimensions"),
        ([2, 3], Layout([0, 2]), ValueError,
         r"layout minor_to_major field has out-of-bounds value 2"),
        ([2, 3], Layout([0, -1]), ValueError,
         r"layout minor_to_major field has out-of-bounds value -1"),
        ([2, 3], Layout([1, 1]), ValueError,
         r"layout minor_to_major field has duplicate values: \{1,1\}"),
        ([2, 3], Layout([1, 0], [3]), ValueError,
         r"layout has 1 padded width, but shape has 2 dimensions: one width per dimension"),
        ([2, 3], Layout([1, 0], [2, 2]), ValueError,
         r"for dimension 1, dimension padding \(2\) is smaller than the dimension size \(3\) of the shape"),
        ([2, -3], None, ValueError,
         r"shape's dimensions must not be < 0; dimension at index 1 was -3"),
        ([2**32, 2**32], None, OverflowError,
         r"holds 18446744073709551616 elements.*int64 maximum 9223372036854775807"),
        ([2, 3], Layout([1, 0], [2**62, 3]), OverflowError, r"more than the int64 maximum"),
        ([2.0], None, TypeError, r"dimensions\[0\] must be an integer, got float"),
    ],
)  # fmt: skip
def test_shape_validation(dims, layout, error, message):
    with pytest.raises(error, match=message):
        Shape("f32", dims, layout)


def test_shape_rejects_non_array_types():
    for name in ("tuple", "opaque", "token"):
        with pytest.raises(ValueError, match="not an array element type"):
            Shape(name, [2])
    with pytest.raises(TypeError, match="layout must be a Layout"):
        Shape("f32", [2], (0,))


# 2**63 - 1 = 49 * 73 * 127 * 337 * 92737 * 649657: the largest buffer there is.
INT64_MAX_FACTORS = (49, 73, 127, 337, 92737, 649657)


def test_largest_shape_that_fits_int64():
    shape = Shape("u8", INT64_MAX_FACTORS)
    assert shape.buffer_size == 2**63 - 1
    assert shape.strides[0] == (2**63 - 1) // 49


def test_size_limit_is_exact():
    Shape("u8", [2**31 - 1, 2**32 + 1])  # 2**63 + 2**31 - 2**32 - 1 < 2**63
    with pytest.raises(OverflowError):
        Shape("u8", [2**31, 2**32])  # exactly 2**63


def test_dimension_numbering():
    shape = Shape("f32", [5, 6, 7])
    assert [shape.dimension(i) for i in range(-3, 3)] == [5, 6, 7, 5, 6, 7]
    for bad in (3, -4):
        with pytest.raises(IndexError, match=f"dimension number {bad} is out of range for a rank-3 shape"):
            shape.dimension(bad)
    with pytest.raises(IndexError, match="rank-0 shape has no dimensions"):
        Shape("f32", []).dimension(0)


def test_sizes_and_strides():
    shape = Shape("f32", [2, 3], Layout([0, 1], [3, 5]))
    assert shape.element_count == 6
    assert shape.buffer_size == 15
    assert shape.strides == (1, 3)
    assert shape.padded_dimensions == (3, 5)
    assert Shape("f32", [2, 3]).padded_dimensions == (2, 3)
    assert Shape("f32", []).buffer_size == 1
    assert Shape("f32", [4, 0]).element_count == 0


def test_dimensions_beyond_int64_are_refused_even_in_empty_shapes():
    with pytest.raises(OverflowError, match="dimension 1 has size or padded width 18446744073709551616"):
        Shape("f32", (0, 2**64))
    with pytest.raises(OverflowError, match="dimension 0 has size or padded width"):
        Shape("f32", (0, 3), Layout((1, 0), (2**63, 3)))


def test_padding_value_refuses_booleans():
    with pytest.raises(ValueError, match="padding_value must be a PaddingValue"):
        Layout([0], padding_value=True)
