"""The Shape: element type, dimensions and layout of an array."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable

import numpy as np

from .._validate import INT64_MAX, MAX_RANK, as_int_tuple, normalize_dimension
from ..core._plan import LayoutPlan
from ..core._tiled import TiledPlan
from ..errors import SizeOverflowError
from ..model import jax_interop, tiling
from ..model._frozen import Frozen
from ..model.layout import Layout
from ..model.primitive_type import PrimitiveType
from ..model.strides import layout_from_strides

__all__ = ["UNBOUNDED_SIZE", "Shape", "validate_layout"]

# XLA's Shape::kUnboundedSize: the size of an unbounded dynamic dimension ('?').
UNBOUNDED_SIZE = -(2**63)
# The spec's letters for 2-D to 4-D arrays, by dimension number.
_LETTERS = {2: "yx", 3: "zyx", 4: "pzyx"}
_INTP_MAX = int(np.iinfo(np.intp).max)


def validate_layout(
    layout: Layout, dimensions: tuple[int, ...], element_type: PrimitiveType | None = None
) -> None:
    """Raise ValueError unless ``layout`` fits an array of ``dimensions``
    (and of ``element_type``, when given).

    The checks and their messages follow XLA's ``ValidateLayoutForShape``,
    which takes any ``element_size_in_bits`` of 0 or more and any split
    configs: an element size no buffer can hold (``pred`` with ``E(32)``)
    and split configs that cut nothing are refused where a buffer is
    sized or indexed, not here.
    """
    rank = len(dimensions)
    m2m = layout.minor_to_major
    if len(m2m) != rank:
        raise ValueError(
            f"layout minor_to_major field contains {len(m2m)} elements, "
            f"but shape has {rank} dimensions: {layout}"
        )
    seen = set()
    for dim in m2m:
        if not 0 <= dim < rank:
            raise ValueError(
                f"layout minor_to_major field has out-of-bounds value {dim}: "
                f"{layout}; values must lie in [0, {rank})"
            )
        if dim in seen:
            raise ValueError(
                f"layout minor_to_major field has duplicate values: {layout} "
                f"repeats dimension {dim}"
            )
        seen.add(dim)
    padded = layout.padded_dimensions
    if padded:
        if len(padded) != rank:
            raise ValueError(
                f"layout has {len(padded)} padded width{'' if len(padded) == 1 else 's'}, "
                f"but shape has {rank} dimensions: one width per dimension"
            )
        for i, (width, size) in enumerate(zip(padded, dimensions)):
            if width < size:
                raise ValueError(
                    f"for dimension {i}, dimension padding ({width}) is smaller "
                    f"than the dimension size ({size}) of the shape"
                )


# What ``Shape._repr_html_`` shows: the pictures' svg, which draws with the
# layers above this one (the facades and the batch calls). xlashape.pictures
# hands it over when it is imported, as xlashape's own __init__ does, so that
# the model never imports the pictures drawn from it.
_html_picture: Callable[[Shape], str] | None = None


def set_html_picture(draw: Callable[[Shape], str]) -> None:
    """Make ``draw`` the picture of a Shape that notebooks show
    (``Shape._repr_html_``); xlashape.pictures sets its ``svg``."""
    global _html_picture
    _html_picture = draw


class Shape(Frozen):
    """An array shape: element type, dimension sizes and a :class:`Layout`.

    ``layout=None`` gives the default major-to-minor layout ``{n-1,...,0}``
    (row-major). The shape is validated when built: sizes are >= 0, the layout
    fits the rank, padded widths are at least the sizes, and the padded
    element count fits in int64. Shapes are immutable, hashable and equal by
    value (type, dimensions, dynamic dimensions and the whole layout).

    ``dynamic_dimensions`` marks bounded dynamic dimensions (``f32[<=16,3]``
    has ``(True, False)``): their size is an upper bound, and the buffer is
    laid out at that bound, as XLA lays it out. A dimension of size
    ``Shape.UNBOUNDED_SIZE`` (XLA's ``kUnboundedSize``, printed ``?``) is
    unbounded and dynamic: such a shape has no buffer, so its sizes,
    strides and every index operation raise ValueError saying so; it is
    built, compared and printed like any other.

    Parameters
    ----------
    element_type : PrimitiveType, int, str or numpy.dtype
        An array element type, as itself, its number, its XLA name
        (``"f32"``), a NumPy dtype or scalar type (``np.float32``), or the
        full name of a dtype that maps to one XLA type (``"float32"``,
        ``"bool"``, ``"bfloat16"``). Short codes (``"f4"``, ``"i8"``) are
        refused, naming the XLA type NumPy reads them as: ``"i8"`` is
        NumPy's int64 but looks like XLA's ``s8``.
    dimensions : iterable of int
        The size of each dimension, each at least 0.
    layout : Layout, optional
        How the elements lie in memory; None (the default) for row-major.
    dynamic_dimensions : iterable of bool, optional
        One flag per dimension marking bounded dynamic sizes (default: none).

    Raises
    ------
    ValueError
        For a negative size, a layout that does not fit, a non-array
        element type (TUPLE, OPAQUE, TOKEN), or more than ``Shape.MAX_RANK``
        (64, NumPy's limit) dimensions.
    SizeOverflowError
        When the padded element count does not fit in int64: a subclass
        of both OverflowError and ValueError.
    TypeError
        For arguments of the wrong type.

    See Also
    --------
    ShapeUtil : XLA's helpers on shapes, such as ``parse_shape_string``.

    Examples
    --------
    >>> s = xs.Shape("f32", (2, 3), xs.Layout((0, 1), (3, 5)))
    >>> s.rank, s.strides, s.buffer_size
    (2, (1, 3), 15)
    >>> xs.Shape("float32", (2, 3)) == xs.Shape("f32", (2, 3))
    True
    """

    #: The size of an unbounded dynamic dimension (``?``), XLA's
    #: ``Shape::kUnboundedSize``.
    UNBOUNDED_SIZE = UNBOUNDED_SIZE
    #: The most dimensions a shape (and a layout) has: 64, NumPy's limit.
    MAX_RANK = MAX_RANK

    __slots__ = ("_element_type", "_dimensions", "_layout", "_dynamic", "_layout_plan", "_hash")
    _element_type: PrimitiveType
    _dimensions: tuple[int, ...]
    _layout: Layout
    _dynamic: tuple[bool, ...]
    _layout_plan: LayoutPlan | None
    _hash: int | None

    def __init__(
        self,
        element_type: PrimitiveType | int | str,
        dimensions: Iterable[int],
        layout: Layout | None = None,
        dynamic_dimensions: Iterable[bool] = (),
    ) -> None:
        etype = PrimitiveType.coerce(element_type)
        if not etype.is_array:
            raise ValueError(
                f"{etype.name} is not an array element type; a Shape here "
                "describes arrays only"
            )
        dims = as_int_tuple(dimensions, "dimensions", per_dimension=True)
        dynamic = _dynamic_flags(dynamic_dimensions, dims)
        for i, size in enumerate(dims):
            if size < 0 and not (size == UNBOUNDED_SIZE and dynamic[i]):
                raise ValueError(
                    f"Invalid dimension size {size}, is_dynamic={'true' if dynamic[i] else 'false'}: "
                    f"shape's dimensions must not be < 0; dimension at index {i} "
                    f"was {size} (Shape.UNBOUNDED_SIZE, for a dynamic dimension "
                    "only, is '?')"
                )
        if layout is None:
            layout = Layout(range(len(dims) - 1, -1, -1))
        elif not isinstance(layout, Layout):
            raise TypeError(f"layout must be a Layout or None, got {type(layout).__name__}")
        validate_layout(layout, dims, etype)
        object.__setattr__(self, "_element_type", etype)
        object.__setattr__(self, "_dimensions", dims)
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_dynamic", dynamic)
        object.__setattr__(self, "_layout_plan", None)
        object.__setattr__(self, "_hash", None)
        if UNBOUNDED_SIZE in dims:
            if layout.padded_dimensions:
                raise ValueError(
                    f"shape {self} has an unbounded dimension and padded widths; "
                    "an unbounded dimension has no width to pad to"
                )
            return
        widths = layout.padded_dimensions or dims
        for i, width in enumerate(widths):
            if width > INT64_MAX:
                raise SizeOverflowError(
                    f"dimension {i} has size or padded width {width}, more than the "
                    f"int64 maximum {INT64_MAX}"
                )
        if layout.tiles:
            count = math.prod(tiling.tiled_extents(dims, layout.minor_to_major, layout.tiles))
            what = f"with tiles {''.join(map(str, layout.tiles))}"
        else:
            count = math.prod(widths)
            what = f"padded widths {list(widths)}"
        if count > INT64_MAX:
            raise SizeOverflowError(
                f"shape {etype.text}[{','.join(map(str, dims))}] holds {count} "
                f"elements ({what}), more than the int64 maximum {INT64_MAX}"
            )
        if layout.tiles:
            plan: LayoutPlan = TiledPlan.build(dims, layout)
        else:
            plan = LayoutPlan(dims, layout.minor_to_major, widths)
        object.__setattr__(self, "_layout_plan", plan)

    def __hash__(self) -> int:
        # Kept once worked out: shapes key the caches of plans that every
        # to_linear and from_linear looks up (about 1.3 us a hash).
        found = self._hash
        if found is None:
            found = super().__hash__()
            object.__setattr__(self, "_hash", found)
        return found

    @property
    def _plan(self) -> LayoutPlan:
        """Where the elements lie, as the kernels read it; ValueError for a
        shape with an unbounded dimension, which has no buffer."""
        plan = self._layout_plan
        if plan is None:
            self._refuse_unbounded("it has no buffer in which to place an element")
        return plan  # type: ignore[return-value]

    @property
    def is_unbounded_dynamic(self) -> bool:
        """Whether some dimension is unbounded (``?``; XLA's
        ``is_unbounded_dynamic``).

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[?,784]").is_unbounded_dynamic
        True
        """
        return UNBOUNDED_SIZE in self._dimensions

    def _refuse_unbounded(self, what: str) -> None:
        """ValueError for a buffer or index operation on an unbounded shape."""
        if UNBOUNDED_SIZE in self._dimensions:
            dim = self._dimensions.index(UNBOUNDED_SIZE)
            raise ValueError(
                f"shape {self} has an unbounded dynamic dimension (dimension {dim}, "
                f"'?'): {what}. Only bounded shapes (such as "
                f"{self._element_type.text}[<=N,...]) are laid out in memory"
            )

    @classmethod
    def from_array(cls, array: np.ndarray) -> Shape:
        """The shape of a NumPy array as it lies in memory.

        The element type comes from the dtype, which must be native byte
        order; ``minor_to_major`` comes from the strides. C order gives the
        default layout ``{n-1,...,0}``, Fortran order ``{0,...,n-1}``, and any
        transposed contiguous array the matching permutation. A slice whose
        outer strides are wider than the inner extent, such as ``a[:, :5]`` of
        a C array ``a`` with 8 columns, gives a padded layout (widths ``[2, 8]``
        here, padding value UNKNOWN_PAD) when that reproduces every stride
        exactly; the most major dimension is never padded. Strides that no
        layout gives (steps in the minor dimension, reversed, broadcast or
        overlapping arrays) raise ValueError rather than a guess.

        Size-1 dimensions have no meaningful stride: they are slotted in by
        dimension number, so C and Fortran arrays still get the layouts above.
        An array with no elements gets the default layout. See
        :func:`xlashape.model.strides.layout_from_strides` for the exact rules.

        Parameters
        ----------
        array : numpy.ndarray
            An array of native byte order and an XLA element type.

        Returns
        -------
        Shape

        Raises
        ------
        ValueError
            For strides that no layout gives, or a dtype with no XLA type.
        TypeError
            If ``array`` is not a NumPy array.

        Examples
        --------
        >>> xs.Shape.from_array(np.zeros((2, 3), dtype=np.int32, order="F"))
        Shape('s32', (2, 3), Layout(minor_to_major=(0, 1)))
        >>> xs.Shape.from_array(np.zeros((2, 3, 4), dtype=np.float32).transpose(2, 0, 1))
        Shape('f32', (4, 2, 3), Layout(minor_to_major=(0, 2, 1)))
        """
        if not isinstance(array, np.ndarray):
            raise TypeError(
                f"from_array reads a NumPy array's strides, got {type(array).__name__}"
            )
        element_type = PrimitiveType.from_dtype(array.dtype)
        if not array.dtype.isnative:
            raise ValueError(
                f"array has non-native byte order ({array.dtype.str}); XLA buffers are "
                "native: convert with array.astype(array.dtype.newbyteorder('='))"
            )
        layout = layout_from_strides(array.shape, array.strides, array.itemsize)
        return cls(element_type, array.shape, layout)

    @classmethod
    def from_jax(cls, obj: object, dimensions: Iterable[int] | None = None, dtype: object = None) -> Shape:
        """The shape of a ``jax.Array`` as JAX lays it out on its device: its
        dtype, dimensions and ``format.layout`` (major-to-minor order, tiling
        and sub-byte element size). A JAX ``Format`` or
        ``jax.experimental.layout.Layout`` works too, given ``dimensions``
        and ``dtype``. Needs JAX (the ``jax`` extra); see
        :mod:`xlashape.model.jax_interop`.

        Examples
        --------
        >>> jax_layout = pytest.importorskip("jax.experimental.layout")  # doctest: +SKIP
        >>> tiled = jax_layout.Layout((0, 1), tiling=((8, 128), (2, 1)))  # doctest: +SKIP
        >>> print(xs.Shape.from_jax(tiled, (16, 256), "bfloat16"))  # doctest: +SKIP
        bf16[16,256]{1,0:T(8,128)(2,1)}
        """
        element_type, dims, layout = jax_interop.read_jax(
            obj, None if dimensions is None else tuple(dimensions), dtype
        )
        return cls(element_type, dims, layout)

    def to_jax_layout(self) -> object:
        """This shape's layout as ``jax.experimental.layout.Layout`` (pass it
        to ``jax.experimental.layout.Format``, ``jax.device_put`` or
        ``jax.jit(..., in_shardings=...)``). Needs JAX.

        Examples
        --------
        >>> shape = xs.ShapeUtil.parse_shape_string("bf16[16,256]{1,0:T(8,128)(2,1)}")
        >>> shape.to_jax_layout()  # doctest: +SKIP
        Layout(major_to_minor=(0, 1), tiling=((8, 128), (2, 1)), sub_byte_element_size_in_bits=0)
        """
        return jax_interop.to_jax_layout(self._layout)

    # -- the model -------------------------------------------------------
    @property
    def element_type(self) -> PrimitiveType:
        """The XLA element type of the array.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.element_type
        <PrimitiveType.F32: 11>
        """
        return self._element_type

    @property
    def dimensions(self) -> tuple[int, ...]:
        """The size of each dimension, by dimension number.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.dimensions
        (2, 3)
        """
        return self._dimensions

    @property
    def layout(self) -> Layout:
        """How the elements lie in linear memory (the default layout if none was given).

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.layout
        Layout(minor_to_major=(0, 1), padded_dimensions=(3, 5))
        """
        return self._layout

    @property
    def dynamic_dimensions(self) -> tuple[bool, ...]:
        """For each dimension, whether it is a bounded dynamic dimension.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[<=16,3]").dynamic_dimensions
        (True, False)
        """
        return self._dynamic

    def is_dynamic_dimension(self, dimension_number: int) -> bool:
        """Whether a dimension is dynamic (its size an upper bound); negative
        numbers count from the end.

        Examples
        --------
        >>> xs.Shape("f32", (16, 3), dynamic_dimensions=(True, False)).is_dynamic_dimension(-2)
        True
        """
        return self._dynamic[normalize_dimension(dimension_number, self.rank)]

    def is_static_dimension(self, dimension_number: int) -> bool:
        """Whether a dimension is static (XLA's ``is_static_dimension``);
        negative numbers count from the end.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[?,784]").is_static_dimension(1)
        True
        """
        return not self.is_dynamic_dimension(dimension_number)

    @property
    def is_static(self) -> bool:
        """Whether no dimension is dynamic.

        Examples
        --------
        >>> xs.Shape("f32", (16, 3)).is_static
        True
        """
        return not any(self._dynamic)

    @property
    def is_dynamic(self) -> bool:
        """Whether some dimension is dynamic, bounded or not (XLA's
        ``is_dynamic``).

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("s32[<=5,2]").is_dynamic
        True
        """
        return any(self._dynamic)

    @property
    def is_tiled(self) -> bool:
        """Whether the layout has tiles.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}").is_tiled
        True
        """
        return bool(self._layout.tiles)

    @property
    def rank(self) -> int:
        """The number of dimensions.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.rank
        2
        """
        return len(self._dimensions)

    @property
    def true_rank(self) -> int:
        """The number of dimensions whose size is not 1 (XLA's 2017
        ``TrueRank``; today's name is :attr:`true_num_dimensions`).

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.Shape("f32", [1, 3, 1, 4]).true_rank, xs.Shape("f32", [1, 3, 1, 4]).true_num_dimensions
        (2, 2)
        """
        return sum(1 for d in self._dimensions if d != 1)

    #: :attr:`true_rank` under today's XLA name (``TrueNumDimensions``).
    true_num_dimensions = true_rank

    def is_unbounded_dynamic_dimension(self, dimension_number: int) -> bool:
        """Whether a dimension is unbounded (``?``); negative numbers count
        from the end.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[?,784]").is_unbounded_dynamic_dimension(0)
        True
        """
        return self.dimension(dimension_number) == UNBOUNDED_SIZE

    def dimension(self, dimension_number: int) -> int:
        """The size of a dimension; negative numbers count from the end.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.dimension(0), s.dimension(-1)
        (2, 3)
        """
        return self._dimensions[normalize_dimension(dimension_number, self.rank)]

    def _letter(self, letter: str) -> int:
        letters = _LETTERS.get(self.rank, "")
        if letter not in letters:
            raise AttributeError(
                f"dimension letter {letter!r} names a dimension of "
                + {"x": "2-D to 4-D", "y": "2-D to 4-D", "z": "3-D and 4-D", "p": "4-D"}[letter]
                + f" arrays only; this shape is rank {self.rank}"
            )
        return self._dimensions[letters.index(letter)]

    @property
    def x(self) -> int:
        """Size of the x dimension: the last one of a 2-D to 4-D array.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.x
        3
        """
        return self._letter("x")

    @property
    def y(self) -> int:
        """Size of the y dimension: dimension 0 of 2-D, 1 of 3-D, 2 of 4-D.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.y
        2
        """
        return self._letter("y")

    @property
    def z(self) -> int:
        """Size of the z dimension: dimension 0 of 3-D, 1 of 4-D.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.Shape("f32", [4, 2, 3]).z
        4
        """
        return self._letter("z")

    @property
    def p(self) -> int:
        """Size of the p dimension: dimension 0 of a 4-D array.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> xs.Shape("f32", [5, 4, 2, 3]).p
        5
        """
        return self._letter("p")

    # -- memory ----------------------------------------------------------
    @property
    def padded_dimensions(self) -> tuple[int, ...]:
        """The width each dimension occupies in memory (its size if unpadded;
        a tiled layout pads whole tiles instead, see ``tiled_dimensions``).
        ValueError for an unbounded dimension.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.padded_dimensions
        (3, 5)
        """
        self._refuse_unbounded("it has no widths in memory")
        return self._layout.padded_dimensions or self._dimensions

    @property
    def tiled_dimensions(self) -> tuple[int, ...]:
        """The dimensions of the array the tiles make, most major first: tile
        counts, then within-tile sizes (the physical dimensions if untiled).
        Their product is ``buffer_size``.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}").tiled_dimensions
        (2, 3, 2, 2)
        """
        layout = self._layout
        self._refuse_unbounded("it has no tiled dimensions")
        if not layout.tiles:
            return tuple(self.padded_dimensions[d] for d in reversed(layout.minor_to_major))
        return tiling.tiled_extents(self._dimensions, layout.minor_to_major, layout.tiles)

    @property
    def element_count(self) -> int:
        """The number of array elements (padding not counted).

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.element_count
        6
        """
        self._refuse_unbounded("it has no element count")
        return math.prod(self._dimensions)

    @property
    def buffer_size(self) -> int:
        """The number of elements in the linear buffer, padding (of widths or
        of whole tiles) included: a count of elements, not bytes.

        XLA's byte-counting ``ShapeUtil::ArraySize`` is
        :meth:`ShapeUtil.byte_size_of` here, which also adds the tail padding
        of ``L(n)`` and sizes split dimensions by their largest piece (no
        element lies there, so ``buffer_size`` leaves them out).

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.buffer_size
        15
        """
        return self._plan.size

    @property
    def strides(self) -> tuple[int, ...]:
        """Each dimension's stride in elements, following the layout.

        A tiled layout has none (a step along a dimension jumps between
        tiles): ValueError.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.strides
        (1, 3)
        """
        if self._layout.tiles:
            raise ValueError(
                f"shape {self} has a tiled layout: a step along one dimension does "
                "not move a fixed distance in memory, so it has no strides; use "
                "ravel/unravel or IndexUtil to place elements"
            )
        return self._plan.strides

    @property
    def byte_strides(self) -> tuple[int, ...]:
        """Each dimension's stride in bytes: ``strides`` times the element's
        byte size, as exact Python ints.

        ValueError for a tiled layout (no strides) and for elements packed
        below a byte (``element_size_in_bits`` under 8), whose strides are
        not whole bytes.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.byte_strides
        (4, 12)
        """
        strides = self.strides
        bits = self._layout.element_size_in_bits
        if bits:
            if bits % 8:
                raise ValueError(
                    f"shape {self} packs elements into {bits} bits, so its strides "
                    "are not whole bytes"
                )
            return tuple(stride * (bits // 8) for stride in strides)
        size = self._element_type.byte_size
        assert size is not None  # a Shape holds array element types only
        return tuple(stride * size for stride in strides)

    @property
    def numpy_strides(self) -> tuple[int, ...]:
        """The strides (in bytes) of a NumPy array of these dimensions over
        the linear buffer, as ``np.ndarray(..., strides=)`` takes them.

        They are ``byte_strides``, checked to fit NumPy's intp
        (:class:`~xlashape.errors.SizeOverflowError`, an OverflowError and a
        ValueError, otherwise). In a shape with no elements no stride is ever used, and
        those too large for intp are given as 0.

        Examples
        --------
        >>> s = xs.Shape("f32", [2, 3], xs.Layout([0, 1], [3, 5]))
        >>> s.numpy_strides
        (4, 12)
        """
        empty = self.element_count == 0
        strides = []
        for dim, stride in enumerate(self.byte_strides):
            if stride > _INTP_MAX:
                if not empty:
                    raise SizeOverflowError(
                        f"dimension {dim} of shape {self} has a stride of {stride} "
                        f"bytes, more than NumPy's maximum {_INTP_MAX}"
                    )
                stride = 0
            strides.append(stride)
        return tuple(strides)

    # -- value semantics (the rest is Frozen's) ----------------------------
    def _key(self) -> tuple[object, ...]:
        if any(self._dynamic):
            return (self._element_type, self._dimensions, self._layout, self._dynamic)
        return (self._element_type, self._dimensions, self._layout)

    def __repr__(self) -> str:
        dynamic = f", dynamic_dimensions={self._dynamic}" if any(self._dynamic) else ""
        return (
            f"Shape({self._element_type.text!r}, {self._dimensions}, {self._layout!r}{dynamic})"
        )

    def _repr_html_(self) -> str | None:
        """The layout drawn as SVG, which Jupyter, VS Code and Colab show
        for a Shape: :func:`xlashape.pictures.layout_picture.svg`. None (the
        text repr) for a shape with an unbounded dimension, which has no buffer.

        Examples
        --------
        >>> xs.ShapeUtil.parse_shape_string("f32[3,5]{1,0:T(2,2)}")._repr_html_()[:4]
        '<svg'
        """
        if self.is_unbounded_dynamic or _html_picture is None:
            return None
        return _html_picture(self)

    def __str__(self) -> str:
        """XLA's ``HumanStringWithLayout``: ``f32[2,3]{1,0}``; a scalar's
        layout only when it says more than ``{}``, as XLA prints it."""
        layout = str(self._layout)
        return self.dimensions_text() + ("" if layout == "{}" else layout)

    def dimensions_text(self) -> str:
        """``f32[<=16,3]``: the element type and sizes, ``<=`` marking bounds
        and ``?`` unbounded dimensions.

        Examples
        --------
        >>> xs.Shape("f32", (16, 3), dynamic_dimensions=(True, False)).dimensions_text()
        'f32[<=16,3]'
        """
        dims = ",".join(
            "?" if size == UNBOUNDED_SIZE else f"<={size}" if dynamic else str(size)
            for size, dynamic in zip(self._dimensions, self._dynamic)
        )
        return f"{self._element_type.text}[{dims}]"


def _dynamic_flags(values: Iterable[bool], dims: tuple[int, ...]) -> tuple[bool, ...]:
    """One flag per dimension (when ``values`` is empty: True for the
    unbounded ones only, as XLA's ``MakeShape``)."""
    rank = len(dims)
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(
            f"dynamic_dimensions must be a sequence of booleans, got {type(values).__name__}"
        )
    flags = tuple(itertools.islice(values, rank + 1))  # an endless iterable ends too
    if not flags:
        return tuple(size == UNBOUNDED_SIZE for size in dims)
    if len(flags) != rank:
        raise ValueError(
            f"dynamic_dimensions has {len(flags)} entries, but the shape is rank {rank}"
        )
    for i, flag in enumerate(flags):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(
                f"dynamic_dimensions[{i}] must be a boolean, got {type(flag).__name__} {flag!r}"
            )
    return tuple(bool(f) for f in flags)
