"""Bitcast reasoning, as XLA's ``ShapeUtil`` does it: is a reshape or a
transpose a bitcast (every element stays where it is in memory), which
transpose a bitcast is, and which layout makes a reshape one.

XLA's rules predate the 2017 padded layouts this package also models: here
a padded shape must also keep its buffer byte for byte (the same padded
widths, carried along, and the same padding value where there is padding).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from .._validate import as_int_tuple
from ..model.layout import Layout
from ..shapes.shape import Shape
from ..shapes.shape_equality import equal_ignoring_element_type
from ..shapes.shape_text import require_shape
from .reshape_dimensions import common_factors

__all__ = [
    "align_layouts",
    "deduce_transpose_dimensions_for_bitcast",
    "is_reshape_or_transpose_bitcast",
    "reshape_is_bitcast",
    "transpose_is_bitcast",
]


def _check_transpose(
    input_shape: Shape, output_shape: Shape, dimension_mapping: Iterable[int]
) -> tuple[int, ...]:
    """``dimension_mapping`` once checked to make ``output_shape`` a transpose
    of ``input_shape``: a permutation with output dimension i of the size of
    input dimension ``dimension_mapping[i]``."""
    mapping = as_int_tuple(dimension_mapping, "dimension_mapping", per_dimension=True)
    rank = input_shape.rank
    if sorted(mapping) != list(range(rank)):
        raise ValueError(
            f"dimension_mapping must be a permutation of 0..{rank - 1} for the "
            f"rank-{rank} input shape, got {list(mapping)}"
        )
    expected = tuple(input_shape.dimensions[d] for d in mapping)
    if output_shape.dimensions != expected:
        raise ValueError(
            f"output shape {output_shape} is not a transpose of {input_shape} by "
            f"{list(mapping)}: expected dimensions {list(expected)}"
        )
    return mapping


def _same_padding(lhs: Shape, rhs: Shape) -> bool:
    """Whether two shapes with the same elements at the same offsets also have
    the same padding: buffers of one size and, if they hold any padding, one
    padding value."""
    if lhs.buffer_size != rhs.buffer_size:
        return False
    has_padding = lhs.buffer_size > lhs.element_count
    return not has_padding or lhs.layout.padding_value == rhs.layout.padding_value


def _placement(shape: Shape) -> tuple[tuple[int, int], ...]:
    """Where the elements lie, taken in logical (row-major) order, as
    ``(count, stride)`` runs: size-1 dimensions dropped, and a dimension whose
    stride continues the next inner one merged into it.

    For a shape with elements, two shapes place their k-th elements at the
    same offset for every k exactly when their runs are equal: each run's
    count is the first element where the offsets stop following its stride.
    """
    runs: list[tuple[int, int]] = []
    for size, stride in zip(shape.dimensions, shape.strides):
        if size == 1:
            continue
        if runs and runs[-1][1] == size * stride:
            count, _ = runs.pop()
            runs.append((count * size, stride))
        else:
            runs.append((size, stride))
    return tuple(runs)


def transpose_is_bitcast(
    input_shape: Shape,
    output_shape: Shape,
    dimension_mapping: Iterable[int],
    *,
    ignore_element_type: bool = False,
) -> bool:
    """Whether a transpose leaves every element where it is in memory, so
    that it can be a bitcast (XLA's ``TransposeIsBitcast``).

    Output dimension i is input dimension ``dimension_mapping[i]``, as in
    XLA's Transpose. As in XLA, it is a bitcast when the element types are
    the same (unless ``ignore_element_type``) and the k-th most minor output
    dimension maps to the k-th most minor input dimension for every k; like
    XLA, this looks at the layouts only, so moving a size-1 dimension counts
    even though it moves no element. XLA's version predates padding; here a
    padded shape must also have its padded widths carried along by the
    mapping and the same padding value as the other when there is padding,
    so that both buffers are byte-for-byte the same.

    Parameters
    ----------
    input_shape, output_shape : Shape
        The shapes before and after the transpose.
    dimension_mapping : iterable of int
        For each output dimension, the input dimension it comes from.
    ignore_element_type : bool, optional
        Compare the layouts only, as XLA's flag of that name.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``dimension_mapping`` is not a permutation or
        ``output_shape``'s dimensions are not the input's so permuted.

    Examples
    --------
    >>> row_major = xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [1, 0])
    >>> col_major = xs.ShapeUtil.make_shape_with_layout("f32", [3, 2], [0, 1])
    >>> xs.ShapeUtil.transpose_is_bitcast(row_major, col_major, [1, 0])
    True
    >>> halves = xs.ShapeUtil.make_shape_with_layout("f16", [3, 2], [0, 1])
    >>> xs.ShapeUtil.transpose_is_bitcast(row_major, halves, [1, 0], ignore_element_type=True)
    True
    """
    input_shape = require_shape(input_shape, "input_shape")
    output_shape = require_shape(output_shape, "output_shape")
    mapping = _check_transpose(input_shape, output_shape, dimension_mapping)
    if not ignore_element_type and input_shape.element_type != output_shape.element_type:
        return False
    in_widths, out_widths = input_shape.padded_dimensions, output_shape.padded_dimensions
    return (
        tuple(mapping[d] for d in output_shape.layout.minor_to_major)
        == input_shape.layout.minor_to_major
        and all(out_widths[i] == in_widths[d] for i, d in enumerate(mapping))
        and _same_padding(input_shape, output_shape)
    )


def reshape_is_bitcast(
    input_shape: Shape, output_shape: Shape, *, ignore_element_type: bool = False
) -> bool:
    """Whether a reshape leaves every element where it is in memory, so
    that it can be a bitcast (XLA's ``ReshapeIsBitcast``).

    A reshape keeps the elements' logical (row-major) order. As in XLA, it
    is a bitcast when the element types (unless ``ignore_element_type``)
    and element counts are the same and the k-th element lies at the same
    offset in both for every k (so unpadded shapes without elements always
    qualify, and differing counts give False, as in current XLA, rather
    than an error). XLA's version predates padding; here both buffers must
    also have the same size and, if they hold any padding, the same padding
    value.

    Parameters
    ----------
    input_shape, output_shape : Shape
        The shapes before and after the reshape; untiled (a tiled layout
        has no strides: ValueError).
    ignore_element_type : bool, optional
        Compare the placements only, as XLA's flag of that name.

    Returns
    -------
    bool

    Examples
    --------
    >>> flat = xs.Shape("f32", [6])
    >>> xs.ShapeUtil.reshape_is_bitcast(xs.Shape("f32", [2, 3]), flat)
    True
    >>> xs.ShapeUtil.reshape_is_bitcast(xs.ShapeUtil.make_shape_with_layout("f32", [2, 3], [0, 1]), flat)
    False
    """
    input_shape = require_shape(input_shape, "input_shape")
    output_shape = require_shape(output_shape, "output_shape")
    if not ignore_element_type and input_shape.element_type != output_shape.element_type:
        return False
    if input_shape.element_count != output_shape.element_count:
        return False
    if not _same_padding(input_shape, output_shape):
        return False
    return input_shape.element_count == 0 or _placement(input_shape) == _placement(output_shape)


def deduce_transpose_dimensions_for_bitcast(input_shape: Shape, output_shape: Shape) -> list[int] | None:
    """The transpose (``dimensions``, output dimension i being input
    dimension ``dimensions[i]``) that makes a bitcast from ``input_shape``
    to ``output_shape``, or None where no transpose does (XLA's
    ``DeduceTransposeDimensionsForBitcast``). Element types are ignored.

    Examples
    --------
    >>> a = xs.ShapeUtil.parse_shape_string("f32[7,2,5,3]{3,2,1,0}")
    >>> b = xs.ShapeUtil.parse_shape_string("f32[3,7,2,5]{0,3,2,1}")
    >>> xs.ShapeUtil.deduce_transpose_dimensions_for_bitcast(a, b)
    [3, 0, 1, 2]
    >>> print(xs.ShapeUtil.deduce_transpose_dimensions_for_bitcast(a, xs.Shape("f32", [3, 7, 2, 5])))
    None
    """
    input_shape = require_shape(input_shape, "input_shape")
    output_shape = require_shape(output_shape, "output_shape")
    if input_shape.rank != output_shape.rank:
        return None
    out_order = output_shape.layout.minor_to_major
    position = {d: p for p, d in enumerate(out_order)}
    in_order = input_shape.layout.minor_to_major
    mapping = [in_order[position[i]] for i in range(output_shape.rank)]
    if output_shape.dimensions != tuple(input_shape.dimensions[d] for d in mapping):
        return None
    if not transpose_is_bitcast(input_shape, output_shape, mapping, ignore_element_type=True):
        return None  # the layouts agree but 2017 padding does not
    return mapping


def is_reshape_or_transpose_bitcast(a: Shape, b: Shape, *, ignore_element_type: bool = False) -> bool:
    """Whether some reshape or transpose from ``a`` to ``b`` is a bitcast
    (XLA's ``IsReshapeOrTransposeBitcast``).

    Examples
    --------
    >>> a = xs.ShapeUtil.parse_shape_string("f32[2,3]{1,0}")
    >>> xs.ShapeUtil.is_reshape_or_transpose_bitcast(a, xs.ShapeUtil.parse_shape_string("f32[3,2]{0,1}"))
    True
    >>> xs.ShapeUtil.is_reshape_or_transpose_bitcast(a, xs.ShapeUtil.parse_shape_string("f32[2,3]{0,1}"))
    False
    """
    a, b = require_shape(a, "a"), require_shape(b, "b")
    if not ignore_element_type and a.element_type != b.element_type:
        return False
    if equal_ignoring_element_type(a, b):
        return True
    if not a.is_tiled and not b.is_tiled and reshape_is_bitcast(a, b, ignore_element_type=True):
        return True
    return deduce_transpose_dimensions_for_bitcast(a, b) is not None


def _align_without_size_1(input_shape: Shape, output_shape: Shape) -> tuple[int, ...] | None:
    """XLA's AlignLayouts on shapes without size-1 dimensions: the output's
    minor_to_major, or None."""
    bounds = common_factors(input_shape.dimensions, output_shape.dimensions)
    in_order = input_shape.layout.minor_to_major
    factor_of = [0] * input_shape.rank
    for k, ((start, _), (end, _)) in enumerate(itertools.pairwise(bounds)):
        if start == end:
            continue
        physical = in_order.index(start)
        factor_of[start] = k
        for dim in range(start + 1, end):  # a factor's dimensions: consecutive, most major first
            physical -= 1
            if physical < 0 or in_order[physical] != dim:
                return None
            factor_of[dim] = k
    order: list[int] = []
    minor = 0
    while len(order) < output_shape.rank:
        k = factor_of[in_order[minor]]
        (in_start, out_start), (in_end, out_end) = bounds[k], bounds[k + 1]
        order.extend(range(out_end - 1, out_start - 1, -1))
        minor += in_end - in_start
    return tuple(order)


def align_layouts(input_shape: Shape, output_shape: Shape) -> Shape | None:
    """``output_shape`` with a layout that makes the reshape from
    ``input_shape`` a bitcast, keeping ``input_shape``'s layout; None where
    no layout does (XLA's ``AlignLayouts``). Size-1 output dimensions go
    most major, in descending order, as XLA places them.

    A 2017 padded input gives None unless its padding leaves the buffer
    unpadded; a tiled input is refused (ValueError): XLA's algorithm ignores
    tiles, so its answer would describe another buffer.

    Examples
    --------
    >>> source = xs.ShapeUtil.parse_shape_string("f32[3,8,5,7,6]{3,2,1,0,4}")
    >>> print(xs.ShapeUtil.align_layouts(source, xs.Shape("f32", [3, 2, 4, 35, 6])))
    f32[3,2,4,35,6]{3,2,1,0,4}
    >>> print(xs.ShapeUtil.align_layouts(xs.ShapeUtil.parse_shape_string("f32[6,4]{0,1}"), xs.Shape("f32", [24])))
    None
    """
    input_shape = require_shape(input_shape, "input_shape")
    output_shape = require_shape(output_shape, "output_shape")
    if input_shape.is_tiled:
        raise ValueError(
            f"align_layouts: input shape {input_shape} is tiled; XLA's alignment "
            "ignores tiles, so its layout would not describe this buffer"
        )
    if input_shape.element_count != output_shape.element_count:
        raise ValueError(
            f"align_layouts: a reshape keeps the element count, but {input_shape} "
            f"holds {input_shape.element_count} and {output_shape} {output_shape.element_count}"
        )
    kept_in = [d for d in range(input_shape.rank) if input_shape.dimensions[d] != 1]
    kept_out = [d for d in range(output_shape.rank) if output_shape.dimensions[d] != 1]
    renumber = {d: i for i, d in enumerate(kept_in)}
    simple_in = Shape(
        input_shape.element_type,
        (input_shape.dimensions[d] for d in kept_in),
        Layout(renumber[d] for d in input_shape.layout.minor_to_major if d in renumber),
    )
    simple_out = tuple(output_shape.dimensions[d] for d in kept_out)
    order = _align_without_size_1(simple_in, Shape(output_shape.element_type, simple_out))
    if order is None:
        return None
    ones = [d for d in range(output_shape.rank - 1, -1, -1) if output_shape.dimensions[d] == 1]
    aligned = Shape(
        output_shape.element_type,
        output_shape.dimensions,
        Layout([kept_out[d] for d in order] + ones),
        output_shape.dynamic_dimensions,
    )
    return aligned if reshape_is_bitcast(input_shape, aligned, ignore_element_type=True) else None
