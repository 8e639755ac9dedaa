"""Shape comparisons over whole shape trees, as XLA's ``Shape::Equal``.

One comparison with XLA's switches (ignore the element type, the layout,
the dynamic flags) and the predicates ``ShapeUtil`` builds on it:
``equal_ignoring_element_type``, ``compatible_ignoring_element_type``,
``equal_structure``, ``same_rank``, ``same_element_type``. Tuples are
compared element by element; tokens and opaque values equal their own kind.
The walk is iterative, so no nesting depth makes it recurse.
"""

from __future__ import annotations

from ..model.primitive_util import is_floating_point_type
from .shape import Shape
from .shape_text import parse_shape_string, require_shape
from .tuple_shape import AnyShape, NonArrayShape, TupleShape

__all__ = [
    "compatible_ignoring_element_type",
    "compatible_ignoring_fp_precision",
    "compatible_kind",
    "equal_ignoring_element_type",
    "equal_ignoring_fp_precision",
    "equal_structure",
    "leaf_pairs",
    "require_any_shape",
    "same_element_type",
    "same_element_type_ignoring_fp_precision",
    "same_rank",
    "shapes_equal",
]


def require_any_shape(value: object, name: str = "shape") -> AnyShape:
    """``value`` itself if it is a Shape, TupleShape or NonArrayShape, the
    shape its text describes if it is a str; TypeError otherwise."""
    if isinstance(value, str):
        return parse_shape_string(value)
    if not isinstance(value, (Shape, TupleShape, NonArrayShape)):
        raise TypeError(
            f"{name} must be a Shape, TupleShape or NonArrayShape, got {type(value).__name__}"
        )
    return value


def leaf_pairs(lhs: AnyShape, rhs: AnyShape) -> list[tuple[Shape | NonArrayShape, AnyShape]] | None:
    """Walk two shapes together: where ``lhs`` is a tuple, ``rhs`` must be
    one of as many elements; each non-tuple of ``lhs`` is paired with what
    stands at its place in ``rhs``. None where the tuples differ. Iterative,
    in depth-first order."""
    pairs: list[tuple[Shape | NonArrayShape, AnyShape]] = []
    pending = [(require_any_shape(lhs, "lhs"), require_any_shape(rhs, "rhs"))]
    while pending:
        left, right = pending.pop()
        if isinstance(left, TupleShape):
            if not isinstance(right, TupleShape) or len(left) != len(right):
                return None
            pending.extend(zip(left, right))
        else:
            pairs.append((left, right))
    return pairs


def _same_type(lhs: AnyShape, rhs: AnyShape, ignore_fp_precision: bool) -> bool:
    if ignore_fp_precision and is_floating_point_type(lhs.element_type) and is_floating_point_type(rhs.element_type):
        return True
    return lhs.element_type == rhs.element_type


def _arrays_equal(
    lhs: Shape,
    rhs: Shape,
    ignore_element_type: bool,
    ignore_layout: bool,
    ignore_dynamic: bool,
    ignore_fp_precision: bool,
    ignore_dimensions: bool,
) -> bool:
    if not ignore_element_type and not _same_type(lhs, rhs, ignore_fp_precision):
        return False
    if lhs.rank != rhs.rank or (not ignore_dimensions and lhs.dimensions != rhs.dimensions):
        return False
    if not ignore_layout and lhs.layout != rhs.layout:
        return False
    return ignore_dynamic or lhs.dynamic_dimensions == rhs.dynamic_dimensions


def shapes_equal(
    lhs: AnyShape,
    rhs: AnyShape,
    *,
    ignore_element_type: bool = False,
    ignore_layout: bool = False,
    ignore_dynamic_dimensions: bool = False,
    ignore_fp_precision: bool = False,
    ignore_dimensions: bool = False,
) -> bool:
    """XLA's ``Shape::Equal`` with its ``Ignore...`` switches: tuples equal
    when their elements are, in order; a token or opaque value equals one of
    its own kind; arrays compare element type, dimensions, layout (every
    field, padding and tiles included) and dynamic flags, less what is
    ignored.

    Parameters
    ----------
    lhs, rhs : Shape, TupleShape or NonArrayShape
    ignore_element_type, ignore_layout, ignore_dynamic_dimensions : bool
        Leave that part of array shapes out of the comparison.
    ignore_fp_precision : bool
        Take any two floating-point element types as the same (XLA's
        ``IgnoreFpPrecision``).
    ignore_dimensions : bool
        Compare arrays' ranks only, not their sizes (XLA's
        ``IgnoreDimensions``).

    Returns
    -------
    bool

    Examples
    --------
    >>> from xlashape.shapes.shape_equality import shapes_equal
    >>> a = xs.ShapeUtil.parse_shape_string("(f32[2]{0}, token[])")
    >>> b = xs.ShapeUtil.parse_shape_string("(s8[2]{0}, token[])")
    >>> shapes_equal(a, b), shapes_equal(a, b, ignore_element_type=True)
    (False, True)
    """
    pairs = leaf_pairs(lhs, rhs)
    return pairs is not None and all(
        left == right
        if isinstance(left, NonArrayShape)
        else isinstance(right, Shape)
        and _arrays_equal(
            left, right, ignore_element_type, ignore_layout, ignore_dynamic_dimensions, ignore_fp_precision,
            ignore_dimensions,
        )
        for left, right in pairs
    )


def equal_ignoring_element_type(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes are equal but for their element types: same tuple
    structure, dimensions, layouts and dynamic flags (XLA's
    ``EqualIgnoringElementType``).

    Examples
    --------
    >>> a = xs.ShapeUtil.make_shape_with_layout("f32", [4, 3], [0, 1])
    >>> xs.ShapeUtil.equal_ignoring_element_type(a, xs.ShapeUtil.make_shape_with_layout("pred", [4, 3], [0, 1]))
    True
    >>> xs.ShapeUtil.equal_ignoring_element_type(a, xs.ShapeUtil.make_shape_with_layout("f16", [4, 3], [1, 0]))
    False
    """
    return shapes_equal(lhs, rhs, ignore_element_type=True)


def compatible_ignoring_element_type(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes have the same tuple structure and, leaf by leaf,
    the same dimensions; element types, layouts and dynamic flags are
    ignored (XLA's ``CompatibleIgnoringElementType``).

    Examples
    --------
    >>> t1 = xs.ShapeUtil.parse_shape_string("(pred[4,5], f32[3,2])")
    >>> t2 = xs.ShapeUtil.parse_shape_string("(pred[4,5], s32[3,2]{0,1})")
    >>> xs.ShapeUtil.compatible_ignoring_element_type(t1, t2)
    True
    >>> xs.ShapeUtil.compatible_ignoring_element_type(xs.Shape("f32", []), t1)
    False
    """
    return shapes_equal(
        lhs, rhs, ignore_element_type=True, ignore_layout=True, ignore_dynamic_dimensions=True
    )


def equal_structure(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes have the same tuple tree: every sub-shape index of
    one is valid in the other (XLA's ``EqualStructure``). What the leaves
    are (arrays of any type and rank, tokens) is ignored.

    Examples
    --------
    >>> a = xs.ShapeUtil.parse_shape_string("(f32[], (s32[2], f32[2,2]))")
    >>> b = xs.ShapeUtil.parse_shape_string("(s32[], (f32[3], token[]))")
    >>> c = xs.ShapeUtil.parse_shape_string("((f32[], f32[]), f32[])")
    >>> xs.ShapeUtil.equal_structure(a, b), xs.ShapeUtil.equal_structure(a, c)
    (True, False)
    """
    pairs = leaf_pairs(lhs, rhs)
    return pairs is not None and not any(isinstance(right, TupleShape) for _, right in pairs)


def same_rank(lhs: Shape, rhs: Shape) -> bool:
    """Whether two array shapes have the same number of dimensions (XLA's
    ``SameRank``; arrays only, as there).

    Examples
    --------
    >>> xs.ShapeUtil.same_rank(xs.Shape("f32", [2, 3]), xs.Shape("s8", [7, 1]))
    True
    """
    return require_shape(lhs, "lhs").rank == require_shape(rhs, "rhs").rank


def same_element_type(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes have the same element type (XLA's
    ``SameElementType``; a tuple's is TUPLE).

    Examples
    --------
    >>> xs.ShapeUtil.same_element_type(xs.Shape("f32", [2]), xs.Shape("f32", [9, 9]))
    True
    >>> xs.ShapeUtil.same_element_type(xs.ShapeUtil.make_tuple_shape([]), xs.Shape("f32", []))
    False
    """
    return require_any_shape(lhs, "lhs").element_type == require_any_shape(rhs, "rhs").element_type


def same_element_type_ignoring_fp_precision(a: AnyShape, b: AnyShape) -> bool:
    """Whether two shapes have the same element type, any two floating-point
    types counting as the same (XLA's ``SameElementTypeIgnoringFpPrecision``).

    Examples
    --------
    >>> xs.ShapeUtil.same_element_type_ignoring_fp_precision("bf16[2]", "f32[9]")
    True
    >>> xs.ShapeUtil.same_element_type_ignoring_fp_precision("f32[2]", "s32[2]")
    False
    """
    return _same_type(require_any_shape(a, "a"), require_any_shape(b, "b"), True)


def equal_ignoring_fp_precision(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes are equal, any two floating-point element types
    counting as the same (XLA's ``EqualIgnoringFpPrecision``): tuples leaf
    by leaf, layouts and dynamic flags compared.

    Examples
    --------
    >>> xs.ShapeUtil.equal_ignoring_fp_precision("f32[4,3]{0,1}", "f16[4,3]{0,1}")
    True
    >>> xs.ShapeUtil.equal_ignoring_fp_precision("f32[4,3]{0,1}", "f16[4,3]{1,0}")
    False
    """
    return shapes_equal(lhs, rhs, ignore_fp_precision=True)


def compatible_ignoring_fp_precision(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes are compatible, any two floating-point element
    types counting as the same (XLA's ``CompatibleIgnoringFpPrecision``):
    layouts and dynamic flags are ignored.

    Examples
    --------
    >>> xs.ShapeUtil.compatible_ignoring_fp_precision("(f32[3,2], pred[4,5])", "(bf16[3,2]{0,1}, pred[4,5])")
    True
    >>> xs.ShapeUtil.compatible_ignoring_fp_precision("f32[3,2]", "s32[3,2]")
    False
    """
    return shapes_equal(lhs, rhs, ignore_layout=True, ignore_dynamic_dimensions=True, ignore_fp_precision=True)


def compatible_kind(lhs: AnyShape, rhs: AnyShape) -> bool:
    """Whether two shapes have the same tuple tree and, leaf by leaf, the
    same kind: arrays of one rank, or tokens, or opaque values; element
    types, sizes, layouts and dynamic flags are ignored (XLA's
    ``CompatibleKind``).

    Examples
    --------
    >>> xs.ShapeUtil.compatible_kind("(f32[2,3], token[])", "(s8[7,1]{0,1}, token[])")
    True
    >>> xs.ShapeUtil.compatible_kind("f32[2,3]", "f32[6]")
    False
    """
    return shapes_equal(
        lhs, rhs, ignore_element_type=True, ignore_layout=True, ignore_dynamic_dimensions=True, ignore_dimensions=True
    )
