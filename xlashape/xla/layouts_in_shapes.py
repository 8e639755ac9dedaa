"""XLA's ``LayoutUtil`` on the layouts inside whole shapes, tuples
included: validate, compare, copy, reset to the default, clear tiles, and
read the memory space.

Every array here carries a layout (``None`` at construction means the
default one), so XLA's "shape without a layout" has no counterpart:
:func:`has_layout` is always true. Tokens and opaque values have none.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model.layout import Layout
from ..model.layout_edit import replace_layout
from ..model.primitive_util import is_sub_byte_non_pred_type
from ..shapes.shape import Shape, validate_layout
from ..shapes.shape_equality import leaf_pairs, require_any_shape
from ..shapes.shape_text import require_shape
from ..shapes.subshapes import flatten_tuple_shape
from ..shapes.tuple_shape import AnyShape, NonArrayShape, TupleShape

__all__ = [
    "clear_tiles",
    "copy_layout_between_shapes",
    "device_shape_is_host_shape",
    "device_shape_to_host_shape",
    "get_with_default_layout",
    "has_any_layout",
    "has_custom_element_size_in_bits",
    "has_layout",
    "is_dense_array",
    "layouts_in_shapes_equal",
    "memory_space",
    "update_element_size_in_bits",
    "validate_layout_in_shape",
]


def _map_arrays(shape: AnyShape, change: Callable[[Shape], Shape]) -> AnyShape:
    """``shape`` with ``change`` applied to every array inside it."""
    if isinstance(shape, TupleShape):
        return TupleShape(_map_arrays(s, change) for s in shape)
    if isinstance(shape, NonArrayShape):
        return shape
    return change(shape)


def _relaid(shape: Shape, layout: Layout) -> Shape:
    return Shape(shape.element_type, shape.dimensions, layout, shape.dynamic_dimensions)


def get_with_default_layout(shape: AnyShape) -> AnyShape:
    """The shape with every array's ``minor_to_major`` reset to the default
    ``{n-1,...,0}`` (XLA's ``GetWithDefaultLayout``). As XLA's
    ``SetToDefaultLayout``, only the order changes: tiles, element size,
    memory space and 2017 padding are kept.

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("(f32[2,3]{0,1:S(1)}, token[])")
    >>> print(xs.LayoutUtil.get_with_default_layout(shape))
    (f32[2,3]{1,0:S(1)}, token[])
    """
    def default(array: Shape) -> Shape:
        return _relaid(array, replace_layout(array.layout, minor_to_major=range(array.rank - 1, -1, -1)))

    return _map_arrays(require_any_shape(shape), default)


def clear_tiles(shape: AnyShape) -> AnyShape:
    """The shape with the tiles of every array's layout removed, every other
    field kept (XLA's ``ClearTiles``).

    Examples
    --------
    >>> print(xs.LayoutUtil.clear_tiles(xs.ShapeUtil.parse_shape_string("(bf16[16,256]{1,0:T(8,128)(2,1)S(1)})")))
    (bf16[16,256]{1,0:S(1)})
    """
    def untiled(array: Shape) -> Shape:
        return _relaid(array, replace_layout(array.layout, tiles=()))

    return _map_arrays(require_any_shape(shape), untiled)


def validate_layout_in_shape(shape: AnyShape) -> None:
    """Check every array's layout inside ``shape``, tuples included (XLA's
    ``ValidateLayoutInShape``): raise ValueError, with XLA's message, for
    one that does not fit its array. Shapes built here are checked when
    built, so this fails only for shapes built around that check.

    Examples
    --------
    >>> xs.LayoutUtil.validate_layout_in_shape(xs.ShapeUtil.parse_shape_string("(f32[2,3]{0,1}, token[])"))
    """
    whole = require_any_shape(shape)
    for leaf in whole.leaves() if isinstance(whole, TupleShape) else (whole,):
        if isinstance(leaf, Shape):
            validate_layout(leaf.layout, leaf.dimensions, leaf.element_type)


def has_layout(shape: AnyShape) -> bool:
    """Whether every array inside ``shape`` has a layout (XLA's
    ``HasLayout``): always True here, where an array always carries one.

    Examples
    --------
    >>> xs.LayoutUtil.has_layout(xs.ShapeUtil.parse_shape_string("(f32[2], token[])"))
    True
    """
    require_any_shape(shape)
    return True


def has_any_layout(shape: AnyShape) -> bool:
    """Whether some array inside ``shape`` has a layout, or ``shape`` has
    none (XLA's ``HasAnyLayout``): always True here, as :func:`has_layout`.

    Examples
    --------
    >>> xs.LayoutUtil.has_any_layout("(f32[2], token[])")
    True
    """
    return has_layout(shape)


def is_dense_array(shape: AnyShape) -> bool:
    """Whether ``shape`` is an array with a dense layout (XLA's
    ``IsDenseArray``): every array here, since sparse layouts are not
    modelled; tuples, tokens and opaque values are not arrays.

    Examples
    --------
    >>> xs.LayoutUtil.is_dense_array("f32[2,3]{0,1}"), xs.LayoutUtil.is_dense_array("(f32[2])")
    (True, False)
    """
    return isinstance(require_any_shape(shape), Shape)


def copy_layout_between_shapes(src: AnyShape, dst: AnyShape) -> AnyShape:
    """``dst`` with the layouts of ``src``, array by array (XLA's
    ``CopyLayoutBetweenShapes``, which changes ``dst`` in place). The two
    need the same tuple structure and, array by array, the same rank;
    their dimensions may differ as long as each layout fits.

    Raises
    ------
    ValueError
        Where the structures or ranks differ, or a layout does not fit,
        naming what differs.

    Examples
    --------
    >>> src = xs.ShapeUtil.parse_shape_string("(f32[2,3]{0,1}, token[])")
    >>> dst = xs.ShapeUtil.parse_shape_string("(s8[7,9], token[])")
    >>> print(xs.LayoutUtil.copy_layout_between_shapes(src, dst))
    (s8[7,9]{0,1}, token[])
    """
    source, target = require_any_shape(src, "src"), require_any_shape(dst, "dst")
    if isinstance(source, TupleShape) != isinstance(target, TupleShape):
        raise ValueError(f"cannot copy layout from shape {source} to {target}: shape structure differs")
    if isinstance(source, TupleShape) and isinstance(target, TupleShape):
        if len(source) != len(target):
            raise ValueError(
                f"cannot copy layout from shape {source} to {target}: tuple element count differs"
            )
        return TupleShape(copy_layout_between_shapes(s, d) for s, d in zip(source, target))
    if isinstance(source, NonArrayShape) or isinstance(target, NonArrayShape):
        if source.element_type == target.element_type:
            return target
        raise ValueError(
            f"cannot copy layout from shape {source} to {target}: only arrays have layouts"
        )
    source, target = require_shape(source), require_shape(target)
    if source.rank != target.rank:
        raise ValueError(f"cannot copy layout from shape {source} to {target}: ranks differ")
    return _relaid(target, source.layout)


def layouts_in_shapes_equal(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes have the same layouts, array by array: the same
    tuple structure, ranks and layouts; element types and dimensions are
    ignored; a token or opaque value in ``lhs`` matches whatever stands in
    ``rhs``, as in XLA's ``LayoutsInShapesEqual``.

    Examples
    --------
    >>> a = xs.ShapeUtil.parse_shape_string("(f32[2,3]{0,1})")
    >>> xs.LayoutUtil.layouts_in_shapes_equal(a, xs.ShapeUtil.parse_shape_string("(s8[7,7]{0,1})"))
    True
    """
    pairs = leaf_pairs(lhs, rhs)
    return pairs is not None and all(
        not isinstance(left, Shape) or (isinstance(right, Shape) and left.layout == right.layout)
        for left, right in pairs
    )


def memory_space(shape: Shape) -> int:
    """The memory space of an array's layout (XLA's ``MemorySpace``).

    Examples
    --------
    >>> xs.LayoutUtil.memory_space(xs.ShapeUtil.parse_shape_string("f32[2]{0:S(1)}"))
    1
    """
    return require_shape(shape).layout.memory_space


def _host_layout(layout: Layout) -> Layout:
    """``layout`` with what only a device reads reset: no tiles, memory
    space 0, no packed element size, no tail padding, no metadata prefix."""
    return replace_layout(
        layout,
        tiles=(),
        memory_space=0,
        element_size_in_bits=0,
        tail_padding_alignment_in_elements=1,
        dynamic_shape_metadata_prefix_bytes=0,
    )


def device_shape_to_host_shape(shape: AnyShape) -> AnyShape:
    """The shape a host holds for a device shape, every array of a tuple
    alike (XLA's ``DeviceShapeToHostShape``): tiles, memory space,
    ``element_size_in_bits``, tail padding alignment and the dynamic
    metadata prefix cleared; ``minor_to_major`` and split configs kept, as
    XLA keeps them (2017 padding too).

    Examples
    --------
    >>> shape = xs.ShapeUtil.parse_shape_string("(s4[8,256]{1,0:T(8,128)(2,1)E(4)S(1)}, token[])")
    >>> print(xs.ShapeUtil.device_shape_to_host_shape(shape))
    (s4[8,256]{1,0}, token[])
    """
    return _map_arrays(require_any_shape(shape), lambda array: _relaid(array, _host_layout(array.layout)))


def device_shape_is_host_shape(shape: AnyShape) -> bool:
    """Whether no array of the shape has a layout field only a device reads:
    :func:`device_shape_to_host_shape` would change nothing (XLA's
    ``DeviceShapeIsHostShape``).

    Examples
    --------
    >>> xs.ShapeUtil.device_shape_is_host_shape("f32[2,3]{0,1}"), xs.ShapeUtil.device_shape_is_host_shape("f32[2,3]{0,1:S(1)}")
    (True, False)
    """
    return all(not isinstance(s, Shape) or s.layout == _host_layout(s.layout) for s in flatten_tuple_shape(shape))


def has_custom_element_size_in_bits(shape: AnyShape) -> bool:
    """Whether some array of the shape has a layout ``element_size_in_bits``
    (``E(n)``) other than 0 (XLA's ``LayoutUtil::HasCustomElementSizeInBits``).

    Examples
    --------
    >>> xs.LayoutUtil.has_custom_element_size_in_bits("(f32[1,2], (s4[4]{0:E(4)}, token[]))")
    True
    >>> xs.LayoutUtil.has_custom_element_size_in_bits("f32[1,2]")
    False
    """
    return any(isinstance(s, Shape) and s.layout.element_size_in_bits != 0 for s in flatten_tuple_shape(shape))


def update_element_size_in_bits(shape: AnyShape, pack_subbyte_types: bool) -> AnyShape:
    """The shape with every array's ``element_size_in_bits`` set to its
    type's bit width where ``pack_subbyte_types`` and the type is narrower
    than a byte (S4, U2, F4E2M1FN; not PRED), to 0 otherwise (XLA's
    ``UpdateElementSizeInBits``).

    Examples
    --------
    >>> t = xs.ShapeUtil.parse_shape_string("(s4[8], pred[8]{0:E(1)})")
    >>> print(xs.ShapeUtil.update_element_size_in_bits(t, True), xs.ShapeUtil.update_element_size_in_bits(t, False))
    (s4[8]{0:E(4)}, pred[8]{0}) (s4[8]{0}, pred[8]{0})
    """
    def updated(array: Shape) -> Shape:
        etype = array.element_type
        packs = pack_subbyte_types and is_sub_byte_non_pred_type(etype)
        return _relaid(array, replace_layout(array.layout, element_size_in_bits=etype.bit_width if packs else 0))

    return _map_arrays(require_any_shape(shape), updated)
