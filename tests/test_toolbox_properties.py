"""Properties of the toolbox functions XLA has no unit tests for, against
oracles: NumPy's and ml_dtypes' knowledge of the element types, NumPy's
strides, the library's own bitcast predicates and ravel, and the
definitions in XLA's sources (xla/shape_util.cc, xla/layout_util.cc,
xla/primitive_util.h)."""

import math

import hypothesis.strategies as st
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from strategies import shapes

import xlashape as xs
from xlashape import Layout, LayoutUtil, PrimitiveType, Shape, ShapeUtil
from xlashape.linear.packing import ml_dtype
from xlashape.model.primitive_util import higher_precision_type

ARRAY_TYPES = [t for t in PrimitiveType if t.is_array]
plain_shapes = shapes(max_rank=5, pad=False)


def _dtype(t: PrimitiveType) -> np.dtype:
    return t.numpy_dtype if t.numpy_dtype is not None else ml_dtype(t)


def _kind(t: PrimitiveType) -> str:
    """'c', 'f', 'i', 'u' or 'b', as NumPy and ml_dtypes know the type."""
    dt = _dtype(t)
    if np.issubdtype(dt, np.complexfloating):
        return "c"
    if dt == np.bool_:
        return "b"
    try:
        ml_dtypes.finfo(dt)
        return "f"
    except ValueError:
        return "i" if ml_dtypes.iinfo(dt).min < 0 else "u"


@pytest.mark.parametrize("t", ARRAY_TYPES, ids=str)
def test_element_predicates_match_numpy_and_ml_dtypes(t):
    shape = Shape(t, [2])
    kind = _kind(t)
    assert ShapeUtil.element_is_integral(shape) == (kind in "iu")
    assert ShapeUtil.element_is_floating(shape) == (kind == "f")
    assert ShapeUtil.element_is_complex(shape) == (kind == "c")
    assert ShapeUtil.element_is_signed(shape) == (kind in "if")
    bits = 1 if kind == "b" else ml_dtypes.iinfo(_dtype(t)).bits if kind in "iu" else 8 * _dtype(t).itemsize
    if kind == "f" and t.bit_width != 8 * _dtype(t).itemsize:
        bits = t.bit_width  # f4e2m1fn: 4 bits held in a byte
    assert ShapeUtil.element_has_bit_width(shape, bits)
    assert ShapeUtil.element_is_integral_with_bits(shape, bits) == (kind in "iu")
    assert ShapeUtil.has_primitive_type(ShapeUtil.make_tuple_shape([ShapeUtil.make_tuple_shape([shape])]), t)
    assert ShapeUtil.is_scalar_with_element_type(ShapeUtil.make_scalar_shape(t), t)
    assert not ShapeUtil.is_scalar_with_element_type(shape, t)


def test_non_arrays_are_none_of_them():
    for shape in (ShapeUtil.make_token_shape(), ShapeUtil.make_opaque_shape(), ShapeUtil.make_tuple_shape([])):
        assert not (ShapeUtil.element_is_integral(shape) or ShapeUtil.element_is_floating(shape)
                    or ShapeUtil.element_is_complex(shape) or ShapeUtil.element_is_signed(shape)
                    or ShapeUtil.element_has_bit_width(shape, 0))
    with pytest.raises(ValueError, match="not an array element type"):
        ShapeUtil.higher_precision_element_type("token[]", "f32[]")


@pytest.mark.parametrize("t", [t for t in ARRAY_TYPES if _kind(t) == "f"], ids=str)
def test_precision_limits_are_numpys_and_ml_dtypes(t):
    """XLA's OverflowExponent and SignificandWidth are numeric_limits'
    max_exponent and digits: finfo's maxexp and nmant + 1."""
    info = ml_dtypes.finfo(_dtype(t))
    higher = [u for u in ARRAY_TYPES if _kind(u) == "f" and u != t
              and (ml_dtypes.finfo(_dtype(u)).maxexp, ml_dtypes.finfo(_dtype(u)).nmant + 1)
              > (info.maxexp, info.nmant + 1)]
    for u in higher:
        assert higher_precision_type(t, u) == u and higher_precision_type(u, t) == u


@given(st.sampled_from(ARRAY_TYPES), st.sampled_from(ARRAY_TYPES))
def test_higher_precision_is_one_of_the_two_and_symmetric(a, b):
    try:
        high = ShapeUtil.higher_precision_element_type(Shape(a, []), Shape(b, []))
    except ValueError as e:
        assert a != b and "same precision" in str(e)
        return
    assert high in (a, b)
    assert higher_precision_type(b, a) == high
    assert ShapeUtil.element_can_upcast(Shape(a, []), Shape(b, [])) == (high == b)
    kinds = _kind(a) + _kind(b)
    if "c" in kinds:
        assert _kind(high) == "c"
    elif "f" in kinds:
        assert _kind(high) == "f"


def test_precision_examples():
    assert ShapeUtil.higher_precision_element_type("f32[2]", "bf16[2]") == PrimitiveType.F32
    assert ShapeUtil.higher_precision_element_type("c64[2]", "f64[2]") == PrimitiveType.C64
    assert ShapeUtil.higher_precision_element_type("s8[2]", "u8[2]") == PrimitiveType.S8
    assert ShapeUtil.higher_precision_element_type("pred[2]", "u8[2]") == PrimitiveType.U8
    assert ShapeUtil.element_can_upcast("f16[2]", "f32[2]")
    assert ShapeUtil.same_element_type_ignoring_fp_precision("f8e5m2[2]", "f64[2]")
    assert not ShapeUtil.same_element_type_ignoring_fp_precision("f32[2]", "c64[2]")


@pytest.mark.parametrize("complex_type, component", [("c64", np.float32), ("c128", np.float64)])
def test_complex_component_shape(complex_type, component):
    shape = P(f"{complex_type}[3,4]{{0,1:S(1)}}")
    part = ShapeUtil.complex_component_shape(shape)
    assert part.element_type.numpy_dtype == np.dtype(component)
    assert part.element_type.numpy_dtype == np.zeros(1, np.dtype(complex_type.replace("c", "complex"))).real.dtype
    assert part.dimensions == shape.dimensions and part.layout == shape.layout
    with pytest.raises(ValueError, match="takes a complex shape"):
        ShapeUtil.complex_component_shape("f32[3]")


P = ShapeUtil.parse_shape_string


# -- dimension surgery -------------------------------------------------------------------


@given(plain_shapes, st.data())
def test_inserting_dimensions_of_size_1_moves_no_element(shape, data):
    """Inserted dimensions of size 1 leave every element in place (a reshape
    that is a bitcast); deleting any inserted dimensions gives back the
    order; the new ones sit together in the layout, just more major than
    the dimension they precede (most minor at the end)."""
    at = data.draw(st.integers(0, shape.rank))
    n = data.draw(st.integers(0, 3))
    bounds = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    result = ShapeUtil.insert_dimensions_at_index(shape, at, bounds)
    assert result.dimensions == shape.dimensions[:at] + tuple(bounds) + shape.dimensions[at:]
    new = list(range(at, at + n))
    kept = ShapeUtil.delete_dimensions(new, result)
    assert kept.dimensions == shape.dimensions and kept.layout.minor_to_major == shape.layout.minor_to_major
    order = result.layout.minor_to_major
    if n:
        assert LayoutUtil.are_dimensions_consecutive(result.layout, new)
        assert [d for d in order if d in new] == new[::-1]
        if at < shape.rank:
            assert order.index(at + n) == order.index(new[-1]) - 1
        else:
            assert order[:n] == tuple(new[::-1])
    ones = ShapeUtil.insert_dimensions_at_index(shape, at, [1] * n)
    assert ShapeUtil.reshape_is_bitcast(shape, ones)
    if n == 1:
        assert ShapeUtil.insert_dimension_at_index(shape, at, bounds[0]) == result


@given(plain_shapes, st.integers(0, 5))
def test_prepend_major_dimension_is_most_major(shape, bound):
    result = ShapeUtil.prepend_major_dimension(bound, shape)
    assert result.dimensions == (bound, *shape.dimensions)
    assert result.layout.minor_to_major[-1] == 0
    assert ShapeUtil.delete_dimension(0, result).layout.minor_to_major == shape.layout.minor_to_major
    assert ShapeUtil.reshape_is_bitcast(shape, ShapeUtil.prepend_major_dimension(1, shape))


@given(shapes(max_rank=5), st.data())
def test_reorder_and_permute_ignoring_layout(shape, data):
    perm = data.draw(st.permutations(range(shape.rank)))
    reordered = ShapeUtil.reorder_logical_dimensions(shape, perm)
    assert reordered == ShapeUtil.permute_dimensions(perm, shape)
    assert ShapeUtil.transpose_is_bitcast(shape, reordered, perm)
    ignoring = ShapeUtil.permute_dimensions_ignoring_layout(perm, shape)
    assert ignoring.dimensions == tuple(np.transpose(np.empty(shape.dimensions), perm).shape)
    assert ignoring.layout.minor_to_major == shape.layout.minor_to_major
    assert ignoring.dynamic_dimensions == tuple(shape.dynamic_dimensions[p] for p in perm)


@given(plain_shapes, st.data())
def test_is_effectively_most_major_dimension(shape, data):
    if not shape.rank:
        return
    dim = data.draw(st.integers(0, shape.rank - 1))
    more_major = shape.layout.major_to_minor[: shape.layout.major_to_minor.index(dim)]
    expected = all(shape.dimensions[d] == 1 for d in more_major)
    assert ShapeUtil.is_effectively_most_major_dimension(shape, dim) == expected


@given(plain_shapes, st.data())
def test_move_dim_to_minor(shape, data):
    if not shape.rank:
        return
    dim = data.draw(st.integers(0, shape.rank - 1))
    layout = LayoutUtil.move_dim_to_minor(shape.layout, dim)
    assert layout.minor_to_major[0] == dim
    assert [d for d in layout.minor_to_major if d != dim] == [d for d in shape.layout.minor_to_major if d != dim]
    assert LayoutUtil.last_dim_is_minor_most(layout) == (dim == shape.rank - 1)
    with pytest.raises(IndexError):
        LayoutUtil.move_dim_to_minor(shape.layout, shape.rank)


def test_layout_queries():
    assert LayoutUtil.last_dim_is_minor_most(Layout([]))
    assert LayoutUtil.is_untiled_layout(Layout([1, 0], element_size_in_bits=4))
    assert not LayoutUtil.is_untiled_layout(P("f32[8,8]{1,0:T(8,128)}").layout)


# -- sizes and strides -------------------------------------------------------------------


@given(plain_shapes)
def test_unpacked_byte_strides_are_numpys(shape):
    """A NumPy array transposed into the layout's order has the layout's
    strides: unpacked_byte_strides of its shape are NumPy's."""
    dtype = _dtype(shape.element_type)
    physical = np.zeros(tuple(shape.dimensions[d] for d in shape.layout.major_to_minor), dtype)
    array = np.transpose(physical, np.argsort(shape.layout.major_to_minor))
    assert array.shape == shape.dimensions
    if shape.element_count:
        assert ShapeUtil.unpacked_byte_strides(shape) == array.strides
    assert ShapeUtil.byte_strides(shape) == ShapeUtil.unpacked_byte_strides(shape)
    assert ShapeUtil.element_size_in_bits(shape) == 8 * dtype.itemsize


@given(plain_shapes)
def test_array_data_size_ends_at_the_last_element(shape):
    """Untiled: the bytes up to the last element's offset (its ravel, the
    library's own kernels) and one element; the whole buffer, here."""
    expected = 0
    if shape.element_count:
        last = xs.ravel(np.array([[d - 1 for d in shape.dimensions]], np.int64).reshape(1, shape.rank), shape)[0]
        expected = (int(last) + 1) * shape.element_type.byte_size
    assert ShapeUtil.array_data_size(shape) == expected
    assert expected in (0, ShapeUtil.byte_size_of(shape))


def test_array_data_size_of_packed_and_tiled_shapes():
    assert ShapeUtil.array_data_size("s4[3,5]{1,0:E(4)}") == 8
    tiled = P("f32[3,5]{1,0:T(2,2)}")
    assert ShapeUtil.array_data_size(tiled) == 4 * (LayoutUtil.linear_index(tiled, [2, 4]) + 1)
    with pytest.raises(ValueError, match="2017 padding"):
        ShapeUtil.array_data_size(Shape("f32", [2, 3], Layout([0, 1], [3, 5])))


@given(shapes(max_rank=4, pad=False), st.data())
def test_max_split_sizes(shape, data):
    """MaxSplitSize as XLA computes it: the largest gap between 0, the split
    indices and the size."""
    if not shape.rank:
        return
    physical = data.draw(st.integers(0, shape.rank - 1))
    dim = shape.layout.major_to_minor[physical]
    size = shape.dimensions[dim]
    cuts = sorted(data.draw(st.lists(st.integers(0, size), max_size=3)))
    split = Shape(shape.element_type, shape.dimensions, Layout(shape.layout.minor_to_major,
                                                                split_configs=[(physical, cuts)]))
    edges = [0, *cuts, size]
    assert LayoutUtil.max_split_size(split, dim) == int(np.diff(edges).max())
    assert LayoutUtil.max_elements_in_per_split(split) == math.prod(
        LayoutUtil.max_split_size(split, d) for d in range(shape.rank)
    )


# -- host shapes, tuples, dynamic shapes ---------------------------------------------------


DEVICE = ["f32[8,128]{1,0:T(8,128)}", "s4[8]{0:E(4)}", "f32[2]{0:S(1)}", "f32[2,3]{1,0:T(2,2)L(4)}",
          "f32[<=16,3]{1,0:M(8)}", "f32[150,200]{0,1:SC(0:30)}", "(f32[2]{0:S(2)}, (token[], s8[3]))"]


@pytest.mark.parametrize("text", DEVICE)
def test_device_shape_to_host_shape(text):
    device = P(text)
    host = ShapeUtil.device_shape_to_host_shape(device)
    assert ShapeUtil.device_shape_is_host_shape(host)
    assert ShapeUtil.device_shape_to_host_shape(host) == host
    assert ShapeUtil.device_shape_is_host_shape(device) == (host == device)
    assert ShapeUtil.equal_structure(host, device) and ShapeUtil.compatible(host, device)
    for (d, h) in zip(ShapeUtil.flatten_tuple_shape(device), ShapeUtil.flatten_tuple_shape(host)):
        if isinstance(d, Shape):
            assert h.layout.minor_to_major == d.layout.minor_to_major
            assert h.layout.split_configs == d.layout.split_configs
            assert h.dynamic_dimensions == d.dynamic_dimensions
            assert not (h.layout.tiles or h.layout.memory_space or h.layout.element_size_in_bits)


def test_only_split_configs_stay_on_the_host():
    assert not ShapeUtil.device_shape_is_host_shape("f32[2]{0:S(1)}")
    assert ShapeUtil.device_shape_is_host_shape("f32[150,200]{0,1:SC(0:30)}")
    assert str(ShapeUtil.device_shape_to_host_shape("s4[8]{0:E(4)}")) == "s4[8]{0}"


@given(st.recursive(st.just(Shape("f32", [2])) | st.just(ShapeUtil.make_token_shape()),
                    lambda inner: st.lists(inner, max_size=3).map(ShapeUtil.make_tuple_shape), max_leaves=8))
def test_tuple_counts(shape):
    walked = []
    ShapeUtil.for_each_subshape(shape, lambda s, i: walked.append(s))
    assert ShapeUtil.subshape_count(shape) == len(walked)
    flat = ShapeUtil.flatten_tuple_shape(shape)
    assert flat == [leaf.shape for leaf in ShapeUtil.get_leaf_shapes(shape)]
    assert len(flat) == ShapeUtil.get_leaf_count(shape)
    if isinstance(shape, xs.TupleShape):
        assert ShapeUtil.is_nested_tuple(shape) == any(isinstance(s, xs.TupleShape) for s in shape)
        assert ShapeUtil.slice_tuple(shape, 0, len(shape)) == shape


@pytest.mark.parametrize(
    "dynamic, bounded, expected",
    [
        ("f32[<=3,4]", "f32[5,4]", True),
        ("f32[<=6,4]", "f32[5,4]", False),
        ("f32[<=3]", "f32[5,4]", False),
        ("f32[?,4]", "f32[1,4]", True),
        ("(f32[<=3], s8[9])", "(f32[4], s8[2], token[])", True),
        ("(f32[<=3], s8[2])", "(f32[2], s8[2])", False),
        ("(f32[<=3])", "f32[4]", False),
        ("f32[<=3]", "(f32[4])", False),
        ("(f32[<=3], (s8[<=2]))", "(f32[3], (s8[2]))", True),
        ("(f32[<=3], (s8[<=2]))", "(f32[3], s8[2])", False),
        ("f32[9]", "f32[2]", True),
    ],
)
def test_dynamic_shape_is_compatible(dynamic, bounded, expected):
    """XLA's DynamicShapeIsCompatible: only arrays with a dynamic dimension
    are held to their bounds (a static f32[9] against f32[2] passes, as in
    XLA's code)."""
    assert ShapeUtil.dynamic_shape_is_compatible(dynamic, bounded) is expected


@given(shapes(max_rank=5, pad=False))
def test_static_extent_product(shape):
    assert ShapeUtil.static_extent_product(shape) == shape.element_count
    assert ShapeUtil.dynamic_array_shape_is_compatible(shape, shape)


def test_static_extent_product_leaves_out_unbounded_sizes():
    assert ShapeUtil.static_extent_product("f32[?,784,<=10]") == 7840
    assert ShapeUtil.static_extent_product("f32[?]") == 1



@given(st.recursive(st.just(Shape("f32", [2])) | st.just(ShapeUtil.make_token_shape()),
                    lambda inner: st.lists(inner, max_size=3).map(ShapeUtil.make_tuple_shape), max_leaves=8))
def test_post_order_is_the_reverse_walk_of_children_first(shape):
    """Every tuple comes after all of its sub-shapes, and the visits are
    for_each_subshape's, each once."""
    pre, post = [], []
    ShapeUtil.for_each_subshape(shape, lambda s, i: pre.append(i))
    ShapeUtil.for_each_subshape_post_order(shape, lambda s, i: post.append(i))
    assert sorted(pre) == sorted(post) and post[-1] == ()
    for k, index in enumerate(post):
        assert not any(len(other) > len(index) and other[: len(index)] == index for other in post[k + 1 :])


@given(shapes(max_rank=4), shapes(max_rank=4))
def test_compatible_kind(a, b):
    """CompatibleKind: arrays of one rank, whatever their types and sizes."""
    assert ShapeUtil.compatible_kind(a, b) == (a.rank == b.rank)
    if ShapeUtil.compatible(a, b):
        assert ShapeUtil.compatible_kind(a, b)
    token, opaque = ShapeUtil.make_token_shape(), ShapeUtil.make_opaque_shape()
    assert ShapeUtil.compatible_kind(ShapeUtil.make_tuple_shape([a, token]), ShapeUtil.make_tuple_shape([b, token])) == (
        a.rank == b.rank
    )
    assert not ShapeUtil.compatible_kind(token, opaque) and not ShapeUtil.compatible_kind(a, token)


def test_byte_size_of_elements_recursive_and_index_table():
    t = P("(f32[2,3], (s8[5], token[]), s4[3]{0:E(4)})")
    assert ShapeUtil.byte_size_of_elements_recursive(t) == sum(
        ShapeUtil.byte_size_of_elements(s) for s in ShapeUtil.flatten_tuple_shape(t) if isinstance(s, Shape)
    ) == 24 + 5 + 2
    assert ShapeUtil.byte_size_of_elements_recursive("token[]") == 0
    with pytest.raises(ValueError, match="no elements to count"):
        ShapeUtil.byte_size_of_elements_recursive("(opaque[])")
    assert ShapeUtil.byte_size_of_tuple_index_table(t, 8) == 24
    with pytest.raises(ValueError, match="pointer_size must be > 0"):
        ShapeUtil.byte_size_of_tuple_index_table(t, 0)
    with pytest.raises(TypeError, match="takes a tuple shape"):
        ShapeUtil.byte_size_of_tuple_index_table("f32[2]", 8)


@pytest.mark.parametrize("t", ARRAY_TYPES, ids=str)
def test_update_element_size_in_bits(t):
    """XLA's UpdateElementSizeInBits: packed sub-byte types get their bit
    width (ml_dtypes' iinfo bits for the integers); every other type 0."""
    shape = ShapeUtil.make_tuple_shape([Shape(t, [8]), ShapeUtil.make_token_shape()])
    packed = ShapeUtil.update_element_size_in_bits(shape, True)[0]
    kind = _kind(t)
    sub_byte = (kind in "iu" and ml_dtypes.iinfo(_dtype(t)).bits < 8) or t == PrimitiveType.F4E2M1FN
    assert packed.layout.element_size_in_bits == (t.bit_width if sub_byte else 0)
    assert ShapeUtil.update_element_size_in_bits(ShapeUtil.make_tuple_shape([packed]), False)[0].layout == Layout([0])


def test_layout_order_predicates():
    for rank in range(5):
        assert LayoutUtil.has_descending_layout(LayoutUtil.make_descending_layout(rank))
        assert LayoutUtil.has_ascending_layout(LayoutUtil.make_ascending_layout(rank))
        assert LayoutUtil.has_descending_layout(Layout(range(rank))) == (rank < 2)
    assert LayoutUtil.get_split_config("f32[150,200]{1,0:SC(0:30)}") == xs.SplitConfig(0, [30])
    assert LayoutUtil.get_split_config("f32[150,200]") is None
    with pytest.raises(ValueError, match="at most one split config"):
        LayoutUtil.get_split_config("f32[150,200]{1,0:SC(0:30)(1:40)}")
    assert LayoutUtil.has_any_layout("(f32[2], token[])") and LayoutUtil.is_dense_array("f32[2]")
    assert not LayoutUtil.is_dense_array("token[]")
