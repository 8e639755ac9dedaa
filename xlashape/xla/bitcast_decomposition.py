"""A bitcast split into a reshape, a transpose, or a transpose, a reshape
and a transpose, as XLA's ``ShapeUtil::DecomposeBitcast`` splits it (layout
normalization is built on it): each piece moves no element in memory, and
the pieces, applied in order, move every element where the bitcast does.

A bitcast between two shapes of one element count reads the same buffer
as the other shape: input element ``i`` at buffer offset ``p`` is the
output element at offset ``p``. The pieces use descending (row-major)
layouts in between, so that a normalized program needs no other layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..shapes.shape import Shape
from ..shapes.shape_text import require_shape
from ..shapes.shape_variants import make_shape_with_descending_layout_and_same_physical_layout
from .bitcast import deduce_transpose_dimensions_for_bitcast, reshape_is_bitcast

__all__ = [
    "BitcastDecomposition",
    "BitcastDecompositionReshape",
    "BitcastDecompositionTranspose",
    "BitcastDecompositionTrt",
    "decompose_bitcast",
    "decompose_bitcast_to_trt",
    "is_decomposable_bitcast",
]


@dataclass(frozen=True)
class BitcastDecompositionReshape:
    """The bitcast is a reshape (XLA's ``BitcastDecompositionReshape``).

    Examples
    --------
    >>> xs.ShapeUtil.decompose_bitcast("f32[2,3]", "f32[3,2]") == xs.ShapeUtil.BitcastDecompositionReshape()
    True
    """


@dataclass(frozen=True)
class BitcastDecompositionTranspose:
    """The bitcast is a transpose: output dimension i is input dimension
    ``transpose_dims[i]`` (XLA's ``BitcastDecompositionTranspose``).

    Examples
    --------
    >>> xs.ShapeUtil.decompose_bitcast("f32[3,7,6,4]{3,2,1,0}", "f32[3,6,4,7]{2,1,3,0}").transpose_dims
    (0, 2, 3, 1)
    """

    transpose_dims: tuple[int, ...]


@dataclass(frozen=True)
class BitcastDecompositionTrt:
    """The bitcast as a transpose to ``transpose1_shape`` (by
    ``transpose1_dims``), a reshape to ``reshape_shape``, and a transpose to
    the output (by ``transpose2_dims``); the two shapes in between have
    descending layouts (XLA's ``BitcastDecompositionTrt``).

    Examples
    --------
    >>> trt = xs.ShapeUtil.decompose_bitcast("f32[16,3,17]{1,2,0}", "f32[16,51]{0,1}")
    >>> trt.transpose1_dims, str(trt.transpose1_shape), str(trt.reshape_shape), trt.transpose2_dims
    ((0, 2, 1), 'f32[16,17,3]{2,1,0}', 'f32[51,16]{1,0}', (1, 0))
    """

    transpose1_dims: tuple[int, ...]
    transpose1_shape: Shape
    reshape_shape: Shape
    transpose2_dims: tuple[int, ...]

    def is_transpose1_identity(self) -> bool:
        """Whether the first transpose keeps every dimension in place
        (XLA's ``IsTranspose1Identity``).

        Examples
        --------
        >>> trt = xs.ShapeUtil.decompose_bitcast_to_trt("f32[2,3]{1,0}", "f32[3,2]{1,0}")
        >>> trt.is_transpose1_identity(), trt.is_transpose2_identity()
        (True, True)
        """
        return list(self.transpose1_dims) == sorted(self.transpose1_dims)

    def is_transpose2_identity(self) -> bool:
        """Whether the second transpose keeps every dimension in place
        (XLA's ``IsTranspose2Identity``).

        Examples
        --------
        >>> xs.ShapeUtil.decompose_bitcast_to_trt("f32[2,3]{0,1}", "f32[6]{0}").is_transpose2_identity()
        True
        """
        return list(self.transpose2_dims) == sorted(self.transpose2_dims)


#: What :func:`decompose_bitcast` returns (XLA's ``BitcastDecomposition``).
BitcastDecomposition = (
    BitcastDecompositionReshape | BitcastDecompositionTranspose | BitcastDecompositionTrt | None
)


def _plain(shape: Shape, name: str) -> Shape:
    """``shape`` if its buffer is a row-major array read in some order: no
    tiles and no 2017 padding; ValueError otherwise."""
    if shape.is_tiled or shape.layout.padded_dimensions:
        what = "tiled" if shape.is_tiled else "padded"
        raise ValueError(
            f"{name} {shape} is {what}: its buffer is no reshape or transpose of "
            f"an un{what} one, so its bitcast has no such pieces; decompose the "
            f"bitcast of the un{what} shapes"
        )
    return shape


def is_decomposable_bitcast(input_shape: Shape, output_shape: Shape) -> bool:
    """Whether a bitcast from ``input_shape`` to ``output_shape`` can be
    decomposed: both hold as many elements (XLA's
    ``IsDecomposableBitcast``; every shape here has a layout).

    Examples
    --------
    >>> xs.ShapeUtil.is_decomposable_bitcast("f32[2,3]{0,1}", "f32[6]")
    True
    >>> xs.ShapeUtil.is_decomposable_bitcast("f32[2,3]", "f32[7]")
    False
    """
    input_shape = require_shape(input_shape, "input_shape")
    output_shape = require_shape(output_shape, "output_shape")
    return input_shape.element_count == output_shape.element_count


def decompose_bitcast_to_trt(input_shape: Shape, output_shape: Shape) -> BitcastDecompositionTrt | None:
    """The bitcast as a transpose, a reshape and a transpose (XLA's
    ``DecomposeBitcastToTrt``); None where it is not decomposable.

    The first transpose reads the input as its dimensions in physical
    order, most major first (``transpose1_shape``, descending layout); the
    reshape goes to the output's dimensions in physical order
    (``reshape_shape``, descending layout); the second transpose puts them
    in the output's order. Each piece is a bitcast.

    Raises
    ------
    ValueError
        For a tiled or 2017-padded shape (its buffer is no reshape of a
        row-major one).

    Examples
    --------
    >>> trt = xs.ShapeUtil.decompose_bitcast_to_trt("f32[16,17,3]{2,1,0}", "f32[51,16]{0,1}")
    >>> trt.transpose1_dims, trt.reshape_shape, trt.transpose2_dims
    ((0, 1, 2), Shape('f32', (16, 51), Layout(minor_to_major=(1, 0))), (1, 0))
    """
    input_shape = _plain(require_shape(input_shape, "input_shape"), "input_shape")
    output_shape = _plain(require_shape(output_shape, "output_shape"), "output_shape")
    if not is_decomposable_bitcast(input_shape, output_shape):
        return None
    position = {d: p for p, d in enumerate(output_shape.layout.minor_to_major)}
    return BitcastDecompositionTrt(
        transpose1_dims=input_shape.layout.major_to_minor,
        transpose1_shape=make_shape_with_descending_layout_and_same_physical_layout(input_shape),
        reshape_shape=make_shape_with_descending_layout_and_same_physical_layout(output_shape),
        transpose2_dims=tuple(output_shape.rank - 1 - position[d] for d in range(output_shape.rank)),
    )


def decompose_bitcast(input_shape: Shape, output_shape: Shape) -> BitcastDecomposition:
    """The simplest pieces of a bitcast (XLA's ``DecomposeBitcast``): a
    :class:`BitcastDecompositionReshape` where a reshape is a bitcast, else a
    :class:`BitcastDecompositionTranspose` where a transpose is, else a
    :class:`BitcastDecompositionTrt`; None where the element counts differ.
    Element types are ignored.

    Raises
    ------
    ValueError
        For a tiled or 2017-padded shape.

    Examples
    --------
    >>> xs.ShapeUtil.decompose_bitcast("f32[2,3]", "f32[6]")
    BitcastDecompositionReshape()
    >>> xs.ShapeUtil.decompose_bitcast("f32[2,3]{1,0}", "f32[3,2]{0,1}")
    BitcastDecompositionTranspose(transpose_dims=(1, 0))
    >>> type(xs.ShapeUtil.decompose_bitcast("f32[2,3]{0,1}", "f32[3,2]{0,1}")).__name__
    'BitcastDecompositionTrt'
    """
    input_shape = _plain(require_shape(input_shape, "input_shape"), "input_shape")
    output_shape = _plain(require_shape(output_shape, "output_shape"), "output_shape")
    if not is_decomposable_bitcast(input_shape, output_shape):
        return None
    if reshape_is_bitcast(input_shape, output_shape, ignore_element_type=True):
        return BitcastDecompositionReshape()
    dims = deduce_transpose_dimensions_for_bitcast(input_shape, output_shape)
    if dims is not None:
        return BitcastDecompositionTranspose(tuple(dims))
    return decompose_bitcast_to_trt(input_shape, output_shape)
